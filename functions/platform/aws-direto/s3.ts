import { createHash } from 'node:crypto';
import type * as S3 from '@aws-sdk/client-s3';
import { caminhoCodificado, preassinar } from './assinatura';
import { credenciais, endpoint, ErroAws, pedir, regiao, type LeitorDeErro, type Metadados, type RespostaHttp, type Servico } from './chamada';
import type { OpcoesDeEnvio } from './comando';

/**
 * S3 without the SDK's core: the REST-XML calls the platform makes (objects put, read, checked and
 * deleted; a prefix listed and deleted in bulk; the report jobs' multipart uploads) and presigned URLs,
 * with the SDK's command names, input and output types (imported as types only) and error names
 * (NoSuchKey, NotFound for a HEAD …). Each command turns its input into a request (`pedido`) and the
 * answer into its output (`saida`). Differences from the SDK, none of which a caller here relies on:
 * an object's body is read whole (every object the functions read is small: a Fat-e XML, a bank return
 * file, a report job's pending bytes), not streamed; timestamps stay strings.
 *
 * The answers' XML is read for the few fields used (UploadId, a listing's keys and token, an error's
 * Code and Message): `campo` and `campos` below, with the five entities XML defines.
 */
export const S3_SERVICO: Servico = { assinatura: 's3', host: 's3', variavel: 'S3' };

type Saida<S> = Omit<S, '$metadata'> & { $metadata: Metadados };

interface PedidoS3 {
  metodo: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'HEAD';
  /** The object's key ('' for the bucket). */
  chave: string;
  consulta?: Record<string, string>;
  headers?: Record<string, string | undefined>;
  corpo?: string | Uint8Array;
}

abstract class ComandoS3<E extends { Bucket?: string }, S> {
  declare readonly __saida?: S;
  constructor(readonly input: E) {}
  abstract pedido(): PedidoS3;
  abstract saida(resposta: RespostaHttp): Omit<S, '$metadata'>;
}

const ENTIDADES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const desescapar = (t: string) =>
  t.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) =>
    e[0] === '#' ? String.fromCodePoint(e[1]!.toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : ENTIDADES[e.toLowerCase()]!,
  );
const escapar = (t: string) => t.replace(/[&<>"']/g, (c) => `&${Object.keys(ENTIDADES).find((k) => ENTIDADES[k] === c)};`);
/** The text of every `<tag>` of a document, in order. */
const campos = (xml: string, tag: string) => [...xml.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => desescapar(m[1]!));
const campo = (xml: string, tag: string): string | undefined => campos(xml, tag)[0];

const header = (r: RespostaHttp, nome: string) => r.headers[nome] as string | undefined;
const semIndefinidos = (h: Record<string, string | undefined> = {}) => Object.fromEntries(Object.entries(h).filter((e): e is [string, string] => e[1] !== undefined));

/** An object's body, read whole, with the SDK's two ways of reading it. */
function corpoDe(bytes: Buffer) {
  return {
    transformToByteArray: () => Promise.resolve(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
    transformToString: (codificacao: BufferEncoding = 'utf8') => Promise.resolve(bytes.toString(codificacao)),
  };
}

export class PutObjectCommand extends ComandoS3<S3.PutObjectCommandInput, S3.PutObjectCommandOutput> {
  pedido(): PedidoS3 {
    const { Key, Body, ContentType, ContentDisposition } = this.input;
    return { metodo: 'PUT', chave: Key!, headers: { 'content-type': ContentType, 'content-disposition': ContentDisposition }, corpo: (Body ?? '') as string | Uint8Array };
  }
  saida(r: RespostaHttp) {
    return { ETag: header(r, 'etag') };
  }
}

export class GetObjectCommand extends ComandoS3<S3.GetObjectCommandInput, Omit<S3.GetObjectCommandOutput, 'Body'> & { Body?: ReturnType<typeof corpoDe> }> {
  pedido(): PedidoS3 {
    const { Key, ResponseContentType, ResponseContentDisposition } = this.input;
    return { metodo: 'GET', chave: Key!, consulta: semIndefinidos({ 'response-content-type': ResponseContentType, 'response-content-disposition': ResponseContentDisposition }) };
  }
  saida(r: RespostaHttp) {
    return { Body: corpoDe(r.corpo), ContentType: header(r, 'content-type'), ContentLength: Number(header(r, 'content-length') ?? r.corpo.length), ETag: header(r, 'etag') };
  }
}

export class HeadObjectCommand extends ComandoS3<S3.HeadObjectCommandInput, S3.HeadObjectCommandOutput> {
  pedido(): PedidoS3 {
    return { metodo: 'HEAD', chave: this.input.Key! };
  }
  saida(r: RespostaHttp) {
    return { ContentType: header(r, 'content-type'), ContentLength: Number(header(r, 'content-length') ?? 0), ETag: header(r, 'etag') };
  }
}

export class DeleteObjectCommand extends ComandoS3<S3.DeleteObjectCommandInput, S3.DeleteObjectCommandOutput> {
  pedido(): PedidoS3 {
    return { metodo: 'DELETE', chave: this.input.Key! };
  }
  saida() {
    return {};
  }
}

export class DeleteObjectsCommand extends ComandoS3<S3.DeleteObjectsCommandInput, S3.DeleteObjectsCommandOutput> {
  pedido(): PedidoS3 {
    const { Objects = [], Quiet } = this.input.Delete ?? {};
    const corpo = `<?xml version="1.0" encoding="UTF-8"?><Delete xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${Quiet ? '<Quiet>true</Quiet>' : ''}${Objects.map((o) => `<Object><Key>${escapar(o.Key!)}</Key></Object>`).join('')}</Delete>`;
    // S3 refuses a multi-object delete without a checksum of its body.
    return { metodo: 'POST', chave: '', consulta: { delete: '' }, headers: { 'content-type': 'application/xml', 'content-md5': createHash('md5').update(corpo).digest('base64') }, corpo };
  }
  saida(r: RespostaHttp) {
    const xml = r.corpo.toString('utf8');
    return { Errors: [...xml.matchAll(/<Error>([\s\S]*?)<\/Error>/g)].map(([, e]) => ({ Key: campo(e!, 'Key'), Code: campo(e!, 'Code'), Message: campo(e!, 'Message') })) };
  }
}

export class ListObjectsV2Command extends ComandoS3<S3.ListObjectsV2CommandInput, S3.ListObjectsV2CommandOutput> {
  pedido(): PedidoS3 {
    const { Prefix, ContinuationToken, MaxKeys } = this.input;
    return { metodo: 'GET', chave: '', consulta: semIndefinidos({ 'list-type': '2', prefix: Prefix, 'continuation-token': ContinuationToken, 'max-keys': MaxKeys === undefined ? undefined : String(MaxKeys) }) };
  }
  saida(r: RespostaHttp) {
    const xml = r.corpo.toString('utf8');
    return {
      Contents: [...xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)].map(([, c]) => ({ Key: campo(c!, 'Key'), Size: Number(campo(c!, 'Size') ?? 0), ETag: campo(c!, 'ETag') })),
      IsTruncated: campo(xml, 'IsTruncated') === 'true',
      NextContinuationToken: campo(xml, 'NextContinuationToken'),
      KeyCount: Number(campo(xml, 'KeyCount') ?? 0),
    };
  }
}

export class CreateMultipartUploadCommand extends ComandoS3<S3.CreateMultipartUploadCommandInput, S3.CreateMultipartUploadCommandOutput> {
  pedido(): PedidoS3 {
    const { Key, ContentType, ContentDisposition } = this.input;
    return { metodo: 'POST', chave: Key!, consulta: { uploads: '' }, headers: { 'content-type': ContentType, 'content-disposition': ContentDisposition } };
  }
  saida(r: RespostaHttp) {
    return { UploadId: campo(r.corpo.toString('utf8'), 'UploadId') };
  }
}

export class UploadPartCommand extends ComandoS3<S3.UploadPartCommandInput, S3.UploadPartCommandOutput> {
  pedido(): PedidoS3 {
    const { Key, UploadId, PartNumber, Body } = this.input;
    return { metodo: 'PUT', chave: Key!, consulta: { partNumber: String(PartNumber), uploadId: UploadId! }, corpo: (Body ?? '') as string | Uint8Array };
  }
  saida(r: RespostaHttp) {
    return { ETag: header(r, 'etag') };
  }
}

export class CompleteMultipartUploadCommand extends ComandoS3<S3.CompleteMultipartUploadCommandInput, S3.CompleteMultipartUploadCommandOutput> {
  pedido(): PedidoS3 {
    const { Key, UploadId, MultipartUpload } = this.input;
    const partes = (MultipartUpload?.Parts ?? []).map((p) => `<Part><PartNumber>${p.PartNumber}</PartNumber><ETag>${escapar(p.ETag!)}</ETag></Part>`).join('');
    return { metodo: 'POST', chave: Key!, consulta: { uploadId: UploadId! }, headers: { 'content-type': 'application/xml' }, corpo: `<?xml version="1.0" encoding="UTF-8"?><CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${partes}</CompleteMultipartUpload>` };
  }
  saida(r: RespostaHttp) {
    const xml = r.corpo.toString('utf8');
    return { Location: campo(xml, 'Location'), ETag: campo(xml, 'ETag'), Key: campo(xml, 'Key') };
  }
}

export class AbortMultipartUploadCommand extends ComandoS3<S3.AbortMultipartUploadCommandInput, S3.AbortMultipartUploadCommandOutput> {
  pedido(): PedidoS3 {
    return { metodo: 'DELETE', chave: this.input.Key!, consulta: { uploadId: this.input.UploadId! } };
  }
  saida() {
    return {};
  }
}

/** An S3 error: the XML's Code and Message; a HEAD's has no body, so its status names it as the SDK does. */
const erroXml: LeitorDeErro = (r) => {
  const xml = r.corpo.toString('utf8');
  const codigo = campo(xml, 'Code') ?? ({ 404: 'NotFound', 403: 'Forbidden', 400: 'BadRequest' } as Record<number, string>)[r.status] ?? `Http${r.status}`;
  return { codigo, mensagem: campo(xml, 'Message') ?? codigo, campos: semIndefinidos({ RequestId: campo(xml, 'RequestId'), Key: campo(xml, 'Key') }) };
};

export interface OpcoesS3 {
  /** Another endpoint than the service's (the twin's presigned URLs point at the portal's origin). */
  endpoint?: string;
  /** The bucket in the path, not in the host: emulators and the twin's relay serve buckets by path. */
  forcePathStyle?: boolean;
}

export class S3Client {
  constructor(private readonly opcoes: OpcoesS3 = {}) {}

  /**
   * Where a key of the bucket is: the bucket's virtual host on AWS, or the endpoint's path `/bucket`;
   * the key under it (the bucket itself is `/bucket`, or `/` on its own host). `caminho` is decoded
   * and relative to the URL's own path.
   */
  private local(bucket: string, chave: string): { url: URL; caminho: string } {
    const base = this.opcoes.endpoint ? new URL(this.opcoes.endpoint) : endpoint(S3_SERVICO);
    const prefixo = this.opcoes.forcePathStyle ? `/${bucket}` : '';
    if (!this.opcoes.forcePathStyle) base.hostname = `${bucket}.${base.hostname}`;
    return { url: base, caminho: chave ? `${prefixo}/${chave}` : prefixo || '/' };
  }

  async send<E extends { Bucket?: string }, S>(command: ComandoS3<E, S>, opcoes: OpcoesDeEnvio = {}): Promise<Saida<S>> {
    const p = command.pedido();
    const { url, caminho } = this.local(command.input.Bucket!, p.chave);
    const { resposta, $metadata } = await pedir(
      {
        servico: S3_SERVICO,
        url,
        caminho,
        ...(p.consulta ? { consulta: p.consulta } : {}),
        metodo: p.metodo,
        headers: semIndefinidos(p.headers),
        corpo: p.corpo ?? '',
        s3: {},
        ...(opcoes.abortSignal ? { sinal: opcoes.abortSignal } : {}),
      },
      erroXml,
    );
    // CompleteMultipartUpload can fail after its 200 (an error document in the body), as S3 documents.
    if (command instanceof CompleteMultipartUploadCommand && resposta.corpo.includes('<Error>')) {
      const { codigo, mensagem } = erroXml(resposta);
      throw new ErroAws(codigo, mensagem, 'server', $metadata);
    }
    return { ...command.saida(resposta), $metadata } as Saida<S>;
  }

  /** A presigned URL of the command (getSignedUrl): a PUT of one key and content type, or a GET with its response overrides. */
  presign(command: PutObjectCommand | GetObjectCommand, expiraEm: number): string {
    const p = command.pedido();
    const local = this.local(command.input.Bucket!, p.chave);
    const { url } = local;
    const caminho = url.pathname.replace(/\/$/, '') + local.caminho;
    const consulta = preassinar({
      metodo: p.metodo,
      host: url.host,
      caminho,
      consulta: p.consulta ?? {},
      headers: p.metodo === 'PUT' ? semIndefinidos({ 'content-type': p.headers?.['content-type'] }) : {},
      servico: S3_SERVICO.assinatura,
      regiao: regiao(),
      credenciais: credenciais(),
      expiraEm,
    });
    return `${url.origin}${caminhoCodificado(caminho)}?${consulta}`;
  }
}
