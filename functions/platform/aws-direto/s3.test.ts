import { createHash } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assinar } from './assinatura';
import type { ErroAws } from './chamada';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from './s3';
import { Sha256, servidorDeTeste } from './servidor.test-util';

/**
 * The S3 client without the SDK: its signatures against the SDK's signer (@smithy/signature-v4, in
 * S3's mode: the path encoded once), its presigned URLs verified as S3 verifies them, and its requests
 * and answers against a local server answering as S3 (the XML, the errors, a multipart completion
 * that fails after its 200).
 */
const credenciais = { accessKeyId: 'AKIDTESTE', secretAccessKey: 'segredo-de-teste' };
const sdk = new SignatureV4({ service: 's3', region: 'sa-east-1', credentials: credenciais, sha256: Sha256, uriEscapePath: false, applyChecksum: false });
const agora = new Date('2026-12-05T03:04:05Z');

describe('S3 signatures (assinatura.ts in S3 mode)', () => {
  it('signs a part upload (a query, the body hash in x-amz-content-sha256) as the SDK does', async () => {
    const corpo = Buffer.from('parte 1 do relatório');
    const hash = createHash('sha256').update(corpo).digest('hex');
    const nosso = assinar({ metodo: 'PUT', host: 'plac-docs.s3.sa-east-1.amazonaws.com', caminho: '/relatorios/março 1+2.csv', consulta: { partNumber: '1', uploadId: 'a/b=c' }, headers: {}, corpo, servico: 's3', regiao: 'sa-east-1', credenciais, s3: {}, agora });
    const esperado = await sdk.sign(
      { method: 'PUT', protocol: 'https:', hostname: 'plac-docs.s3.sa-east-1.amazonaws.com', path: '/relatorios/mar%C3%A7o%201%2B2.csv', query: { partNumber: '1', uploadId: 'a/b=c' }, headers: { host: 'plac-docs.s3.sa-east-1.amazonaws.com', 'x-amz-content-sha256': hash }, body: corpo },
      { signingDate: agora },
    );
    expect(nosso.headers['x-amz-content-sha256']).toBe(hash);
    expect(nosso.headers.authorization).toBe(esperado.headers.authorization);
  });

  it('presigns a download with its response overrides, and an upload bound to its content type, as S3 verifies them', async () => {
    process.env.AWS_REGION = 'sa-east-1';
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: credenciais.accessKeyId, AWS_SECRET_ACCESS_KEY: credenciais.secretAccessKey });
    const cliente = new S3Client({ endpoint: 'http://localhost:3000/_s3', forcePathStyle: true });
    const urls: { metodo: string; headers: Record<string, string>; url: string }[] = [
      { metodo: 'GET', headers: {}, url: cliente.presign(new GetObjectCommand({ Bucket: 'plac-documents', Key: 'a b/ç+x.pdf', ResponseContentType: 'application/pdf', ResponseContentDisposition: 'attachment; filename="x.pdf"' }), 300) },
      { metodo: 'PUT', headers: { 'content-type': 'image/png' }, url: cliente.presign(new PutObjectCommand({ Bucket: 'plac-documents', Key: 'avatares/u1.png', ContentType: 'image/png' }), 300) },
    ];
    for (const { metodo, headers, url } of urls) {
      const u = new URL(url);
      expect(u.pathname.startsWith('/_s3/plac-documents/')).toBe(true);
      const query = Object.fromEntries([...u.searchParams].filter(([k]) => k !== 'X-Amz-Signature'));
      expect(query['X-Amz-Expires']).toBe('300');
      expect(query['X-Amz-SignedHeaders']).toBe(metodo === 'PUT' ? 'content-type;host' : 'host');
      // What S3 does: presign the same request again at the URL's date, and compare the signatures.
      const data = query['X-Amz-Date']!;
      const quando = new Date(`${data.slice(0, 4)}-${data.slice(4, 6)}-${data.slice(6, 8)}T${data.slice(9, 11)}:${data.slice(11, 13)}:${data.slice(13, 15)}Z`);
      const verificador = new SignatureV4({ service: 's3', region: 'sa-east-1', credentials: credenciais, sha256: Sha256, uriEscapePath: false, applyChecksum: false });
      const assinados = new Set(query['X-Amz-SignedHeaders']!.split(';'));
      const refeito = await verificador.presign(
        { method: metodo, protocol: 'http:', hostname: 'localhost', path: u.pathname, query, headers: { host: 'localhost:3000', ...headers, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' } },
        { signingDate: quando, expiresIn: 300, signableHeaders: assinados, unsignableHeaders: new Set(['x-amz-content-sha256']), unhoistableHeaders: new Set(['x-amz-content-sha256']) },
      );
      expect(u.searchParams.get('X-Amz-Signature'), metodo).toBe(refeito.query!['X-Amz-Signature']);
    }
  });
});

let servidor: Awaited<ReturnType<typeof servidorDeTeste>>;
let base = '';
let pedidos: Awaited<ReturnType<typeof servidorDeTeste>>['pedidos'];
let respostas: Awaited<ReturnType<typeof servidorDeTeste>>['respostas'];

beforeAll(async () => {
  servidor = await servidorDeTeste();
  ({ url: base, pedidos, respostas } = servidor);
});
afterAll(() => servidor.fechar());

const guardado = { ...process.env };
beforeEach(() => {
  servidor.limpar();
  Object.assign(process.env, { AWS_REGION: 'sa-east-1', AWS_ACCESS_KEY_ID: 'AKIDTESTE', AWS_SECRET_ACCESS_KEY: 'segredo', AWS_ENDPOINT_URL_S3: base });
  delete process.env.AWS_SESSION_TOKEN;
});
afterEach(() => {
  process.env = { ...guardado };
});

describe('the S3 client against a server answering as S3', () => {
  const s3 = () => new S3Client({ forcePathStyle: true });

  it('puts an object by path, with its type, disposition, body hash and signature', async () => {
    respostas.push({ status: 200, headers: { etag: '"abc"' } });
    const r = await s3().send(new PutObjectCommand({ Bucket: 'plac-docs', Key: 'notas/nº 1.pdf', Body: Buffer.from('%PDF'), ContentType: 'application/pdf', ContentDisposition: 'inline' }));
    expect(r).toMatchObject({ ETag: '"abc"', $metadata: { httpStatusCode: 200, requestId: 'req-1', attempts: 1 } });
    const [p] = pedidos;
    expect(p).toMatchObject({ metodo: 'PUT', url: '/plac-docs/notas/n%C2%BA%201.pdf', corpo: '%PDF' });
    expect(p!.headers).toMatchObject({ 'content-type': 'application/pdf', 'content-disposition': 'inline', 'x-amz-content-sha256': createHash('sha256').update('%PDF').digest('hex') });
    expect(p!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTESTE\/\d{8}\/sa-east-1\/s3\/aws4_request, SignedHeaders=content-disposition;content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/);
  });

  it('reads an object whole, and names a missing key NoSuchKey and a missing HEAD NotFound', async () => {
    respostas.push(
      { status: 200, corpo: 'conteúdo', headers: { 'content-type': 'text/plain' } },
      { status: 404, corpo: '<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message><Key>x</Key></Error>' },
      { status: 404 },
    );
    const r = await s3().send(new GetObjectCommand({ Bucket: 'b', Key: 'k' }));
    expect(await r.Body!.transformToString()).toBe('conteúdo');
    expect(Buffer.from(await r.Body!.transformToByteArray()).toString('utf8')).toBe('conteúdo');
    const nenhum = (await s3().send(new GetObjectCommand({ Bucket: 'b', Key: 'x' })).catch((e: unknown) => e)) as ErroAws;
    expect(nenhum).toMatchObject({ name: 'NoSuchKey', message: 'The specified key does not exist.', $metadata: { httpStatusCode: 404 } });
    const cabeca = (await s3().send(new HeadObjectCommand({ Bucket: 'b', Key: 'x' })).catch((e: unknown) => e)) as ErroAws;
    expect(cabeca).toMatchObject({ name: 'NotFound', $metadata: { httpStatusCode: 404 } });
  });

  it('lists a prefix page by page, keys unescaped', async () => {
    respostas.push(
      { status: 200, corpo: '<ListBucketResult><IsTruncated>true</IsTruncated><Contents><Key>m/a&amp;b.parquet</Key><Size>10</Size></Contents><Contents><Key>m/c.parquet</Key><Size>3</Size></Contents><KeyCount>2</KeyCount><NextContinuationToken>t/1==</NextContinuationToken></ListBucketResult>' },
      { status: 200, corpo: '<ListBucketResult><IsTruncated>false</IsTruncated><KeyCount>0</KeyCount></ListBucketResult>' },
    );
    const um = await s3().send(new ListObjectsV2Command({ Bucket: 'b', Prefix: 'm/' }));
    expect(um).toMatchObject({ IsTruncated: true, NextContinuationToken: 't/1==', Contents: [{ Key: 'm/a&b.parquet', Size: 10 }, { Key: 'm/c.parquet', Size: 3 }] });
    const dois = await s3().send(new ListObjectsV2Command({ Bucket: 'b', Prefix: 'm/', ContinuationToken: um.NextContinuationToken! }));
    expect(dois).toMatchObject({ IsTruncated: false, Contents: [] });
    expect(pedidos.map((p) => p.url)).toEqual(['/b?list-type=2&prefix=m%2F', '/b?continuation-token=t%2F1%3D%3D&list-type=2&prefix=m%2F']);
  });

  it('deletes keys in bulk with the body S3 wants and its checksum', async () => {
    await s3().send(new DeleteObjectsCommand({ Bucket: 'b', Delete: { Objects: [{ Key: 'a<1>' }, { Key: 'b' }], Quiet: true } }));
    const [p] = pedidos;
    expect(p!.metodo).toBe('POST');
    expect(p!.url).toBe('/b?delete');
    expect(p!.corpo).toContain('<Quiet>true</Quiet><Object><Key>a&lt;1&gt;</Key></Object><Object><Key>b</Key></Object>');
    expect(p!.headers['content-md5']).toBe(createHash('md5').update(p!.corpo).digest('base64'));
  });

  it('starts and completes a multipart upload, and fails a completion whose 200 carries an error', async () => {
    respostas.push(
      { status: 200, corpo: '<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>r.csv</Key><UploadId>up-1</UploadId></InitiateMultipartUploadResult>' },
      { status: 200, corpo: '<CompleteMultipartUploadResult><Key>r.csv</Key><ETag>"e-2"</ETag></CompleteMultipartUploadResult>' },
      { status: 200, corpo: '<Error><Code>InternalError</Code><Message>We encountered an internal error.</Message></Error>' },
    );
    const { UploadId } = await s3().send(new CreateMultipartUploadCommand({ Bucket: 'b', Key: 'r.csv', ContentType: 'text/csv' }));
    expect(UploadId).toBe('up-1');
    const parts = { Parts: [{ PartNumber: 1, ETag: '"p1"' }] };
    expect(await s3().send(new CompleteMultipartUploadCommand({ Bucket: 'b', Key: 'r.csv', UploadId, MultipartUpload: parts }))).toMatchObject({ ETag: '"e-2"' });
    expect(pedidos[1]!.url).toBe('/b/r.csv?uploadId=up-1');
    expect(pedidos[1]!.corpo).toContain('<Part><PartNumber>1</PartNumber><ETag>&quot;p1&quot;</ETag></Part>');
    await expect(s3().send(new CompleteMultipartUploadCommand({ Bucket: 'b', Key: 'r.csv', UploadId, MultipartUpload: parts }))).rejects.toMatchObject({ name: 'InternalError' });
  });

  it('addresses a bucket by its virtual host unless told to use the path', () => {
    delete process.env.AWS_ENDPOINT_URL_S3;
    const url = new URL(new S3Client().presign(new GetObjectCommand({ Bucket: 'plac-docs', Key: 'a.pdf' }), 60));
    expect(url.host).toBe('plac-docs.s3.sa-east-1.amazonaws.com');
    expect(url.pathname).toBe('/a.pdf');
  });
});
