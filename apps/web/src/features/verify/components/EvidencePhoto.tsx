import { VERIFY_PHOTO_LABELS, type VerifyPhotoKind } from "@burrow/contract";
import { useQuery } from "@tanstack/react-query";
import { Image, Skeleton, Typography } from "antd";
import { useEffect, useState } from "react";
import { verifyPhotoQuery } from "../verify.api";

/** One photo of a manual review, fetched with the token (audited) and shown from a blob: URL revoked on unmount. */
export function EvidencePhoto({ uid, kind, version }: { uid: number; kind: VerifyPhotoKind; version: string }) {
  const { data, isError } = useQuery(verifyPhotoQuery(uid, kind, version));
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!data) return;
    const u = URL.createObjectURL(data);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [data]);
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
