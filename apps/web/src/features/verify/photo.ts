/**
 * ID-card photos are shrunk in the browser before they are sent: a phone's camera gives 3–8 MB
 * per photo, and the three go in one request, which the reverse proxy in front of Burrow caps
 * (docs/deploy.md, "Upload sizes": `client_max_body_size 11m`). 1600 px on the long side keeps an ID card
 * readable; a photo already small enough is sent unchanged.
 */
const MAX_SIDE = 1600;
/** Target size per photo: three of them (about 3 MB) stay well under the proxy's cap, even a stricter 4 MB one. */
const TARGET_BYTES = 1024 * 1024;

function encode(canvas: HTMLCanvasElement, quality: number): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", quality));
}

/**
 * The photo to send: the file itself when it is small, else a JPEG of at most MAX_SIDE px whose
 * quality steps down until it fits TARGET_BYTES. A file the browser cannot decode is sent as it
 * is (the server refuses what is not an image, naming the field).
 */
export async function shrinkPhoto(file: Blob): Promise<Blob> {
  if (file.size <= TARGET_BYTES) return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return file;
  }
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext("2d")?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  let best: Blob = file;
  for (const quality of [0.85, 0.7, 0.55]) {
    const out = await encode(canvas, quality);
    if (out && out.size < best.size) best = out;
    if (best.size <= TARGET_BYTES) break;
  }
  return best;
}
