import { randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describe, expect, it } from 'vitest';
import { presignDownload, presignUpload } from '../../functions/platform/documents';

/**
 * The twin's /_s3 relay against the running twin: presigned URLs from the functions' own code
 * (functions/platform/documents.ts) work; anything S3 would refuse is refused with S3's XML error.
 */
const bucket = () => process.env.DOCUMENTS_BUCKET!;
/** The functions' presigner: the portal's origin, the twin's key. */
const presigner = () =>
  new S3Client({ endpoint: process.env.PLAC_S3_PUBLIC_ENDPOINT!, forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED' });

async function upload(key: string, bytes: Buffer | string, contentType: string) {
  const put = await fetch(await presignUpload(key, contentType), { method: 'PUT', body: bytes, headers: { 'content-type': contentType } });
  expect(put.status).toBe(200);
}

async function s3Error(response: Response) {
  const text = await response.text();
  expect(response.headers.get('content-type')).toBe('application/xml');
  return { status: response.status, code: /<Code>(.*?)<\/Code>/.exec(text)?.[1], message: /<Message>(.*?)<\/Message>/.exec(text)?.[1] };
}

/** A raw request, path sent exactly as written (fetch would resolve `..` before sending). */
function rawGet(path: string) {
  const base = new URL(process.env.PLAC_S3_PUBLIC_ENDPOINT!);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: base.hostname, port: base.port, path, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the twin’s S3 relay', () => {
  it('serves a presigned GET of a presigned PUT, byte for byte, with nosniff', async () => {
    const key = `tests/${randomUUID()}.pdf`;
    const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(2048)]);
    await upload(key, bytes, 'application/pdf');
    const got = await fetch(await presignDownload(key, 'application/pdf', { fileName: 'relatório.pdf' }));
    expect(got.status).toBe(200);
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('content-type')).toBe('application/pdf');
    expect(got.headers.get('content-disposition')).toBe('attachment; filename="relatorio.pdf"');
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('refuses an object without a signature (403), with a tampered one (403), or missing a parameter (400)', async () => {
    const key = `tests/${randomUUID()}.pdf`;
    await upload(key, '%PDF-1.7', 'application/pdf');
    const url = await presignDownload(key, 'application/pdf', { inline: true });
    expect(await s3Error(await fetch(url.split('?')[0]!))).toMatchObject({ status: 403, code: 'AccessDenied' });
    const signature = new URL(url).searchParams.get('X-Amz-Signature')!;
    const tampered = url.replace(signature, [...signature].reverse().join(''));
    expect(await s3Error(await fetch(tampered))).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
    const without = new URL(url);
    without.searchParams.delete('X-Amz-Signature');
    expect(await s3Error(await fetch(without))).toMatchObject({ status: 400, code: 'AuthorizationQueryParametersError' });
  });

  it('refuses an expired URL with “Request has expired”', async () => {
    const key = `tests/${randomUUID()}.pdf`;
    await upload(key, '%PDF-1.7', 'application/pdf');
    const url = await getSignedUrl(presigner(), new GetObjectCommand({ Bucket: bucket(), Key: key }), {
      expiresIn: 60,
      signingDate: new Date(Date.now() - 5 * 60_000),
    });
    expect(await s3Error(await fetch(url))).toEqual({ status: 403, code: 'AccessDenied', message: 'Request has expired' });
  });

  it('a GET-signed URL neither PUTs nor DELETEs, and reaches no other key', async () => {
    const key = `tests/${randomUUID()}.pdf`;
    const other = `tests/${randomUUID()}.pdf`;
    await upload(key, '%PDF-1.7 original', 'application/pdf');
    await upload(other, '%PDF-1.7 other', 'application/pdf');
    const url = await presignDownload(key, 'application/pdf', { inline: true });
    const put = await fetch(url, { method: 'PUT', body: 'overwritten', headers: { 'content-type': 'application/pdf' } });
    expect(await s3Error(put)).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
    expect(await s3Error(await fetch(url, { method: 'DELETE' }))).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
    expect(await s3Error(await fetch(url.replace(key, other)))).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
    expect(await (await fetch(url)).text()).toBe('%PDF-1.7 original');
  });

  it('refuses `..` and encoded traversal (400 InvalidURI)', async () => {
    const url = new URL(await presignDownload('tests/x.pdf', 'application/pdf', { inline: true }));
    for (const path of [`/_s3/${bucket()}/tests/../../etc/passwd`, `/_s3/${bucket()}/%2e%2e/%2E%2E/x`, `/_s3/${bucket()}/tests%2F..%2Fx`, `/api/../_s3/${bucket()}/x`]) {
      const answer = await rawGet(path + url.search);
      expect(answer.status, path).toBe(400);
      expect(answer.body).toContain('<Code>InvalidURI</Code>');
    }
  });

  it('refuses every listing, signed or not (403)', async () => {
    const listing = await getSignedUrl(presigner(), new ListObjectsV2Command({ Bucket: bucket() }));
    expect(new URL(listing).searchParams.get('list-type')).toBe('2');
    expect(await s3Error(await fetch(listing))).toMatchObject({ status: 403, code: 'AccessDenied' });
    const base = process.env.PLAC_S3_PUBLIC_ENDPOINT!;
    for (const url of [`${base}/`, `${base}/${bucket()}`, `${base}/${bucket()}/`, `${base}/${bucket()}?list-type=2`]) {
      expect(await s3Error(await fetch(url)), url).toMatchObject({ status: 403, code: 'AccessDenied' });
    }
  });

  it('takes a response override only when it was signed', async () => {
    const key = `tests/${randomUUID()}.csv`;
    await upload(key, 'a;b\n1;2\n', 'text/csv');
    const plain = await getSignedUrl(presigner(), new GetObjectCommand({ Bucket: bucket(), Key: key }));
    const html = `${plain}&response-content-type=${encodeURIComponent('text/html')}`;
    expect(await s3Error(await fetch(html))).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
    const inline = `${plain.split('?')[0]}?response-content-disposition=inline`;
    expect(await s3Error(await fetch(inline))).toMatchObject({ status: 403, code: 'AccessDenied' });
    const url = await presignDownload(key, 'text/csv; charset=utf-8', { fileName: 'r.csv' });
    const got = await fetch(url);
    expect(got.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(got.headers.get('content-disposition')).toBe('attachment; filename="r.csv"');
  });

  it('serves an uploaded HTML file as an attachment with nosniff, never as a page of the portal', async () => {
    const key = `tests/${randomUUID()}.pdf`;
    // The functions' presigned PUT signs its content type: an upload of another type is refused.
    const outro = await fetch(await presignUpload(key, 'application/pdf'), {
      method: 'PUT',
      body: '<script>alert(document.cookie)</script>',
      headers: { 'content-type': 'text/html' },
    });
    expect(await s3Error(outro)).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
    // An HTML file stored all the same (a URL handed out for that type) is never a page of the portal.
    const put = await fetch(await presignUpload(key, 'text/html'), {
      method: 'PUT',
      body: '<script>alert(document.cookie)</script>',
      headers: { 'content-type': 'text/html' },
    });
    expect(put.status).toBe(200);
    for (const disposition of [undefined, 'inline']) {
      const url = await getSignedUrl(presigner(), new GetObjectCommand({ Bucket: bucket(), Key: key, ResponseContentDisposition: disposition }));
      const got = await fetch(url);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe('text/html');
      expect(got.headers.get('content-disposition')).toBe('attachment');
      expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });
});
