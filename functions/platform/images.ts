/**
 * Uploaded images are checked by content, not by name: the first bytes must be a PNG or JPEG
 * signature, and the decoded size is limited on the server whatever the browser checked.
 */
export type ImageType = 'image/png' | 'image/jpeg';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

export function imageTypeOf(bytes: Buffer): ImageType | null {
  if (bytes.subarray(0, PNG.length).equals(PNG)) return 'image/png';
  if (bytes.subarray(0, JPEG.length).equals(JPEG)) return 'image/jpeg';
  return null;
}

/** `data:image/png;base64,…` or bare base64 → bytes; null when it is not base64 at all. */
export function decodeBase64Payload(value: string): Buffer | null {
  const base64 = value.replace(/^data:[\w/+.-]+;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length === 0) return null;
  return Buffer.from(base64, 'base64');
}
