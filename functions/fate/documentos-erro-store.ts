import { porCodigo } from '@plac/shared/domain';
import { createConversions } from 'electrodb';
import { isConditionalFailure } from '../platform/table';
import { paginaEmSequencia, paginaIntercalada, type Ler, type Pagina } from '../platform/paginas';
import { expiraAposDias } from '../platform/retencao';
import { shardDe, shardsAte } from './contagem-entities';
import { createOnce, type Gravacao } from './store-comum';
import { db, ERRO_SHARDS, fateLegado, type DocumentoErroRecord } from './store-entities';

/**
 * The error documents: what a load could not process, by id, by UF and creation instant (gsi1) and all
 * by creation instant (gsi2, ERRO_SHARDS partitions). One record per document (a conditional create by
 * id), kept a year; its XML is in the documents bucket, never in the item.
 */

/**
 * An error document is kept a year (issue 38 item 5): it evidences nothing billed, only that a document
 * could not be processed, and a year leaves the operators time to find the cause and load it again (the
 * batch import re-reads a range; the XML itself stays in the documents bucket for five years and a
 * month). One that fails again after its record is gone is recorded again, for another year.
 */
export const DIAS_DOCUMENTO_ERRO = 365;
/** The end date of an error document recorded at `createdAt`. */
export const expiraDocumentoErro = (createdAt: string) => expiraAposDias(createdAt, DIAS_DOCUMENTO_ERRO);

/** An error document as the loader records it: its gsi2 shard (the id's hash) and its end date are added here. */
export type NovoDocumentoErro = Omit<DocumentoErroRecord, 'lista' | 'shard'>;

export async function gravarDocumentoErro(record: NovoDocumentoErro): Promise<Gravacao> {
  const expiresAt = record.expiresAt ?? expiraDocumentoErro(record.createdAt);
  return createOnce(() => db().entities.documentoErro.create({ ...record, lista: 'erros', shard: shardDe(record.id, ERRO_SHARDS), expiresAt }).go());
}

export async function documentoErroPorId(id: string): Promise<DocumentoErroRecord | null> {
  const { data } = await db().entities.documentoErro.get({ id }).go();
  return data;
}

/**
 * One page of the error documents created from `de` to `ate` (ISO instants, inclusive), newest first.
 * Of one UF: one key-range Query of gsi1 (`perPage + 1` items) from the position (`posicao`, the page
 * cursor's content). Of all: the ERRO_SHARDS partitions of gsi2, and its partition of before issue 36
 * (until migrated), merged by creation instant and id (platform/paginas.ts `paginaIntercalada`): the
 * position is the last item's instant and id, from which every partition resumes.
 */
export async function documentosErroNoPeriodo(
  uf: string | null,
  de: string,
  ate: string,
  pagina: { perPage: number; posicao?: string | undefined },
): Promise<Pagina<DocumentoErroRecord>> {
  const entity = db().entities.documentoErro;
  const antigo = fateLegado().entities.documentoErroLegado;
  // `ate` + '~' closes the range after every id of the last instant ('~' sorts after the ids' characters).
  const ate_ = `${ate}~`;
  if (uf) {
    return paginaEmSequencia<DocumentoErroRecord>(
      [
        async (desde, limite) => {
          const { data, cursor } = await entity.query.byUf({ uf }).between({ createdAt: de }, { createdAt: ate_ }).go({ order: 'desc', limit: limite, cursor: desde ?? null });
          return { data, cursor };
        },
      ],
      (_, item) => createConversions(entity).byAccessPattern.byUf.fromComposite.toCursor(item)!,
      pagina,
    );
  }
  const shards = shardsAte(ERRO_SHARDS);
  const daShard =
    (shard: number): Ler<DocumentoErroRecord> =>
    async (desde, limite) => {
      const { data, cursor } = await entity.query.all({ lista: 'erros', shard }).between({ createdAt: de }, { createdAt: ate_ }).go({ order: 'desc', limit: limite, cursor: desde ?? null });
      return { data, cursor };
    };
  const doLegado: Ler<DocumentoErroRecord> = async (desde, limite) => {
    const { data, cursor } = await antigo.query.all({}).between({ createdAt: de }, { createdAt: ate_ }).go({ order: 'desc', limit: limite, cursor: desde ?? null });
    return { data: data as DocumentoErroRecord[], cursor };
  };
  type Chave = [string, string];
  return paginaIntercalada<DocumentoErroRecord, Chave>([...shards.map(daShard), doLegado], {
    ...pagina,
    chave: (d) => [d.createdAt, d.id],
    // Newest first: the greater key comes first.
    comparar: (a, b) => porCodigo(b[0], a[0]) || porCodigo(b[1], a[1]),
    apos: (i, [createdAt, id]) =>
      i < shards.length
        ? createConversions(entity).byAccessPattern.all.fromComposite.toCursor({ lista: 'erros', shard: shards[i]!, createdAt, id })!
        : createConversions(antigo).byAccessPattern.all.fromComposite.toCursor({ createdAt, id })!,
    validarChave: (k): k is Chave => Array.isArray(k) && k.length === 2 && k.every((p) => typeof p === 'string' && p.length > 0 && p.length <= 200),
  });
}

/** Removes an error document; false when it was not there. */
export async function removerDocumentoErro(id: string): Promise<boolean> {
  try {
    await db().entities.documentoErro.delete({ id }).where((attr, op) => op.exists(attr.id)).go();
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}
