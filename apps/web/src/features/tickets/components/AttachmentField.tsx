import { TICKET_ATTACHMENT_MAX_BYTES, TICKET_MAX_ATTACHMENTS } from "@burrow/contract";
import { RiImageAddLine } from "@remixicon/react";
import { Button, Upload, type UploadFile, type UploadProps } from "antd";
import { feedback } from "@/lib/feedback";
import { uploadAttachment } from "../tickets.api";

/** Image types the server accepts (it checks the file's bytes; this only spares a useless upload). */
const TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"];

export interface AttachmentFieldProps {
  value?: UploadFile[];
  onChange?: (files: UploadFile[]) => void;
}

/** The uploaded attachments' ids, for the request body. */
export const attachmentIds = (files: UploadFile[] | undefined): number[] =>
  (files ?? []).flatMap((f) => (f.status === "done" && typeof f.response?.id === "number" ? [f.response.id] : []));

/** Up to three images, each uploaded at once; a form item holding antd's file list. */
export function AttachmentField({ value, onChange }: AttachmentFieldProps) {
  const beforeUpload: UploadProps["beforeUpload"] = (file) => {
    if (!TYPES.includes(file.type)) {
      feedback.error("仅支持 png、jpg、webp、gif 图片");
      return Upload.LIST_IGNORE;
    }
    if (file.size > TICKET_ATTACHMENT_MAX_BYTES) {
      feedback.error(`图片不能超过 ${TICKET_ATTACHMENT_MAX_BYTES / 1024 / 1024} MB`);
      return Upload.LIST_IGNORE;
    }
    return true;
  };
  const customRequest: UploadProps["customRequest"] = async ({ file, onSuccess, onError, onProgress }) => {
    try {
      const r = await uploadAttachment(file as Blob, (percent) => onProgress?.({ percent }));
      onSuccess?.(r);
    } catch (e) {
      // The server's reason (an hourly or storage limit, a full disk) is what the customer needs to read.
      feedback.error((e as Error).message);
      onError?.(e as Error);
    }
  };
  const files = value ?? [];
  return (
    <Upload
      accept={TYPES.join(",")}
      listType="picture"
      fileList={files}
      maxCount={TICKET_MAX_ATTACHMENTS}
      beforeUpload={beforeUpload}
      customRequest={customRequest}
      onChange={({ fileList }) => onChange?.(fileList)}
    >
      {files.length < TICKET_MAX_ATTACHMENTS ? (
        <Button icon={<RiImageAddLine size={16} />}>上传图片（最多 {TICKET_MAX_ATTACHMENTS} 张）</Button>
      ) : null}
    </Upload>
  );
}
