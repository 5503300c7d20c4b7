import type { TicketAttachmentView } from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Image, Skeleton } from "antd";
import { useBlobUrl } from "@/lib/blob-url";
import { attachmentQuery } from "../tickets.api";

/** One attached image, fetched with the token and shown from a blob: URL (revoked on unmount). */
export function AttachmentImage({ file }: { file: TicketAttachmentView }) {
  const { data, isError } = useQuery(attachmentQuery(file.id));
  const url = useBlobUrl(data);
  if (isError) return <span className="ticket-attachment-missing">图片无法加载</span>;
  if (!url) return <Skeleton.Image active style={{ width: 96, height: 96 }} />;
  return <Image src={url} width={96} height={96} style={{ objectFit: "cover" }} alt={`附件 ${file.id}`} />;
}
