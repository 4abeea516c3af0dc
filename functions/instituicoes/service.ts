import { randomUUID } from 'node:crypto';
import { DeleteObjectCommand, PutObjectCommand } from '../platform/aws-direto/s3';
import { isAdmin, type Principal } from '@plac/shared/access';
import type { BodyOf, instituicoes, QueryOf } from '@plac/shared/contracts';
import {
  foldText,
  isPdfFileName,
  MAX_ARQUIVO_BYTES,
  normalizeCnpj,
  situacoesPermitidas,
  statusAutorizacaoPermitidos,
  toTransportDate,
  validateDateRange,
  type AutorizacaoStatus,
  porCodigo,
} from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { clienteResumo, todosClientes } from '../clientes';
import { s3Client } from '../platform/aws';
import { presignDownload, safeFileName } from '../platform/documents';
import { config } from '../platform/env';
import { badRequest, conflict, forbidden, invalid, notFound } from '../platform/errors';
import { paginaComCursor, vinculoDoCursor } from '../platform/paginas';
import { isPdfDocument } from '../platform/pdf';
import { decodeBase64Payload } from '../platform/uploads';
import { busca, grupoDaPalavra, grupoDaSituacao, grupoDaUf, grupoDoCnpj, grupoDoEmissor, nomeAtende, type Escopo } from './indice';
import * as store from './store';
import type { AutorizacaoRecord, Encontrada, InstituicaoRecord } from './store';

/**
 * Rules of the institution registry, the ESF authorisations and the institutions an issuer adds in
 * its consent wizard.
 */

const now = () => new Date().toISOString();

// ---- views -----------------------------------------------------------------------------------------

export function instituicaoView(r: InstituicaoRecord) {
  return {
    id: r.instituicaoId,
    razaoSocial: r.razaoSocial,
    cnpj: r.cnpj,
    uf: r.uf,
    tipo: r.tipo ?? null,
    situacao: r.situacao,
    regulada: r.regulada,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy ?? null,
    updatedBy: r.updatedBy ?? null,
  };
}

const resumo = (r: Encontrada) => ({ id: r.instituicaoId, razaoSocial: r.razaoSocial, cnpj: r.cnpj, uf: r.uf, situacao: r.situacao });

function paginate<T>(items: T[], page: number, size: number) {
  return { items: items.slice((page - 1) * size, page * size), total: items.length, page, size };
}

/** Suggestions an autocomplete shows at most. */
const SUGESTOES = 20;

/**
 * What the caller may find, by the index's scopes (./indice.ts) and, for what a key range or the
 * registry holds beyond them, by the record: the administrator every institution; a client all but the
 * deactivated; an issuer the active ones and the NOVO ones it created itself.
 */
interface Visao {
  escopos: Escopo[];
  ve: (r: Encontrada) => boolean;
}

function visaoDe(p: Principal): Visao {
  if (isAdmin(p)) return { escopos: ['a', 'o', 'd'], ve: () => true };
  if (p.roles.includes('emissor')) {
    const cnpj = emissorCnpj(p);
    return { escopos: cnpj ? ['a', `e${cnpj}`] : ['a'], ve: (r) => r.situacao === 'ATIVA' || (r.situacao === 'NOVO' && cnpj !== null && r.emissorCnpj === cnpj) };
  }
  return { escopos: ['a', 'o'], ve: (r) => r.situacao !== 'DESATIVADA' };
}

/**
 * The autocomplete: names with a word starting with each typed word (the longest one's key range in
 * each scope the caller sees), and base CNPJs starting with the text when it has a digit; at most 20,
 * in name order. Each range is read in bounded rounds (a page of 20 that pass), so the answer's cost
 * does not grow with the registry.
 */
async function sugestoes(text: string, v: Visao): Promise<Encontrada[]> {
  const b = busca(text);
  const fontes: { grupo: string; prefixo: string; peloNome: boolean }[] = [];
  if (b.chave) for (const e of v.escopos) fontes.push({ grupo: grupoDaPalavra(e, b.chave), prefixo: `${b.chave}`, peloNome: true });
  if (b.cnpj) fontes.push({ grupo: grupoDoCnpj(b.cnpj), prefixo: b.cnpj, peloNome: false });
  const folded = foldText(text);
  const paginas = await Promise.all(
    fontes.map((f) => {
      const vistas = new Set<string>();
      return store.paginaDoIndice(f, {
        perPage: SUGESTOES,
        aceita: (r) => {
          if (vistas.has(r.instituicaoId) || !v.ve(r)) return false;
          // The institutions of before issue 38 have no keys: they are matched as before (any part).
          const antiga = !('grupo' in r);
          const atende = antiga ? r.razaoFolded.includes(folded) || (b.cnpj !== null && r.cnpj.includes(b.cnpj)) : !f.peloNome || nomeAtende(r.razaoFolded, b.palavras);
          if (atende) vistas.add(r.instituicaoId);
          return atende;
        },
      });
    }),
  );
  const unicas = new Map<string, Encontrada>();
  for (const r of paginas.flatMap((pg) => pg.items)) unicas.set(r.instituicaoId, r);
  return [...unicas.values()].sort(porNome).slice(0, SUGESTOES);
}

const porNome = (a: Encontrada, b: Encontrada) => (a.razaoFolded < b.razaoFolded ? -1 : a.razaoFolded > b.razaoFolded ? 1 : porCodigo(a.instituicaoId, b.instituicaoId));

/** The first 5 by name the caller may pick (the registry's partition; the issuer's from its two key ranges). */
async function primeirasCinco(p: Principal, v: Visao): Promise<Encontrada[]> {
  const cnpj = emissorCnpj(p);
  if (!p.roles.includes('emissor') || isAdmin(p)) return store.primeirasDoRegistro(5, v.ve);
  const fontes: { grupo: string }[] = [{ grupo: grupoDaSituacao('ATIVA') }, ...(cnpj ? [{ grupo: grupoDoEmissor(cnpj) }] : [])];
  const paginas = await Promise.all(fontes.map((f) => store.paginaDoIndice(f, { perPage: 5, aceita: v.ve })));
  const unicas = new Map(paginas.flatMap((pg) => pg.items).map((r) => [r.instituicaoId, r]));
  return [...unicas.values()].sort(porNome).slice(0, 5);
}

// ---- registry (sefaz_admin) -------------------------------------------------------------------------

type FiltroBody = BodyOf<typeof instituicoes.filtrarInstituicoes>;

/**
 * The registry search needs at least one filter (institution, type, UF or status). A page at a time by
 * cursor, from one key range: the base CNPJ's start, else the UF, else the status (in name order), else
 * the registry with the type as the filter no key holds; the other filters are checked on what the range
 * holds (bounded rounds: a page may come back short, with the cursor of where it stopped).
 */
export async function filtrar(filtro: FiltroBody, p: Principal) {
  const cnpj = filtro.cnpjBaseEsf ? normalizeCnpj(filtro.cnpjBaseEsf) : '';
  if (!cnpj && !filtro.tipo && !filtro.uf && !filtro.situacao) throw invalid('filtroObrigatorio');
  const fonte = cnpj
    ? { grupo: grupoDoCnpj(cnpj), prefixo: cnpj }
    : filtro.uf
      ? { grupo: grupoDaUf(filtro.uf) }
      : filtro.situacao
        ? { grupo: grupoDaSituacao(filtro.situacao) }
        : ('registro' as const);
  const aceita = (r: Encontrada) =>
    (!cnpj || r.cnpj.startsWith(cnpj)) &&
    (!filtro.tipo || r.tipo === filtro.tipo) &&
    (!filtro.uf || r.uf === filtro.uf) &&
    (!filtro.situacao || r.situacao === filtro.situacao);
  const vinculo = vinculoDoCursor(p, 'instituicoes.filtrar', { cnpj, tipo: filtro.tipo, uf: filtro.uf, situacao: filtro.situacao, perPage: filtro.perPage });
  const pagina = await paginaComCursor(vinculo, filtro.cursor, (posicao) => store.paginaDoIndice(fonte, { perPage: filtro.perPage, posicao, aceita }));
  // The page's full records (audit fields): one BatchGet of at most a page.
  const porId = new Map((await store.instituicoesPorId(pagina.items.map((r) => r.instituicaoId))).map((r) => [r.instituicaoId, r]));
  const items = pagina.items.flatMap((r) => {
    const inteira = porId.get(r.instituicaoId);
    return inteira ? [instituicaoView(inteira)] : [];
  });
  return { items, ...(pagina.nextCursor ? { nextCursor: pagina.nextCursor } : {}) };
}

export async function get(id: string) {
  const r = await store.findInstituicao(id);
  if (!r) throw notFound();
  return instituicaoView(r);
}

interface NovaInstituicao {
  razaoSocial: string;
  cnpj: string;
  uf: string;
  tipo?: InstituicaoRecord['tipo'];
  regulada?: boolean;
}

async function criar(input: NovaInstituicao, situacao: InstituicaoRecord['situacao'], createdBy: string, emissorCnpj?: string) {
  const at = now();
  const record: InstituicaoRecord = {
    instituicaoId: randomUUID(),
    razaoSocial: input.razaoSocial,
    razaoFolded: foldText(input.razaoSocial),
    cnpj: input.cnpj,
    uf: input.uf,
    ...(input.tipo ? { tipo: input.tipo } : {}),
    situacao,
    regulada: input.regulada ?? false,
    ...(emissorCnpj ? { emissorCnpj } : {}),
    createdAt: at,
    updatedAt: at,
    createdBy,
    updatedBy: createdBy,
  };
  await store.createInstituicao(record);
  return record;
}

/** Institutions created by the registry are ATIVA. */
export async function adminCreate(input: BodyOf<typeof instituicoes.createInstituicaoAdmin>, by: Principal) {
  return instituicaoView(await criar(input, 'ATIVA', by.name));
}

/** The cnpj never changes; the status only along the allowed transitions (situacoesPermitidas). */
export async function adminUpdate(input: BodyOf<typeof instituicoes.updateInstituicaoAdmin>, by: Principal) {
  const before = await store.findInstituicao(input.id);
  if (!before) throw notFound();
  if (!situacoesPermitidas(before.situacao).includes(input.situacao)) throw invalid('statusNaoPermitido');
  const changes = {
    razaoSocial: input.razaoSocial,
    razaoFolded: foldText(input.razaoSocial),
    uf: input.uf,
    tipo: input.tipo,
    regulada: input.regulada,
    situacao: input.situacao,
    updatedAt: now(),
    updatedBy: by.name,
  };
  await store.updateInstituicao(before, changes);
  return instituicaoView({ ...before, ...changes });
}

export async function autocomplete(text: string, p: Principal) {
  return (await sugestoes(text, visaoDe(p))).map(resumo);
}

export async function top5(p: Principal) {
  return (await primeirasCinco(p, visaoDe(p))).map(resumo);
}

/** The dialog of the authorisation form: an institution it adds is created PENDENTE. */
export async function createPendente(input: BodyOf<typeof instituicoes.createInstituicaoPendente>, by: Principal) {
  return instituicaoView(await criar(input, 'PENDENTE', by.name));
}

// ---- clients ---------------------------------------------------------------------------------------

interface Cliente {
  id: string;
  cnpj: string;
  razaoSocial: string;
}

export async function clientesOpcoes(p: Principal): Promise<Cliente[]> {
  if (isAdmin(p)) return (await todosClientes()).map((c) => ({ id: c.id, cnpj: c.cnpj, razaoSocial: c.razao_social }));
  const own = p.clienteId ? await clienteResumo(p.clienteId) : null;
  return own ? [{ id: own.id, cnpj: own.cnpj, razaoSocial: own.razao_social }] : [];
}

/**
 * The client an authorisation call is about. A client user is fixed to its own client: another
 * client's CNPJ is refused (403). The administrator must name one ('É necessário selecionar um
 * cliente PLAC').
 */
async function clienteDa(p: Principal, cnpj: string | undefined): Promise<Cliente> {
  const wanted = cnpj ? normalizeCnpj(cnpj) : '';
  if (!isAdmin(p)) {
    const own = p.clienteId ? await clienteResumo(p.clienteId) : null;
    if (!own || (wanted && wanted !== own.cnpj)) throw forbidden('clienteNaoPermitido');
    return { id: own.id, cnpj: own.cnpj, razaoSocial: own.razao_social };
  }
  if (!wanted) throw invalid('clientePlacObrigatorio');
  const found = (await todosClientes()).find((c) => c.cnpj === wanted);
  if (!found) throw notFound();
  return { id: found.id, cnpj: found.cnpj, razaoSocial: found.razao_social };
}

// ---- authorisations --------------------------------------------------------------------------------

/** The current names of the institutions of some authorisations (one BatchGet of at most a page). */
async function nomesDasInstituicoes(autorizacoes: readonly AutorizacaoRecord[]): Promise<Map<string, string>> {
  return new Map((await store.instituicoesPorId(autorizacoes.map((a) => a.instituicaoId))).map((r) => [r.instituicaoId, r.razaoSocial]));
}

function autorizacaoView(a: AutorizacaoRecord, nomes: Map<string, string>) {
  return {
    cnpjCliente: a.cnpjCliente,
    razaoSocialCliente: a.razaoSocialCliente,
    cnpjInstFinanceira: a.cnpjInst,
    razaoSocialInstFinanceira: nomes.get(a.instituicaoId) ?? a.razaoSocialInst,
    status: a.status,
    dataAutorizacao: a.dataAutorizacao,
    dataAtualizacao: a.updatedAt,
    justificativa: a.justificativa ?? null,
    nomeArquivo: a.nomeArquivo,
  };
}

type ListaBody = BodyOf<typeof instituicoes.listAutorizacoes>;

/** The authorisation list: a client is required, start not after end, a missing end takes the start. */
export async function listAutorizacoes(filtro: ListaBody, p: Principal) {
  const cliente = await clienteDa(p, filtro.cnpjCliente);
  const inicio = filtro.dataInicial;
  const fim = filtro.dataFinal ?? filtro.dataInicial;
  if (validateDateRange(inicio, fim, { maxDays: Number.MAX_SAFE_INTEGER }) === 'dataInicioMaiorDataFim') {
    throw invalid('dataInicioMaiorDataFim');
  }
  const inst = normalizeCnpj(filtro.instituicaoFinanceira ?? filtro.cnpjBaseEsf ?? '');
  const all = await store.autorizacoesDoCliente(cliente.id);
  const found = all
    .filter((a) => {
      const dia = toTransportDate(a.dataAutorizacao);
      return (
        (!inst || a.cnpjInst.includes(inst)) &&
        (!filtro.status || a.status === filtro.status) &&
        (!inicio || dia >= inicio) &&
        (!fim || dia <= fim)
      );
    })
    .sort((a, b) => porCodigo(b.dataAutorizacao, a.dataAutorizacao));
  const pagina = paginate(found, filtro.page, filtro.size);
  const nomes = await nomesDasInstituicoes(pagina.items);
  return { ...pagina, items: pagina.items.map((a) => autorizacaoView(a, nomes)) };
}

async function autorizacaoDe(p: Principal, cnpjCliente: string, cnpjInst: string) {
  const cliente = await clienteDa(p, cnpjCliente);
  const a = await store.findAutorizacao(cliente.id, cnpjInst);
  if (!a) throw notFound();
  return a;
}

export async function getAutorizacao(query: QueryOf<typeof instituicoes.getAutorizacao>, p: Principal) {
  const a = await autorizacaoDe(p, query.cnpjCliente, query.cnpjInstFinanceira);
  const nomes = await nomesDasInstituicoes([a]);
  return { ...autorizacaoView(a, nomes), urlArquivo: await presignDownload(a.arquivoKey, 'application/pdf', { fileName: a.nomeArquivo }) };
}

/**
 * The signed authorisation: a .pdf name ('somentePdf'), at most 4 MB ('arquivoGrandeDemais'), and
 * content that loads as a PDF document ('conteudoNaoPdf'), whatever the browser checked.
 */
export async function pdfDoArquivo(arquivo: string, nomeArquivo: string): Promise<Buffer> {
  if (!isPdfFileName(nomeArquivo)) throw invalid('somentePdf');
  const bytes = decodeBase64Payload(arquivo);
  if (!bytes) throw invalid('conteudoNaoPdf');
  if (bytes.length > MAX_ARQUIVO_BYTES) throw invalid('arquivoGrandeDemais');
  if (!(await isPdfDocument(bytes))) throw invalid('conteudoNaoPdf');
  return bytes;
}

async function guardarPdf(clienteId: string, cnpjInst: string, bytes: Buffer): Promise<string> {
  const key = `autorizacoes/${clienteId}/${cnpjInst}/${randomUUID()}.pdf`;
  await s3Client().send(
    new PutObjectCommand({ Bucket: config.documentsBucket, Key: key, Body: bytes, ContentType: 'application/pdf', ContentDisposition: 'attachment' }),
  );
  return key;
}

async function apagarPdf(key: string) {
  try {
    await s3Client().send(new DeleteObjectCommand({ Bucket: config.documentsBucket, Key: key }));
  } catch {
    // Best effort: an orphan object costs little and is never linked.
  }
}

/** A client authorises an institution with the signed PDF; the authorisation starts PENDENTE. */
export async function createAutorizacao(input: BodyOf<typeof instituicoes.createAutorizacao>, p: Principal) {
  const cliente = await clienteDa(p, input.cliente);
  const bytes = await pdfDoArquivo(input.arquivo, input.nomeArquivo);
  const inst = await store.findInstituicaoByCnpj(input.instituicaoFinanceira);
  if (!inst || inst.situacao === 'DESATIVADA') throw invalid('instituicaoIndisponivel');
  if (await store.findAutorizacao(cliente.id, inst.cnpj)) throw conflict('autorizacaoDuplicada');

  const key = await guardarPdf(cliente.id, inst.cnpj, bytes);
  const at = now();
  const record: AutorizacaoRecord = {
    clienteId: cliente.id,
    cnpjInst: inst.cnpj,
    instituicaoId: inst.instituicaoId,
    razaoSocialInst: inst.razaoSocial,
    cnpjCliente: cliente.cnpj,
    razaoSocialCliente: cliente.razaoSocial,
    status: 'PENDENTE',
    dataAutorizacao: at,
    arquivoKey: key,
    nomeArquivo: safeFileName(input.nomeArquivo),
    createdAt: at,
    updatedAt: at,
    createdBy: p.name,
    updatedBy: p.name,
  };
  // Two requests at once: the second create fails on the key and its file is removed.
  if (!(await store.createAutorizacao(record))) {
    await apagarPdf(key);
    throw conflict('autorizacaoDuplicada');
  }
  return { message: message('autorizacaoCriada'), autorizacao: autorizacaoView(record, new Map()) };
}

/**
 * The administrator changes the status along the allowed transitions, and a
 * change needs a justification; the administrator does not upload. A client never changes the status
 * or the justification, and may replace the file only while the status is not AUTORIZADO.
 */
export async function updateAutorizacao(input: BodyOf<typeof instituicoes.updateAutorizacao>, p: Principal) {
  const before = await autorizacaoDe(p, input.cnpjCliente, input.cnpjInstFinanceira);
  const changes: Partial<AutorizacaoRecord> = {};
  const remove: 'justificativa'[] = [];
  let novoArquivo: string | null = null;

  if (isAdmin(p)) {
    if (input.arquivo !== undefined) throw forbidden('semPermissao');
    const status: AutorizacaoStatus = input.status ?? before.status;
    if (!statusAutorizacaoPermitidos(before.status, p.roles).includes(status)) throw invalid('statusNaoPermitido');
    const justificativa = input.justificativa?.trim() ?? '';
    if (status !== before.status) {
      if (!justificativa) throw badRequest({ justificativa: [message('campoObrigatorio', { field: 'Justificativa' })] });
      changes.status = status;
    }
    if (input.justificativa !== undefined) {
      if (justificativa) changes.justificativa = justificativa;
      else remove.push('justificativa');
    }
  } else {
    if (input.status !== undefined && input.status !== before.status) throw invalid('statusNaoPermitido');
    if (before.status === 'AUTORIZADO') throw invalid('autorizacaoNaoEditavel');
    if (input.arquivo !== undefined) {
      if (!input.nomeArquivo) throw badRequest({ nomeArquivo: [message('campoObrigatorio', { field: 'Arquivo' })] });
      const bytes = await pdfDoArquivo(input.arquivo, input.nomeArquivo);
      novoArquivo = await guardarPdf(before.clienteId, before.cnpjInst, bytes);
      changes.arquivoKey = novoArquivo;
      changes.nomeArquivo = safeFileName(input.nomeArquivo);
    }
  }

  const after: AutorizacaoRecord = { ...before, ...changes, updatedAt: now(), updatedBy: p.name };
  if (remove.includes('justificativa')) delete after.justificativa;
  try {
    await store.updateAutorizacao(before, { ...changes, updatedAt: after.updatedAt, updatedBy: p.name }, remove);
  } catch (error) {
    if (novoArquivo) await apagarPdf(novoArquivo);
    throw error;
  }
  return { message: message('autorizacaoAtualizada'), autorizacao: autorizacaoView(after, await nomesDasInstituicoes([after])) };
}

// ---- issuer (emissor) ------------------------------------------------------------------------------

/**
 * The issuer's CNPJ. An issuer's user id is `emissor-<cnpj of its certificate>` (users.ensureIssuer,
 * created at its first certificate login), so no read is needed.
 */
function emissorCnpj(p: Principal): string | null {
  const cnpj = p.userId.startsWith('emissor-') ? p.userId.slice('emissor-'.length) : '';
  return /^[0-9A-Z]{14}$/.test(cnpj) ? cnpj : null;
}

function emissorView(r: Encontrada) {
  return {
    ...resumo(r),
    createdAt: r.createdAt,
    // "An institution without an update date": one never changed since it was created.
    updatedAt: r.updatedAt === r.createdAt ? null : r.updatedAt,
    createdBy: r.emissorCnpj ?? null,
  };
}

export async function emissorAutocomplete(text: string, p: Principal) {
  return (await sugestoes(text, visaoDe(p))).map(emissorView);
}

export async function emissorTop5(p: Principal) {
  return (await primeirasCinco(p, visaoDe(p))).map(emissorView);
}

export async function emissorCreate(input: BodyOf<typeof instituicoes.emissorCreate>, p: Principal) {
  const cnpj = emissorCnpj(p);
  if (!cnpj) throw forbidden('semPermissao');
  return emissorView(await criar(input, 'NOVO', cnpj, cnpj));
}

/** An issuer can edit or delete only a NOVO institution that it created itself. */
async function propriaDoEmissor(id: string, p: Principal) {
  const r = await store.findInstituicao(id);
  if (!r) throw notFound();
  const cnpj = emissorCnpj(p);
  if (r.situacao !== 'NOVO' || !cnpj || r.emissorCnpj !== cnpj) throw forbidden('instituicaoNaoEditavel');
  return r;
}

export async function emissorUpdate(input: BodyOf<typeof instituicoes.emissorUpdate>, p: Principal) {
  const before = await propriaDoEmissor(input.id, p);
  const changes = { razaoSocial: input.razaoSocial, razaoFolded: foldText(input.razaoSocial), uf: input.uf, updatedAt: now(), updatedBy: before.emissorCnpj };
  await store.updateInstituicao(before, changes);
  return emissorView({ ...before, ...changes });
}

export async function emissorDelete(input: BodyOf<typeof instituicoes.emissorDelete>, p: Principal) {
  const before = await propriaDoEmissor(input.id, p);
  await store.deleteInstituicao(before, before.emissorCnpj ?? p.name);
  return { message: message('instituicaoRemovida') };
}
