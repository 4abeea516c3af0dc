import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { checkedImage, decodeBase64Payload } from './uploads';

/** Avatars are decoded whole and stored re-encoded: only pixels survive. */
describe('checkedImage', () => {
  const png = () => {
    const image = new PNG({ width: 3, height: 2 });
    image.data.fill(180);
    return PNG.sync.write(image);
  };
  const jpg = () => Buffer.from(jpeg.encode({ width: 4, height: 4, data: Buffer.alloc(4 * 4 * 4, 120) }, 80).data);

  it('accepts a PNG and a JPEG and gives them back re-encoded', async () => {
    const p = await checkedImage(png());
    expect(p?.type).toBe('image/png');
    expect(PNG.sync.read(p!.bytes)).toMatchObject({ width: 3, height: 2 });
    const j = await checkedImage(jpg());
    expect(j?.type).toBe('image/jpeg');
    expect(jpeg.decode(j!.bytes)).toMatchObject({ width: 4, height: 4 });
  });

  it('refuses the magic bytes of an image followed by a script', async () => {
    expect(await checkedImage(Buffer.concat([png().subarray(0, 8), Buffer.from('<script>alert(1)</script>')]))).toBeNull();
    expect(await checkedImage(Buffer.concat([jpg().subarray(0, 3), Buffer.from('<script>alert(1)</script>')]))).toBeNull();
  });

  it('never stores what follows the image data', async () => {
    const checked = await checkedImage(Buffer.concat([png(), Buffer.from('<script>alert(1)</script>')]));
    expect(checked === null || !checked.bytes.includes('<script>')).toBe(true);
  });

  it('refuses a truncated image and other formats', async () => {
    expect(await checkedImage(png().subarray(0, 30))).toBeNull();
    expect(await checkedImage(Buffer.from('GIF89a......'))).toBeNull();
    expect(await checkedImage(Buffer.from('%PDF-1.4'))).toBeNull();
  });
});

describe('decodeBase64Payload', () => {
  it('reads a data URL or bare base64 and refuses what is not base64', () => {
    expect(decodeBase64Payload('data:image/png;base64,QUJD')?.toString()).toBe('ABC');
    expect(decodeBase64Payload('QUJD')?.toString()).toBe('ABC');
    expect(decodeBase64Payload('***')).toBeNull();
    expect(decodeBase64Payload('')).toBeNull();
  });
});
