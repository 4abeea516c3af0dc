/**
 * Uploaded files are checked by what they are, never by their name or first bytes alone: an image
 * is decoded whole and stored re-encoded from its pixels (so nothing but pixels survives: no script
 * after the image data, no EXIF location); PDFs have their own module (pdf.ts), so that only the
 * functions that receive PDFs carry a PDF parser. The feature that accepts a file says which rule
 * applies and which catalogue message answers it.
 */
export type ImageType = 'image/png' | 'image/jpeg';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff]);
/** Decoding limits: an avatar needs far less, and a crafted header must not exhaust the Lambda. */
const MAX_IMAGE_MEGAPIXELS = 24;
const MAX_DECODE_MEGABYTES = 256;

/** `data:<type>;base64,…` or bare base64 → bytes; null when it is not base64 at all. */
export function decodeBase64Payload(value: string): Buffer | null {
  const base64 = value.replace(/^data:[\w/+.-]+;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length === 0) return null;
  return Buffer.from(base64, 'base64');
}

export interface CheckedImage {
  type: ImageType;
  /** The image re-encoded from its decoded pixels: what is stored and served. */
  bytes: Buffer;
}

/**
 * A PNG or JPEG that decodes completely, re-encoded; null for anything else. The decoders (pngjs,
 * jpeg-js: CommonJS, which a bundle evaluates when the module importing them is) are loaded by the
 * first image, not at a cold start of every function that can receive one (issue 39).
 */
export async function checkedImage(bytes: Buffer): Promise<CheckedImage | null> {
  const type = bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE) ? 'image/png' : bytes.subarray(0, JPEG_SIGNATURE.length).equals(JPEG_SIGNATURE) ? 'image/jpeg' : null;
  if (type === 'image/png') {
    const { PNG } = await import('pngjs');
    return decoded(() => {
      const png = PNG.sync.read(bytes);
      return png.width * png.height > MAX_IMAGE_MEGAPIXELS * 1e6 ? null : { type, bytes: PNG.sync.write(png) };
    });
  }
  if (type === 'image/jpeg') {
    const { default: jpeg } = await import('jpeg-js');
    return decoded(() => {
      const image = jpeg.decode(bytes, { maxResolutionInMP: MAX_IMAGE_MEGAPIXELS, maxMemoryUsageInMB: MAX_DECODE_MEGABYTES, formatAsRGBA: true });
      return { type, bytes: Buffer.from(jpeg.encode(image, 90).data) };
    });
  }
  return null;
}

/** A decoder's answer; null when it throws: a truncated or crafted file is not an image. */
function decoded(decode: () => CheckedImage | null): CheckedImage | null {
  try {
    return decode();
  } catch {
    return null;
  }
}
