import { execFileSync } from 'node:child_process';
import { randomInt, randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadObjectCommand } from '../../functions/platform/aws-direto/s3';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@plac/shared/access';
import { cnpjCheckDigits, monthOf, previousMonth } from '@plac/shared/domain';
import { cobrarConsulta } from '../../functions/consumo/cobranca';
import { faturaIdDe } from '../../functions/faturamento/regras';
import { emitirFatura, lerFatura } from '../../functions/faturamento/store';
import { s3Client } from '../../functions/platform/aws';
import { config } from '../../functions/platform/env';
import { call } from './http';
import { aguardarRelatorio } from './relatorios';
import { bearer, tokenFor } from './session';
import { gravarCliente } from './clientes-kit';

/**
 * Tax notes and the detail ZIP on the twin (issue 14, item 5; docs/faturamento.md "Tax notes and the
 * detail ZIP"): two clients of our own, each with an invoice of last month (written as the billing run
 * writes them) and a few charged look-ups in that month (through the metering service). The
 * administrator uploads a PDF and an XML through presigned URLs; the role matrix, a disguised or broken
 * file, a replacement; the ZIP's entries and rows.
 */

const mes = previousMonth(monthOf(new Date()));
const [ano, mm] = mes.split('-').map(Number) as [number, number];
const noMes = (dia: number) => new Date(Date.UTC(ano, mm - 1, dia, 15, 0, 0));

function novoCnpj(): string {
  const first12 = `${String(randomInt(10_000_000, 99_999_999))}0001`;
  return `${first12}${cnpjCheckDigits(first12)}`;
}

async function clienteComFatura() {
  const cnpj = novoCnpj();
  const clienteId = `nf-${randomUUID()}`;
  const razaoSocial = `CLIENTE NOTAS ${cnpj.slice(0, 6)}`;
  const now = new Date().toISOString();
  await gravarCliente({ clienteId, cnpj, razaoSocial, uf: 'MA', cidade: 'São Luís', cep: '65000000', telefone: '98999990000', createdAt: now, updatedAt: now });
  await emitirFatura({
    faturaId: faturaIdDe(clienteId, mes), clienteId, cnpj, razaoSocial, mes, situacao: 'A', itens: [], valorServicos: 0, valorAssinatura: 750_00,
    valorTotal: 750_00, assinaturaMinima: 750_00, execucaoId: randomUUID(), emitidaEm: now, revisao: 1,
  });
  return { clienteId, cnpj, razaoSocial, faturaId: faturaIdDe(clienteId, mes) };
}

const admin: Principal = { userId: 'nf-admin', name: 'Admin Notas', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const gestor: Principal = { userId: 'nf-gestor', name: 'Gestor Notas', tipo: 'S', roles: ['sefaz_gestor'], uf: 'BA' };
const usuarioDe = (clienteId: string): Principal => ({ userId: `nf-cli-${clienteId}`, name: 'Cliente Notas', tipo: 'C', roles: ['cliente'], clienteId });

const PDF = (versao: string) => Buffer.from(`%PDF-1.4\n% nota ${versao}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`, 'latin1');
const XML = Buffer.from('<?xml version="1.0" encoding="UTF-8"?><NFSe><infNFSe Id="NFS1"><nNFSe>12</nNFSe><vServ>750.00</vServ></infNFSe></NFSe>', 'utf8');

let a: Awaited<ReturnType<typeof clienteComFatura>>;
let b: Awaited<ReturnType<typeof clienteComFatura>>;
const t = {} as Record<'admin' | 'gestor' | 'a' | 'b', string>;

beforeAll(async () => {
  [a, b] = await Promise.all([clienteComFatura(), clienteComFatura()]);
  [t.admin, t.gestor, t.a, t.b] = await Promise.all([tokenFor(admin), tokenFor(gestor), tokenFor(usuarioDe(a.clienteId)), tokenFor(usuarioDe(b.clienteId))]);
  // Client a's month: 3 look-ups of service 1 from MA, 2 of service 9 (one from MA, one from BA).
  const cobrar = (servico: number, uf: string, i: number) =>
    cobrarConsulta({ clienteId: a.clienteId, servico, uf, chave: i === 0 ? '=HYPERLINK("x")' : `chave-${servico}-${i}`, idempotencyKey: `nf-${servico}-${i}`, agora: noMes(3 + i) });
  await Promise.all([cobrar(1, 'MA', 0), cobrar(1, 'MA', 1), cobrar(1, 'MA', 2), cobrar(9, 'MA', 3), cobrar(9, 'BA', 4)]);
}, 120_000);

const json = (token: string | undefined, method: string, body?: unknown): RequestInit => ({
  method,
  headers: { ...(token ? bearer(token) : {}), 'content-type': 'application/json' },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

const pedirEnvio = (faturaId: string, nomeArquivo: string, token = t.admin) => call(`/api/v1/fatura/${faturaId}/nota-fiscal/envios`, json(token, 'POST', { nomeArquivo }));
const confirmar = (faturaId: string, envioId: string, nomeArquivo: string, token = t.admin) => call(`/api/v1/fatura/${faturaId}/nota-fiscal`, json(token, 'PUT', { envioId, nomeArquivo }));
const baixar = (faturaId: string, tipo: string, token?: string) => call(`/api/v1/fatura/${faturaId}/nota-fiscal/${tipo}`, token ? { headers: bearer(token) } : {});

/** The whole upload as the portal does it: ask, PUT, confirm. */
async function enviar(faturaId: string, nomeArquivo: string, bytes: Buffer) {
  const envio = await pedirEnvio(faturaId, nomeArquivo);
  expect(envio.status).toBe(201);
  const { envioId, url, contentType } = envio.body as { envioId: string; url: string; contentType: string };
  const put = await fetch(url, { method: 'PUT', body: bytes, headers: { 'content-type': contentType } });
  expect(put.status).toBe(200);
  return { envioId, confirmacao: await confirmar(faturaId, envioId, nomeArquivo) };
}

async function bytesDe(url: string): Promise<Buffer> {
  const got = await fetch(url);
  expect(got.status).toBe(200);
  return Buffer.from(await got.arrayBuffer());
}

async function existe(key: string): Promise<boolean> {
  try {
    await s3Client().send(new HeadObjectCommand({ Bucket: config.documentsBucket, Key: key }));
    return true;
  } catch {
    return false;
  }
}

describe('tax notes', () => {
  it('the admin uploads a PDF and an XML; the invoice and the list name them', async () => {
    const pdf = await enviar(a.faturaId, 'Nota Fiscal 12.pdf', PDF('v1'));
    expect(pdf.confirmacao).toMatchObject({ status: 200, body: { tipo: 'pdf', nomePdfFile: 'Nota_Fiscal_12.pdf', nomeXmlFile: null } });
    const xml = await enviar(a.faturaId, 'nota-12.XML', XML);
    expect(xml.confirmacao).toMatchObject({ status: 200, body: { tipo: 'xml', nomePdfFile: 'Nota_Fiscal_12.pdf', nomeXmlFile: 'nota-12.XML' } });
    const lista = await call(`/api/v1/fatura?dataInicio=${mes}&dataFim=${mes}`, { headers: bearer(t.a) });
    expect(lista.body).toMatchObject({ items: [{ id: a.faturaId, nomePdfFile: 'Nota_Fiscal_12.pdf', nomeXmlFile: 'nota-12.XML' }] });
  });

  it('the own client downloads both, byte for byte, as attachments; another client, a gestor and nobody cannot', async () => {
    const pdf = await baixar(a.faturaId, 'pdf', t.a);
    expect(pdf).toMatchObject({ status: 200, body: { nomeArquivo: 'Nota_Fiscal_12.pdf' } });
    const url = new URL((pdf.body as { url: string }).url);
    expect(url.searchParams.get('response-content-disposition')).toBe('attachment; filename="Nota_Fiscal_12.pdf"');
    expect(url.searchParams.get('response-content-type')).toBe('application/pdf');
    expect((await bytesDe(url.toString())).equals(PDF('v1'))).toBe(true);
    const xml = await baixar(a.faturaId, 'xml', t.admin);
    expect(xml.status).toBe(200);
    expect((await bytesDe((xml.body as { url: string }).url)).equals(XML)).toBe(true);

    expect(await baixar(a.faturaId, 'pdf', t.b)).toMatchObject({ status: 403, body: { error: 'clienteNaoPermitido' } });
    expect(await baixar(a.faturaId, 'pdf', t.gestor)).toMatchObject({ status: 403, body: { error: 'acessoNegado' } });
    expect((await baixar(a.faturaId, 'pdf')).status).toBe(401);
    // No note yet, an unknown type, an unknown invoice.
    expect((await baixar(b.faturaId, 'pdf', t.b)).status).toBe(404);
    expect((await baixar(a.faturaId, 'docx', t.a)).status).toBe(400);
    expect((await baixar(faturaIdDe('nao-existe', mes), 'pdf', t.admin)).status).toBe(404);
  });

  it('only the admin uploads: a client user, a gestor and nobody are refused at both steps', async () => {
    for (const token of [t.a, t.gestor]) {
      expect(await pedirEnvio(a.faturaId, 'nota.pdf', token)).toMatchObject({ status: 403, body: { error: 'acessoNegado' } });
      expect(await confirmar(a.faturaId, randomUUID(), 'nota.pdf', token)).toMatchObject({ status: 403, body: { error: 'acessoNegado' } });
    }
    expect((await call(`/api/v1/fatura/${a.faturaId}/nota-fiscal/envios`, json(undefined, 'POST', { nomeArquivo: 'nota.pdf' }))).status).toBe(401);
  });

  it('refuses other extensions with the spec message, before any upload', async () => {
    for (const nome of ['nota.docx', 'nota.pdf.exe', 'nota']) {
      expect(await pedirEnvio(a.faturaId, nome)).toMatchObject({ status: 400, body: { error: 'somentePdfXml', message: 'Só são permitidos arquivos com extensão .pdf e .xml.' } });
    }
    expect(await confirmar(a.faturaId, randomUUID(), 'nota.txt')).toMatchObject({ status: 400, body: { error: 'somentePdfXml' } });
    expect((await pedirEnvio(faturaIdDe('nao-existe', mes), 'nota.pdf')).status).toBe(404);
    expect((await pedirEnvio(a.faturaId, '')).status).toBe(400);
    // Confirming what was never uploaded.
    expect(await confirmar(a.faturaId, randomUUID(), 'nota.pdf')).toMatchObject({ status: 400, body: { error: 'notaFiscalNaoRecebida' } });
  });

  it('refuses a disguised or broken file, deletes it and changes nothing', async () => {
    const antes = await lerFatura(a.faturaId);
    const disfarcado = await enviar(a.faturaId, 'nota.pdf', XML);
    expect(disfarcado.confirmacao).toMatchObject({ status: 400, body: { error: 'conteudoNaoPdf', message: 'O conteúdo do arquivo não é um PDF válido.' } });
    expect(await existe(`notas-fiscais/${a.faturaId}/${disfarcado.envioId}.pdf`)).toBe(false);
    const pdfComoXml = await enviar(a.faturaId, 'nota.xml', PDF('x'));
    expect(pdfComoXml.confirmacao).toMatchObject({ status: 400, body: { error: 'conteudoNaoXml', message: 'O conteúdo do arquivo não é um XML válido.' } });
    const quebrado = await enviar(a.faturaId, 'nota.xml', Buffer.from('<NFSe><nNFSe>12</NFSe>'));
    expect(quebrado.confirmacao).toMatchObject({ status: 400, body: { error: 'conteudoNaoXml' } });
    expect(await lerFatura(a.faturaId)).toEqual(antes);
    expect((await bytesDe(((await baixar(a.faturaId, 'pdf', t.a)).body as { url: string }).url)).equals(PDF('v1'))).toBe(true);
  });

  it('replaces a note: the new file is served, the old object is deleted, the same upload cannot be confirmed twice', async () => {
    const antes = (await lerFatura(a.faturaId))!;
    const novo = await enviar(a.faturaId, 'nota-v2.pdf', PDF('v2'));
    expect(novo.confirmacao).toMatchObject({ status: 200, body: { nomePdfFile: 'nota-v2.pdf', nomeXmlFile: 'nota-12.XML' } });
    expect((await bytesDe(((await baixar(a.faturaId, 'pdf', t.a)).body as { url: string }).url)).equals(PDF('v2'))).toBe(true);
    expect(await existe(antes.pdfKey!)).toBe(false);
    expect(await lerFatura(a.faturaId)).toMatchObject({ xmlKey: antes.xmlKey, revisao: antes.revisao, notaAtualizadaPor: admin.name });
    expect(await confirmar(a.faturaId, novo.envioId, 'nota-v2.pdf')).toMatchObject({ status: 409, body: { error: 'faturaAlterada' } });
  });
});

describe('the detail ZIP', () => {
  async function zipDe(query: string, token: string) {
    const answer = await call(`/api/v1/fatura/${a.faturaId}/detalhamento${query}`, { headers: bearer(token) });
    const { job } = await aguardarRelatorio(answer, bearer(token));
    expect(job.estado).toBe('CONCLUIDO');
    const body = job as { nomeArquivo: string; url: string; linhas: number };
    expect(body.nomeArquivo).toBe('detalhamento_fatura.zip');
    expect(new URL(body.url).searchParams.get('response-content-disposition')).toBe('attachment; filename="detalhamento_fatura.zip"');
    return { body, bytes: await bytesDe(body.url) };
  }

  /** The data lines of a report CSV: between the column heading and the blank line before the totals. */
  const linhas = (csvText: string) => {
    const all = csvText.replace(/^\uFEFF/, '').split('\r\n');
    const start = all.indexOf('Data/Hora;Serviço;UF;Chave;Requisição');
    return all.slice(start + 1, all.indexOf('', start));
  };

  it('holds one CSV per service with every charged request of the month, and opens in unzip', async () => {
    const { body, bytes } = await zipDe('', t.a);
    expect(body.linhas).toBe(5);
    const dir = mkdtempSync(join(tmpdir(), 'notas-zip-'));
    writeFileSync(join(dir, 'detalhamento_fatura.zip'), bytes);
    const listagem = execFileSync('unzip', ['-l', join(dir, 'detalhamento_fatura.zip')], { encoding: 'utf8' });
    expect(listagem).toContain('01-Consulta_Fat-e_por_Chave_de_Acesso.csv');
    expect(listagem).toContain('09-Envio_de_Fat-e.csv');

    const entradas = unzipSync(new Uint8Array(bytes));
    expect(Object.keys(entradas).sort()).toEqual(['01-Consulta_Fat-e_por_Chave_de_Acesso.csv', '09-Envio_de_Fat-e.csv']);
    const s1 = Buffer.from(entradas['01-Consulta_Fat-e_por_Chave_de_Acesso.csv']!).toString('utf8');
    const s9 = Buffer.from(entradas['09-Envio_de_Fat-e.csv']!).toString('utf8');
    expect(s1.startsWith('\uFEFFRelatório de consumo\r\n')).toBe(true);
    expect(linhas(s1)).toHaveLength(3);
    expect(linhas(s9)).toHaveLength(2);
    // The CSV-injection guard of the consumption report, and the client's own idempotency key.
    expect(linhas(s1)[0]).toContain(`;"'=HYPERLINK(""x"")";nf-1-0`);
    expect(linhas(s9).map((l) => l.split(';')[2]).sort()).toEqual(['BA', 'MA']);
    expect(s1).toContain('\r\nTotal;;3');
  });

  it('of one service only, when asked; the admin may too; another client, a gestor and nobody may not', async () => {
    const { body, bytes } = await zipDe('?idModuloServico=9', t.admin);
    expect(body.linhas).toBe(2);
    expect(Object.keys(unzipSync(new Uint8Array(bytes)))).toEqual(['09-Envio_de_Fat-e.csv']);
    const other = await call(`/api/v1/fatura/${a.faturaId}/detalhamento`, { headers: bearer(t.b) });
    expect(other).toMatchObject({ status: 403, body: { error: 'clienteNaoPermitido' } });
    expect((await call(`/api/v1/fatura/${a.faturaId}/detalhamento`, { headers: bearer(t.gestor) })).status).toBe(403);
    expect((await call(`/api/v1/fatura/${a.faturaId}/detalhamento`)).status).toBe(401);
    expect((await call(`/api/v1/fatura/${a.faturaId}/detalhamento?idModuloServico=abc`, { headers: bearer(t.a) })).status).toBe(400);
  });

  it('a month without charged requests gives one report of zero requests, never an empty archive', async () => {
    const answer = await call(`/api/v1/fatura/${b.faturaId}/detalhamento`, { headers: bearer(t.b) });
    const { job } = await aguardarRelatorio(answer, bearer(t.b));
    expect(job).toMatchObject({ estado: 'CONCLUIDO', linhas: 0 });
    const entradas = unzipSync(new Uint8Array(await bytesDe(job.url!)));
    expect(Object.keys(entradas)).toEqual(['detalhamento.csv']);
    expect(Buffer.from(entradas['detalhamento.csv']!).toString('utf8')).toContain('\r\nTotal;;0');
  });
});
