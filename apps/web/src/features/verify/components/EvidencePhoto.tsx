import { VERIFY_PHOTO_LABELS, type VerifyPhotoKind } from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Image, Skeleton, Typography } from "antd";
import { useBlobUrl } from "@/lib/blob-url";
import { verifyPhotoQuery } from "../verify.api";

/** One photo of a manual review, fetched with the token (audited) and shown from a blob: URL revoked on unmount. */
export function EvidencePhoto({ uid, kind, version }: { uid: number; kind: VerifyPhotoKind; version: string }) {
  const { data, isError } = useQuery(verifyPhotoQuery(uid, kind, version));
  const url = useBlobUrl(data);
  const label = VERIFY_PHOTO_LABELS[kind];
  return (
    <figure style={{ margin: 0 }}>
      {isError ? (
        <Typography.Text type="danger">照片无法加载</Typography.Text>
      ) : url ? (
        <Image src={url} width={240} height={160} style={{ objectFit: "contain", background: "#f5f5f5" }} alt={label} />
      ) : (
        <Skeleton.Image active style={{ width: 240, height: 160 }} />
      )}
      <figcaption>
        <Typography.Text type="secondary">{label}</Typography.Text>
      </figcaption>
    </figure>
  );
}
