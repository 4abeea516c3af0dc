import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describe, expect, it } from 'vitest';
import { checkPresignedRequest, dispositionFor, type S3RelayOptions } from './s3-relay';

/** The relay's rules on URLs made by the AWS SDK's own presigner, as functions/platform/documents.ts makes them. */
const options: S3RelayOptions = { endpoint: 'http://127.0.0.1:1', region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
const client = new S3Client({
  endpoint: 'http://localhost:3000/_s3',
  forcePathStyle: true,
  region: 'us-east-1',
  credentials: options.credentials,
  requestChecksumCalculation: 'WHEN_REQUIRED',
});
const HOST = { host: 'localhost:3000' };

const target = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};
const check = (method: string, url: string, headers: Record<string, string> = HOST, now?: Date) =>
  checkPresignedRequest({ method, url: target(url), headers }, options, now);
const get = (key: string, extra: Partial<ConstructorParameters<typeof GetObjectCommand>[0]> = {}, expiresIn = 300) =>
  getSignedUrl(client, new GetObjectCommand({ Bucket: 'plac-documents', Key: key, ...extra }), { expiresIn });

describe('the S3 relay checks presigned URLs as S3 does', () => {
  it('accepts the SDK’s GET and PUT URLs, keys with spaces, accents and + included', async () => {
    const download = await get('a b/ç+x.pdf', { ResponseContentType: 'application/pdf', ResponseContentDisposition: 'attachment; filename="x.pdf"' });
    expect(await check('GET', download)).toMatchObject({ ok: true, objectPath: '/plac-documents/a%20b/%C3%A7%2Bx.pdf' });
    const upload = await getSignedUrl(client, new PutObjectCommand({ Bucket: 'plac-documents', Key: 'n/x.pdf', ContentType: 'application/pdf' }), { expiresIn: 300 });
    expect(await check('PUT', upload, { ...HOST, 'content-type': 'application/pdf' })).toMatchObject({ ok: true });
  });

  it('refuses another method, another key, another host, an added parameter, a tampered signature', async () => {
    const url = await get('docs/a.pdf');
    const mismatch = { ok: false, status: 403, code: 'SignatureDoesNotMatch' };
    for (const method of ['PUT', 'DELETE', 'HEAD', 'POST']) expect(await check(method, url), method).toMatchObject(mismatch);
    expect(await check('GET', url.replace('/docs/a.pdf', '/docs/b.pdf'))).toMatchObject(mismatch);
    expect(await check('GET', url, { host: 'localhost:3001' })).toMatchObject(mismatch);
    expect(await check('GET', `${url}&response-content-type=text%2Fhtml`)).toMatchObject(mismatch);
    expect(await check('GET', url.replace(/X-Amz-Expires=\d+/, 'X-Amz-Expires=600000'))).toMatchObject(mismatch);
    const signature = new URL(url).searchParams.get('X-Amz-Signature')!;
    const other = signature.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
    expect(await check('GET', url.replace(signature, other))).toMatchObject(mismatch);
    const del = await getSignedUrl(client, new DeleteObjectCommand({ Bucket: 'plac-documents', Key: 'docs/a.pdf' }));
    expect(await check('GET', del)).toMatchObject(mismatch);
    expect(await check('DELETE', del)).toMatchObject({ ok: true });
  });

  it('refuses an expired URL, and a URL signed with another key', async () => {
    const url = await get('docs/a.pdf', {}, 60);
    expect(await check('GET', url, HOST, new Date(Date.now() + 59_000))).toMatchObject({ ok: true });
    expect(await check('GET', url, HOST, new Date(Date.now() + 61_000))).toMatchObject({ status: 403, code: 'AccessDenied', message: 'Request has expired' });
    const signedBy = (accessKeyId: string, secretAccessKey: string) =>
      getSignedUrl(
        new S3Client({ endpoint: 'http://localhost:3000/_s3', region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId, secretAccessKey } }),
        new GetObjectCommand({ Bucket: 'plac-documents', Key: 'docs/a.pdf' }),
      );
    expect(await check('GET', await signedBy('local', 'other'))).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
    expect(await check('GET', await signedBy('AKIA0000', 'local'))).toMatchObject({ status: 403, code: 'InvalidAccessKeyId' });
  });

  it('answers 403 AccessDenied without any signature, 400 when a parameter is missing or malformed', async () => {
    expect(await check('GET', 'http://localhost:3000/_s3/plac-documents/docs/a.pdf')).toMatchObject({ status: 403, code: 'AccessDenied' });
    const url = await get('docs/a.pdf');
    for (const name of ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders', 'X-Amz-Signature']) {
      const u = new URL(url);
      u.searchParams.delete(name);
      expect(await check('GET', u.href), name).toMatchObject({ status: 400, code: 'AuthorizationQueryParametersError' });
    }
    expect(await check('GET', url.replace(/X-Amz-Date=\w+/, 'X-Amz-Date=yesterday'))).toMatchObject({ status: 400, code: 'AuthorizationQueryParametersError' });
    expect(await check('GET', url.replace('us-east-1', 'sa-east-1'))).toMatchObject({ status: 400, code: 'AuthorizationQueryParametersError' });
  });

  it('refuses listings and sub-resources even when signed, and dot segments', async () => {
    const denied = { status: 403, code: 'AccessDenied' };
    for (const path of ['/_s3/', '/_s3/plac-documents', '/_s3/plac-documents/']) expect(await check('GET', `http://localhost:3000${path}`), path).toMatchObject(denied);
    const signedList = (await get('docs/a.pdf')).replace('/docs/a.pdf', '/');
    expect(await check('GET', signedList)).toMatchObject(denied);
    const subresource = await get('docs/a.pdf');
    expect(await check('GET', `${subresource}&list-type=2`)).toMatchObject(denied);
    for (const path of ['/_s3/plac-documents/../secret', '/_s3/plac-documents/%2e%2E/x', '/_s3/plac-documents/a/./b', '/_s3/plac-documents/a%2F..%2Fb', '/_s3/plac-documents/a%5C..', '/_s3/plac-documents/%E0%A4%A']) {
      expect(await checkPresignedRequest({ method: 'GET', url: path, headers: HOST }, options), path).toMatchObject({ status: 400, code: 'InvalidURI' });
    }
  });
});

describe('how the relay hands files out', () => {
  it.each([
    ['application/pdf', 'inline', 'inline'],
    ['application/pdf', null, 'inline'],
    ['image/png', 'inline', 'inline'],
    ['text/csv; charset=utf-8', 'attachment; filename="r.csv"', 'attachment; filename="r.csv"'],
    ['application/xml', 'attachment; filename="nota.xml"', 'attachment; filename="nota.xml"'],
    ['text/html', null, 'attachment'],
    ['text/html', 'inline', 'attachment'],
    ['Text/HTML; charset=utf-8', null, 'attachment'],
    ['image/svg+xml', 'inline', 'attachment'],
    ['application/xml', null, 'attachment'],
    ['application/octet-stream', null, 'attachment'],
  ])('%s with %j → %s', (type, disposition, expected) => {
    expect(dispositionFor(type, disposition)).toBe(expected);
  });
});
