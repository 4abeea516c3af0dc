import { isAdmin, type Principal } from '@plac/shared/access';
import { daysBetween, DOCUMENTOS_ERRO_MAXIMO_DIAS, type Uf } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { forbidden, invalid, notFound } from '../platform/errors';
import { logger } from '../platform/observability';
import { paginaComCursor, vinculoDoCursor } from '../platform/paginas';
import { apagarXml, lerXml } from './xml-store';
import * as store from './documentos-erro-store';
import type { DocumentoErroRecord } from './store-entities';

/**
 * The documents a load could not process, as the error-document screen lists, downloads and removes
 * them. A Sefaz manager (sefaz_gestor) reaches only the documents of the own UF.
 */

/** The UF the caller may see: any (or all, null) for an administrator, the own for a manager. */
function ufDoFiltro(principal: Principal, pedida: string | undefined): Uf | null {
  if (isAdmin(principal)) return (pedida as Uf | undefined) ?? null;
  if (!principal.uf) throw forbidden();
  if (pedida && pedida !== principal.uf) throw forbidden();
  return principal.uf as Uf;
}

function podeVer(principal: Principal, doc: DocumentoErroRecord): boolean {
  return isAdmin(principal) || (principal.uf !== undefined && doc.uf === principal.uf);
}

/** The start of a Bahia calendar day (UTC-3, no daylight saving since 2012), as an ISO instant. */
const inicioDoDia = (dia: string) => new Date(`${dia}T00:00:00-03:00`).toISOString();
const fimDoDia = (dia: string) => new Date(Date.parse(`${dia}T00:00:00-03:00`) + 86_400_000 - 1).toISOString();

export async function filtrar(
  filtro: { UFOrigem?: string | undefined; dataInicio: string; dataFim: string; cursor?: string | undefined; perPage: number },
  principal: Principal,
) {
  const span = daysBetween(filtro.dataInicio, filtro.dataFim);
  if (span < 0) throw invalid('dataInicioMaiorDataFim');
  if (span > DOCUMENTOS_ERRO_MAXIMO_DIAS) throw invalid('faixaDataInvalida');
  const uf = ufDoFiltro(principal, filtro.UFOrigem);
  const [de, ate] = [inicioDoDia(filtro.dataInicio), fimDoDia(filtro.dataFim)];
  const vinculo = vinculoDoCursor(principal, 'fate.documentosErro', { uf, de, ate, perPage: filtro.perPage });
  const pagina = await paginaComCursor(vinculo, filtro.cursor, (posicao) => store.documentosErroNoPeriodo(uf, de, ate, { perPage: filtro.perPage, posicao }));
  return {
    ...pagina,
    // Named fields only: a legacy item's `trace` (a stack, before issue 27 item 2) is never answered.
    items: pagina.items.map(({ id, tipo, uf: origem, nsu, excecao, erro, createdAt, detalhe }) => ({
      id,
      tipo,
      uf: origem,
      nsu,
      excecao,
      erro,
      createdAt,
      detalhe: detalhe ?? '',
    })),
  };
}

async function documentoVisivel(id: string, principal: Principal): Promise<DocumentoErroRecord> {
  const doc = await store.documentoErroPorId(id);
  // Another UF's document is "not found" for a manager: its existence is not theirs to learn.
  if (!doc || !podeVer(principal, doc)) throw notFound();
  return doc;
}

export async function baixar(id: string, principal: Principal) {
  const doc = await documentoVisivel(id, principal);
  const bytes = await lerXml(doc.xmlKey);
  if (!bytes) throw notFound();
  return { nomeArquivo: `${doc.uf}-${doc.nsu}.xml`, contentType: 'application/xml' as const, conteudoBase64: bytes.toString('base64') };
}

export async function remover(id: string, principal: Principal) {
  const doc = await documentoVisivel(id, principal);
  if (!(await store.removerDocumentoErro(id))) throw notFound();
  // The XML goes with it; a failure here leaves only an orphan object, never a listed document without XML.
  await apagarXml(doc.xmlKey).catch((error: unknown) => logger.warn('error document XML not removed', { id, reason: (error as Error).message }));
  logger.info('error document removed', { id, uf: doc.uf, by: principal.userId });
  return { message: message('remocaoRealizada') };
}
