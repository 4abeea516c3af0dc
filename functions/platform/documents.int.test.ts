import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { presignDownload, presignUpload } from './documents';

describe('documents bucket through presigned URLs', () => {
  it('uploads a file with a presigned PUT and downloads it back byte-identical', async () => {
    const bytes = randomBytes(300 * 1024);
    const key = `tests/${randomUUID()}.bin`;
    const upload = await presignUpload(key, 'application/octet-stream');
    expect(upload).toContain('X-Amz-Signature=');
    const put = await fetch(upload, { method: 'PUT', body: bytes, headers: { 'content-type': 'application/octet-stream' } });
    expect(put.status).toBe(200);

    const download = await presignDownload(key, 'application/pdf', { fileName: 'relatório de março.pdf' });
    // S3 answers with this type and disposition (the emulator ignores them, so the signed URL is what we check).
    expect(new URL(download).searchParams.get('response-content-disposition')).toBe('attachment; filename="relatorio_de_marco.pdf"');
    expect(new URL(download).searchParams.get('response-content-type')).toBe('application/pdf');
    const got = await fetch(download);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('hands an avatar out inline with its type', async () => {
    const download = new URL(await presignDownload('avatars/x.png', 'image/png', { inline: true }));
    expect(download.searchParams.get('response-content-disposition')).toBe('inline');
    expect(download.searchParams.get('response-content-type')).toBe('image/png');
  });

  it('answers 404 for a key that was never uploaded', async () => {
    const got = await fetch(await presignDownload(`tests/${randomUUID()}.bin`, 'application/octet-stream', { fileName: 'x.bin' }));
    expect(got.status).toBe(404);
  });
});
