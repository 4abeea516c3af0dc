import { Entity, type EntityItem } from 'electrodb';
import { transactWithRetry } from '../platform/table';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';

/**
 * Banks of the beneficiaries' accounts (docs/data-model.md, "Revenue sharing"). Access patterns:
 * - all banks, by code: one partition (`banco`, sort key the 3-digit code). About 500 small items, one
 *   query page; the search by code or name filters that page in memory (no Scan);
 * - a bank by code: the same partition's key;
 * - ISPB uniqueness: a marker item per ISPB (`bancoIspb`), written in the same transaction as the bank,
 *   so two saves with one ISPB cannot both win.
 * Kept: reference data (about 500 banks), edited by an administrator.
 */
const banco = entidadeSobDemanda(() => new Entity({
  model: { entity: 'banco', version: '1', service: 'rateio' },
  attributes: {
    codigo: { type: 'string', required: true },
    nome: { type: 'string', required: true },
    ispb: { type: 'string', required: true },
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
    createdBy: { type: 'string' },
    updatedBy: { type: 'string' },
  },
  indexes: { byCodigo: { pk: { field: 'pk', composite: [] }, sk: { field: 'sk', composite: ['codigo'] } } },
}));

/** Kept: the ISPB's uniqueness claim, as long as its bank. */
const bancoIspb = entidadeSobDemanda(() => new Entity({
  model: { entity: 'bancoIspb', version: '1', service: 'rateio' },
  attributes: {
    ispb: { type: 'string', required: true },
    codigo: { type: 'string', required: true },
  },
  indexes: { byIspb: { pk: { field: 'pk', composite: ['ispb'] }, sk: { field: 'sk', composite: [] } } },
}));

const db = servicoSobDemanda({ banco, bancoIspb });

export type BancoRecord = EntityItem<typeof banco>;

export async function listarBancos(): Promise<BancoRecord[]> {
  // Bounded: the banks the Central Bank lists (a few hundred, registered by the administrator).
  const { data } = await db().entities.banco.query.byCodigo({}).go({ pages: 'all' });
  return data;
}

export async function lerBanco(codigo: string): Promise<BancoRecord | null> {
  const { data } = await db().entities.banco.get({ codigo }).go({ consistent: true });
  return data;
}

export type Resultado = 'ok' | 'codigoDuplicado' | 'ispbDuplicado' | 'alterado';

function motivo(result: { canceled: boolean; data: { code?: string }[] }, codigoFirst: Resultado): Resultado {
  if (!result.canceled) return 'ok';
  const [b, i] = result.data;
  if (b?.code === 'ConditionalCheckFailed') return codigoFirst;
  if (i?.code === 'ConditionalCheckFailed' || result.data.some((d) => d.code === 'ConditionalCheckFailed')) return 'ispbDuplicado';
  throw new Error(`bank write cancelled: ${result.data.map((d) => d.code ?? 'None').join(', ')}`);
}

/** A new bank and its ISPB marker, both only if absent. */
export async function criarBanco(r: BancoRecord): Promise<Resultado> {
  const result = await transactWithRetry(() =>
    db()
      .transaction.write(({ banco: b, bancoIspb: i }) => [b.create(r).commit(), i.create({ ispb: r.ispb, codigo: r.codigo }).commit()])
      .go(),
  );
  return motivo(result, 'codigoDuplicado');
}

/** Name and ISPB of an existing bank, on the condition it is as read; the ISPB marker moves with it. */
export async function alterarBanco(antes: BancoRecord, depois: BancoRecord): Promise<Resultado> {
  const mudouIspb = antes.ispb !== depois.ispb;
  const result = await transactWithRetry(() =>
    db()
      .transaction.write(({ banco: b, bancoIspb: i }) => [
        b
          .patch({ codigo: antes.codigo })
          .set({ nome: depois.nome, ispb: depois.ispb, updatedAt: depois.updatedAt, ...(depois.updatedBy ? { updatedBy: depois.updatedBy } : {}) })
          .where((attr, op) => op.eq(attr.updatedAt, antes.updatedAt))
          .commit(),
        ...(mudouIspb ? [i.create({ ispb: depois.ispb, codigo: depois.codigo }).commit(), i.delete({ ispb: antes.ispb }).commit()] : []),
      ])
      .go(),
  );
  return motivo(result, 'alterado');
}

/** The seed: writes the banks whose code is absent (one transaction each of bank + ISPB marker, 20 at a time). */
export async function semearBancos(registros: readonly BancoRecord[]): Promise<number> {
  const existentes = new Set((await listarBancos()).map((b) => b.codigo));
  const novos = registros.filter((r) => !existentes.has(r.codigo));
  let gravados = 0;
  for (let i = 0; i < novos.length; i += 20) {
    const lote = await Promise.all(novos.slice(i, i + 20).map(criarBanco));
    gravados += lote.filter((r) => r === 'ok').length;
  }
  return gravados;
}
