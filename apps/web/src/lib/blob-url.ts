import { useEffect, useState } from "react";

/**
 * An object URL for a fetched Blob (an image fetched with the token, never a public link), revoked
 * when the Blob changes or the component unmounts.
 */
export function useBlobUrl(data: Blob | undefined): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!data) return;
    const u = URL.createObjectURL(data);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [data]);
  return url;
}
