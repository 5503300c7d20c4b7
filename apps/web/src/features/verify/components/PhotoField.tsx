import { VERIFY_PHOTO_LABELS, type VerifyPhotoKind } from "@burrow/contract";
import { RiImageAddLine } from "@remixicon/react";
import { Form, Space, Upload, type UploadFile } from "antd";

/** Image types the server takes (it checks the bytes; this spares a useless upload). */
const TYPES = ["image/png", "image/jpeg", "image/webp"];
/** Largest file picked: larger photos are shrunk before they are sent (photo.ts); the server takes 5 MB each. */
const PICK_MAX_MB = 30;

/** The picker of one photo (Form.Item gives it `id`, `fileList` and `onChange`); its button goes once a file is picked. */
function PhotoPicker({
  id,
  fileList,
  onChange,
}: {
  id?: string;
  fileList?: UploadFile[];
  onChange?: (e: { fileList: UploadFile[] }) => void;
}) {
  return (
    <Upload
      id={id}
      accept={TYPES.join(",")}
      listType="picture-card"
      maxCount={1}
      fileList={fileList ?? []}
      onChange={onChange}
      beforeUpload={() => false}
    >
      {fileList?.length ? null : (
        <Space orientation="vertical" size={4} align="center">
          <RiImageAddLine size={20} />
          <span>选择照片</span>
        </Space>
      )}
    </Upload>
  );
}

/** One photo of the ID card: picked, previewed, sent with the form (never uploaded on its own). */
export function PhotoField({ kind, required }: { kind: VerifyPhotoKind; required: boolean }) {
  return (
    <Form.Item
      name={kind}
      label={VERIFY_PHOTO_LABELS[kind]}
      valuePropName="fileList"
      getValueFromEvent={(e: { fileList: UploadFile[] }) => e.fileList}
      rules={[
        { required, message: `请上传${VERIFY_PHOTO_LABELS[kind]}照片` },
        {
          validator: async (_, list: UploadFile[] | undefined) => {
            const f = list?.[0];
            if (!f) return;
            if (f.type && !TYPES.includes(f.type)) throw new Error("仅支持 png、jpg、webp 图片");
            if ((f.size ?? 0) > PICK_MAX_MB * 1024 * 1024) throw new Error(`照片不能超过 ${PICK_MAX_MB} MB`);
          },
        },
      ]}
    >
      <PhotoPicker />
    </Form.Item>
  );
}
