import { createHash, randomInt } from 'node:crypto';
import { createConversions, Entity, type EntityItem } from 'electrodb';
import { monthOf, nextMonth, planoDeDebito, repartirSaldo, SALDO_SHARDS, type ParteDebito } from '@plac/shared/domain';
import { invalid } from '../platform/errors';
import { paginaEmSequencia, paginaIntercalada, type Pagina } from '../platform/paginas';
import { DIAS_DE_CONTESTACAO, DIAS_FISCAIS, expiraAposDias } from '../platform/retencao';
import { isConditionalFailure, transactWithRetry } from '../platform/table';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';

/**
 * Prepaid requests (docs/prepago.md, docs/data-model.md "Prepaid"). Five entities:
 * - conta: the bookkeeper's request account, one per client. It is also what makes a second
 *   reservation impossible while one is open or in force: a reservation writes it on a condition
 *   (absent, or the previous cycle ended), in one transaction with the reservation;
 * - saldo: the balance, in SALDO_SHARDS items per account (the credit split over them exactly), each
 *   its own partition key (`$prepago#clienteid_<id>#shard_<n>`, issue 36), so that one bookkeeper's
 *   debits (2,000 a second) spread over SALDO_SHARDS partitions: each debit takes its use from one shard
 *   (several only when no shard covers it alone). The account's balance is their sum. Each shard carries
 *   what a debit needs of the account (cycle, deadline, unit values), so a debit reads no account item;
 * - reserva: each reservation (a cycle of the account) with its DAE, by client and cycle, and on
 *   gsi1 by creation (the admin's list of every bookkeeper's DAEs: one partition, newest first);
 * - debito: one item per metered use the account was asked to pay for (keyed by the metering's
 *   key), what makes a debit happen once: PREPAGO (paid by the balance) or EXCEDENTE (the balance did
 *   not cover it: billed on the monthly invoice);
 * - extrato: per client, month, service and shard (the balance shard the debit took from), the shard
 *   in the partition key (`$prepago#clienteid_<id>#mes_<m>#shard_<n>`): one busy bookkeeper's statement
 *   is not one hot partition either; a read adds the shards up.
 *
 * Items stored before issue 36 (shards and statement lines under `$prepago#clienteid_<id>`) are read
 * where they are (`saldoAntigo`, `extratoAntigo`); an account's old shards move to the new keys at its
 * first debit (`moverShardsAntigos`) or by infra/migrations/chaves-particionadas.ts.
 */

/** Kept: one item per bookkeeper, the account's current state (rewritten by each cycle), not a log. */
const conta = entidadeSobDemanda(() => new Entity({
  model: { entity: 'contaPrepaga', version: '1', service: 'prepago' },
  attributes: {
    clienteId: { type: 'string', required: true },
    cnpj: { type: 'string', required: true },
    razaoSocial: { type: 'string', required: true },
    /** 1, 2, …: the reservation the account is on. */
    ciclo: { type: 'number', required: true },
    situacao: { type: ['AGUARDANDO_PAGAMENTO', 'VIGENTE'] as const, required: true },
    /** Centavos: the reservation's value (credited when its DAE is paid). */
    valorContratado: { type: 'number', required: true },
    /**
     * Thousandths of a real. On the item: 0, the balance being in the shards (`saldo`); an account
     * credited before the shards existed holds its balance here until its first debit moves it into
     * shards. What `lerConta` answers: the balance, this plus the shards of the account's cycle.
     */
    saldoMilesimos: { type: 'number', required: true },
    /** 'YYYY-MM-DD', set by the payment. */
    prazoConsumo: { type: 'string' },
    /** Unit values (thousandths) per service id, fixed by the reservation's price. */
    valores: { type: 'map', properties: { envioFate: { type: 'number' }, monitoramento: { type: 'number' }, registroCessao: { type: 'number' } }, required: true },
    updatedAt: { type: 'string', required: true },
  },
  indexes: { byCliente: { pk: { field: 'pk', composite: ['clienteId'] }, sk: { field: 'sk', composite: [] } } },
}));

/**
 * Kept: a reservation is the record of its DAE (what was bought, for how much, when it was paid), like
 * an invoice; one per cycle, and a cycle opens only once the last ended: a handful per bookkeeper.
 */
const reserva = entidadeSobDemanda(() => new Entity({
  model: { entity: 'reservaPrepaga', version: '1', service: 'prepago' },
  attributes: {
    clienteId: { type: 'string', required: true },
    ciclo: { type: 'number', required: true },
    /** `PA-<clienteId>-<ciclo>`: the DAE's document id. */
    reservaId: { type: 'string', required: true },
    cnpj: { type: 'string', required: true },
    razaoSocial: { type: 'string', required: true },
    emailContato: { type: 'string', required: true },
    qtdEnvioFate: { type: 'number', required: true },
    qtdMonitoramentoDe: { type: 'number', required: true },
    qtdRegistroCessao: { type: 'number', required: true },
    valor: { type: 'number', required: true },
    faixaId: { type: 'string', required: true },
    /** 'YYYY-MM': the DAE's reference month (the reservation's month). */
    mes: { type: 'string', required: true },
    situacao: { type: ['A', 'P'] as const, required: true },
    dtVencimento: { type: 'string', required: true },
    numeroDae: { type: 'number', required: true },
    codigoBarras: { type: 'string', required: true },
    linhaDigitavel: { type: 'string', required: true },
    chavePdf: { type: 'string', required: true },
    pagoEm: { type: 'string' },
    codigoBarrasPago: { type: 'string' },
    createdAt: { type: 'string', required: true },
    createdBy: { type: 'string', required: true },
    lista: { type: 'string', required: true, default: () => 'reservas' },
  },
  indexes: {
    byCliente: { pk: { field: 'pk', composite: ['clienteId'] }, sk: { field: 'sk', composite: ['ciclo'] } },
    todas: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['lista'] }, sk: { field: 'gsi1sk', composite: ['createdAt', 'clienteId'] } },
  },
}));

const atributosSaldo = {
  clienteId: { type: 'string', required: true },
  /** 0 … SALDO_SHARDS − 1. */
  shard: { type: 'number', required: true },
  /** The cycle whose credit this is: a debit pays from the cycle it read on the account. */
  ciclo: { type: 'number', required: true },
  /** The cycle's deadline ('YYYY-MM-DD'), copied here so that a debit touches no account item. */
  prazoConsumo: { type: 'string', required: true },
  /** Thousandths of a real left in this shard. */
  saldoMilesimos: { type: 'number', required: true },
  /** The account's unit values (thousandths) of the cycle, copied here so that a debit touches no account item. */
  valores: { type: 'map', properties: { envioFate: { type: 'number' }, monitoramento: { type: 'number' }, registroCessao: { type: 'number' } } },
} as const;

/**
 * One shard of an account's balance: set by the credit (the cycle's), only ever lowered by a conditional
 * debit. Kept: SALDO_SHARDS items per bookkeeper, rewritten by each cycle's credit.
 */
const saldo = entidadeSobDemanda(() => new Entity({
  model: { entity: 'saldoPrepago', version: '1', service: 'prepago' },
  attributes: atributosSaldo,
  indexes: { byShard: { pk: { field: 'pk', composite: ['clienteId', 'shard'] }, sk: { field: 'sk', composite: [] } } },
}));

/**
 * A shard as stored before issue 36 (pk `$prepago#clienteid_<id>`, the shard in the sort key): read and
 * moved only. Kept: read-only view of items of before issue 36, which the move deletes.
 */
const saldoAntigo = entidadeSobDemanda(() => new Entity({
  model: { entity: 'saldoPrepago', version: '1', service: 'prepago' },
  // The same attributes (the old shards have no unit values: the move copies the account's).
  attributes: atributosSaldo,
  // Read-only view of the form of before issue 36 (never written): its shard in the sort key is what the migration moves away.
  indexes: { byCliente: { pk: { field: 'pk', composite: ['clienteId'] }, sk: { field: 'sk', composite: ['shard'] } } },
}));

const debito = entidadeSobDemanda(() => new Entity({
  model: { entity: 'debitoPrepago', version: '1', service: 'prepago' },
  attributes: {
    chave: { type: 'string', required: true },
    clienteId: { type: 'string', required: true },
    servico: { type: 'number', required: true },
    resultado: { type: ['PREPAGO', 'EXCEDENTE'] as const, required: true },
    valorMilesimos: { type: 'number', required: true },
    createdAt: { type: 'string', required: true },
    /** TTL (epoch seconds): DIAS_DE_CONTESTACAO after `createdAt`; the archive keeps it five years (issue 41). */
    expiresAt: { type: 'number' },
    /** 'YYYY-MM' of `createdAt` in Bahia time, and the month index's part (DEBITO_SHARDS, from the key; named `parte` like every shard component of a key): written since issue 41. */
    mes: { type: 'string' },
    parte: { type: 'number' },
  },
  indexes: {
    byChave: { pk: { field: 'pk', composite: ['chave'] }, sk: { field: 'sk', composite: [] } },
    // A client's month of debits (the evidence archive, issue 41), spread over DEBITO_SHARDS index
    // partitions: a bookkeeper's 2,000 debits a second put 2,000 / 16 ≈ 125 writes a second on each.
    // Sparse: debits written before issue 41 carry no month and are not in it.
    byMes: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['clienteId', 'mes', 'parte'] }, sk: { field: 'gsi1sk', composite: ['createdAt', 'chave'] } },
  },
}));

/** Index partitions of a client's month of debits (gsi1). */
export const DEBITO_SHARDS = 16;
const shardDoDebito = (chave: string) => createHash('sha256').update(chave).digest().readUInt32BE(0) % DEBITO_SHARDS;

const atributosExtrato = {
  clienteId: { type: 'string', required: true },
  mes: { type: 'string', required: true },
  servico: { type: 'number', required: true },
  /** The balance shard the debits took from (statement lines written before the shards have none). */
  shard: { type: 'number', required: true },
  requisicoes: { type: 'number', required: true, default: 0 },
  valorUnitario: { type: 'number', required: true },
  valorMilesimos: { type: 'number', required: true, default: 0 },
  /** TTL (epoch seconds): DIAS_FISCAIS after the month's end (`expiraExtrato`); set again, the same, by every debit. */
  expiresAt: { type: 'number' },
} as const;

const extrato = entidadeSobDemanda(() => new Entity({
  model: { entity: 'extratoPrepago', version: '1', service: 'prepago' },
  attributes: atributosExtrato,
  indexes: { byShard: { pk: { field: 'pk', composite: ['clienteId', 'mes', 'shard'] }, sk: { field: 'sk', composite: ['servico'] } } },
}));

/** A statement line as stored before issue 36 (pk `$prepago#clienteid_<id>`): read where it is, never written. */
const extratoAntigo = entidadeSobDemanda(() => new Entity({
  model: { entity: 'extratoPrepago', version: '1', service: 'prepago' },
  attributes: atributosExtrato,
  // Read-only view of the form of before issue 36 (never written): its shard in the sort key is what the migration moves away.
  indexes: { byClienteMes: { pk: { field: 'pk', composite: ['clienteId'] }, sk: { field: 'sk', composite: ['mes', 'servico', 'shard'] } } },
}));

const entities = { conta, saldo, debito, extrato, reserva, saldoAntigo, extratoAntigo };
const db = servicoSobDemanda(entities);
/** The debit's entity, for the bench's item sizes (bench/arquivo-bytes.ts). */
export const entidadeDebito = () => db().entities.debito;

/**
 * Debits and statement lines back what the bookkeeper paid: a PREPAGO debit its reservation's DAE and
 * the month's statement, an EXCEDENTE one the monthly invoice that bills it. So each lives as long as
 * that invoice: DIAS_FISCAIS (five years and a month), from the debit's instant, or from the end of the
 * statement's month (its last debit). Removing them earlier would leave a paid amount unexplained.
 */
/**
 * A debit lives in the table through the dispute window of a charge (DIAS_DE_CONTESTACAO, 400 days):
 * past it the evidence archive holds it (functions/arquivo, issue 41), five years and a month.
 */
export const expiraDebito = (createdAt: string) => expiraAposDias(createdAt, DIAS_DE_CONTESTACAO);
const comFim = (d: DebitoRecord): DebitoRecord => ({
  ...d,
  expiresAt: d.expiresAt ?? expiraDebito(d.createdAt),
  mes: d.mes ?? monthOf(new Date(d.createdAt)),
  parte: d.parte ?? shardDoDebito(d.chave),
});
/** The end date of the statement lines of month `mes` ('YYYY-MM'): DIAS_FISCAIS after the month ends (in Bahia). */
export const expiraExtrato = (mes: string) => expiraAposDias(`${nextMonth(mes)}-01T00:00:00-03:00`, DIAS_FISCAIS);

export type ContaRecord = EntityItem<typeof conta>;
export type ReservaRecord = EntityItem<typeof reserva>;
export type DebitoRecord = EntityItem<typeof debito>;
export type SaldoRecord = EntityItem<typeof saldo>;

/** The account item as stored (one consistent GetItem): what a debit reads; its `saldoMilesimos` is not the balance (see `lerConta`). */
export async function lerContaItem(clienteId: string): Promise<ContaRecord | null> {
  const { data } = await db().entities.conta.get({ clienteId }).go({ consistent: true });
  return data;
}

/** One shard of the balance (one consistent GetItem of its partition); null when the account has none there. */
export async function lerShard(clienteId: string, shard: number): Promise<SaldoRecord | null> {
  const { data } = await db().entities.saldo.get({ clienteId, shard }).go({ consistent: true });
  return data;
}

const TODOS_OS_SHARDS = Array.from({ length: SALDO_SHARDS }, (_, shard) => shard);

/**
 * The balance's shards, whatever their cycle: one consistent BatchGetItem of the SALDO_SHARDS keys, and
 * when none is there, the shards an account still holds in the old form (one Query of its partition).
 */
export async function lerShards(clienteId: string): Promise<SaldoRecord[]> {
  const { data, unprocessed } = await db().entities.saldo.get(TODOS_OS_SHARDS.map((shard) => ({ clienteId, shard }))).go({ consistent: true });
  if (unprocessed.length > 0) throw new Error(`${unprocessed.length} balance shards were not read`);
  if (data.length > 0) return data;
  // Bounded: SALDO_SHARDS items at most (an account's shards before issue 36).
  const antigos = await db().entities.saldoAntigo.query.byCliente({ clienteId }).go({ pages: 'all', consistent: true });
  return antigos.data;
}

/**
 * An account's shards still in the old form moved to the new keys, with the account's unit values, in
 * one transaction conditioned on each old shard holding what was read (so a concurrent debit or move
 * makes it a no-op: the caller reads again). true when there was nothing to move or it moved.
 */
export async function moverShardsAntigos(clienteId: string, valores: ContaRecord['valores']): Promise<boolean> {
  // Bounded: SALDO_SHARDS items at most.
  const { data: antigos } = await db().entities.saldoAntigo.query.byCliente({ clienteId }).go({ pages: 'all', consistent: true });
  if (antigos.length === 0) return true;
  const result = await transactWithRetry(() =>
    db()
      .transaction.write(({ saldo: sd, saldoAntigo: sa }) => [
        ...antigos.flatMap((a) => [
          sa
            .delete({ clienteId, shard: a.shard })
            .where((x, op) => `${op.eq(x.ciclo, a.ciclo)} AND ${op.eq(x.saldoMilesimos, a.saldoMilesimos)}`)
            .commit(),
          sd.put({ clienteId, shard: a.shard, ciclo: a.ciclo, prazoConsumo: a.prazoConsumo, saldoMilesimos: a.saldoMilesimos, valores }).commit(),
        ]),
      ])
      .go(),
  );
  return !result.canceled;
}

/**
 * The account with its balance: `saldoMilesimos` is the sum of the shards of the account's cycle
 * (plus what an account credited before the shards still holds on its item). Exact: each shard is
 * read consistently, and within a cycle a shard only ever goes down.
 */
export async function lerConta(clienteId: string): Promise<ContaRecord | null> {
  const [c, shards] = await Promise.all([lerContaItem(clienteId), lerShards(clienteId)]);
  if (!c) return null;
  const doCiclo = c.situacao === 'VIGENTE' ? shards.filter((s) => s.ciclo === c.ciclo) : [];
  return { ...c, saldoMilesimos: c.saldoMilesimos + doCiclo.reduce((s, x) => s + x.saldoMilesimos, 0) };
}

export async function lerReserva(clienteId: string, ciclo: number): Promise<ReservaRecord | null> {
  const { data } = await db().entities.reserva.get({ clienteId, ciclo }).go({ consistent: true });
  return data;
}

/**
 * Opens a cycle: the account is written for the new reservation on the condition that it does not
 * exist or that its cycle is still the one read and ended (past its deadline, or less left than the
 * cheapest use), and
 * the reservation is created, in one transaction. false when the condition failed: a reservation is
 * open or in force (or another request won the race).
 *
 * `anterior` is the account as `lerConta` answers it, with its balance (the shards' sum). A balance
 * in shards cannot be a write's condition; it need not be: within a cycle it only goes down, so one
 * read below the cheapest use stays below it. The item's own `saldoMilesimos` (0, or an account's
 * from before the shards) is still in the condition.
 */
export async function abrirCiclo(novaConta: ContaRecord, novaReserva: ReservaRecord, anterior: ContaRecord | null, hoje: string, saldoMinimo: number): Promise<boolean> {
  if (anterior !== null && !((anterior.prazoConsumo ?? '') < hoje || anterior.saldoMilesimos < saldoMinimo)) return false;
  const result = await transactWithRetry(() =>
    db()
      .transaction.write(({ conta: c, reserva: r }) => [
        anterior === null
          ? c.create(novaConta).commit()
          : c
              .put(novaConta)
              .where((a, op) => `${op.eq(a.ciclo, anterior.ciclo)} AND ${op.eq(a.situacao, 'VIGENTE')} AND (${op.lt(a.prazoConsumo, hoje)} OR ${op.lt(a.saldoMilesimos, saldoMinimo)})`)
              .commit(),
        r.create(novaReserva).commit(),
      ])
      .go(),
  );
  if (!result.canceled) return true;
  if (result.data.some((d) => d.code === 'ConditionalCheckFailed' || d.code === 'TransactionConflict')) return false;
  throw new Error(`reservation cancelled: ${result.data.map((d) => d.code ?? 'None').join(', ')}`);
}

/** A re-issued DAE (a past due date): the reservation points to the new one while still open. */
export async function trocarDae(clienteId: string, ciclo: number, dae: Pick<ReservaRecord, 'dtVencimento' | 'numeroDae' | 'codigoBarras' | 'linhaDigitavel' | 'chavePdf'>): Promise<boolean> {
  try {
    await db().entities.reserva.patch({ clienteId, ciclo }).set(dae).where((a, op) => op.eq(a.situacao, 'A')).go({ response: 'none' });
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

/**
 * The payment: the reservation A → P and the account credited (AGUARDANDO_PAGAMENTO → VIGENTE, the
 * deadline set), and the contracted value split over the SALDO_SHARDS shards (`repartirSaldo`: exact,
 * the remainder on the first shards; each shard written for this cycle, whatever a previous cycle left
 * in it), in one transaction conditioned on both being still unpaid and on the same cycle. false when
 * already paid.
 */
export async function creditar(r: ReservaRecord, p: { pagoEm: string; codigoBarras: string; prazoConsumo: string; agora: string; valores: ContaRecord['valores'] }): Promise<boolean> {
  const result = await transactWithRetry(() =>
    db()
      .transaction.write(({ conta: c, reserva: rv, saldo: sd }) => [
        rv
          .patch({ clienteId: r.clienteId, ciclo: r.ciclo })
          .set({ situacao: 'P', pagoEm: p.pagoEm, codigoBarrasPago: p.codigoBarras })
          .where((a, op) => op.eq(a.situacao, 'A'))
          .commit(),
        c
          .patch({ clienteId: r.clienteId })
          .set({ situacao: 'VIGENTE', saldoMilesimos: 0, prazoConsumo: p.prazoConsumo, updatedAt: p.agora })
          .where((a, op) => `${op.eq(a.ciclo, r.ciclo)} AND ${op.eq(a.situacao, 'AGUARDANDO_PAGAMENTO')}`)
          .commit(),
        ...shardsDoCredito(r.clienteId, r.ciclo, p.prazoConsumo, r.valor * 10, p.valores).map((item) => sd.put(item).commit()),
      ])
      .go(),
  );
  if (!result.canceled) return true;
  if (result.data.some((d) => d.code === 'ConditionalCheckFailed')) return false;
  throw new Error(`credit cancelled: ${result.data.map((d) => d.code ?? 'None').join(', ')}`);
}

/**
 * A bookkeeper's reservations, newest cycle first, by the cycle's number. The sort key holds the
 * cycle unpadded (`…#ciclo_10` sorts before `…#ciclo_2`), so the partition's own order is not the
 * cycles' (issue 37: the DAE list showed cycle 10 between 2 and 1): they are ordered here. Bounded:
 * one reservation per cycle, and a cycle opens only once the one before was paid (at least 50.000.000
 * requests bought) and used up or past its deadline: a handful in a bookkeeper's years.
 */
export async function reservasDoCliente(clienteId: string): Promise<ReservaRecord[]> {
  // Bounded: one reservation per prepaid cycle of this bookkeeper, and a cycle opens only once the last ended (a handful).
  const { data } = await db().entities.reserva.query.byCliente({ clienteId }).go({ pages: 'all' });
  return data.sort((a, b) => b.ciclo - a.ciclo);
}

/** Every reservation created between two instants (the admin's list: one partition of gsi1, newest first). */
export async function reservasEntre(de: string, ate: string): Promise<ReservaRecord[]> {
  // Bounded: the reservations created in the admin's period (a few per bookkeeper a year), not the whole partition.
  const { data } = await db().entities.reserva.query.todas({ lista: 'reservas' }).between({ createdAt: de }, { createdAt: ate }).go({ pages: 'all', order: 'desc' });
  return data;
}

interface PaginaDeReservas {
  perPage: number;
  posicao?: string | undefined;
  aceita?: ((r: ReservaRecord) => boolean) | undefined;
}

/**
 * A page of a bookkeeper's reservations (and their DAEs), newest cycle first by number: the whole
 * (bounded) list read and ordered (`reservasDoCliente`, not the sort key's text order), the position
 * the last cycle listed. A position that is not a cycle number (a cursor of before) is refused as
 * cursorInvalido: the list starts again from its first page.
 */
export async function paginaDeReservasDoCliente(clienteId: string, o: PaginaDeReservas): Promise<Pagina<ReservaRecord>> {
  let antesDe = Number.POSITIVE_INFINITY;
  if (o.posicao !== undefined) {
    const m = /^\{"ciclo":([1-9]\d{0,8})\}$/.exec(o.posicao);
    if (!m) throw invalid('cursorInvalido');
    antesDe = Number(m[1]);
  }
  const seguintes = (await reservasDoCliente(clienteId)).filter((r) => r.ciclo < antesDe && (!o.aceita || o.aceita(r)));
  const items = seguintes.slice(0, o.perPage);
  // An object, not the bare number: the sealed cursor needs a few bytes of position (platform/cursor.ts).
  return { items, posicao: seguintes.length > o.perPage ? JSON.stringify({ ciclo: items[items.length - 1]!.ciclo }) : null };
}

/** A page of every reservation created between two instants, newest first (the admin's DAE list): one key-range Query on gsi1. */
export async function paginaDeReservasEntre(de: string, ate: string, o: PaginaDeReservas): Promise<Pagina<ReservaRecord>> {
  const entity = db().entities.reserva;
  return paginaEmSequencia<ReservaRecord>(
    [
      async (desde, limite) => {
        const { data, cursor } = await entity.query
          .todas({ lista: 'reservas' })
          .between({ createdAt: de }, { createdAt: ate })
          .go({ order: 'desc', limit: limite, cursor: desde ?? null });
        return { data, cursor };
      },
    ],
    (_, r) => createConversions(entity).byAccessPattern.todas.fromComposite.toCursor(r)!,
    o,
  );
}

export async function lerDebito(chave: string): Promise<DebitoRecord | null> {
  const { data } = await db().entities.debito.get({ chave }).go({ consistent: true });
  return data;
}

export type ResultadoDebito = 'debitado' | 'repetido' | 'sem-saldo';

/** A cycle's credit as its shards. */
const shardsDoCredito = (clienteId: string, ciclo: number, prazoConsumo: string, totalMilesimos: number, valores: ContaRecord['valores']): SaldoRecord[] =>
  repartirSaldo(totalMilesimos, SALDO_SHARDS).map((saldoMilesimos, shard) => ({ clienteId, shard, ciclo, prazoConsumo, saldoMilesimos, valores }));

/** Rounds of a debit (a read of the shards and a transaction) before it gives up with an error (the caller retries the use). */
const RODADAS_DEBITO = 80;

/**
 * One use paid by the balance, in one transaction: the debit item created (refused when this use was
 * already recorded), its value taken from one shard of the balance on the condition that the shard
 * covers it and is of the cycle read and not past its deadline, and the month's statement line (of
 * that shard) added to. No account item is written: the debits of one bookkeeper spread over the
 * SALDO_SHARDS shards.
 *
 * The first try takes a shard at random, without a read. When that shard cannot pay (too little left
 * in it, or another debit got there first), the shards are read (one consistent Query) and the use is
 * taken from the next shard that covers it (`planoDeDebito`); when no shard covers it alone but the
 * shards together do, it is split over several in the same one transaction. 'sem-saldo' only when the
 * sum of the cycle's shards is short, which is exact: within a cycle a shard only goes down, so a sum
 * read short stays short. 'repetido' when the use was already recorded (whatever its outcome: the
 * caller reads it).
 *
 * `c.saldoNaConta`: what the account item itself holds (an account credited before the shards): it
 * is moved into shards first, once.
 */
export async function debitar(
  d: DebitoRecord,
  c: { ciclo: number; hoje: string; mes: string; prazoConsumo?: string | undefined; saldoNaConta?: number; valores: ContaRecord['valores']; lido?: SaldoRecord | null | undefined },
): Promise<ResultadoDebito> {
  if ((c.saldoNaConta ?? 0) > 0 && c.prazoConsumo) await repartirSaldoDaConta(d.clienteId, c.ciclo, c.prazoConsumo, c.saldoNaConta!, c.valores);
  // The shard the caller already read, when it can pay the use; otherwise one at random, unread.
  const inicial = c.lido && c.lido.ciclo === c.ciclo && c.lido.saldoMilesimos >= d.valorMilesimos ? c.lido.shard : randomInt(SALDO_SHARDS);
  let plano: ParteDebito[] | null = c.lido && c.lido.shard === inicial ? [{ shard: inicial, milesimos: d.valorMilesimos }] : null;
  if (!plano && !c.lido) plano = [{ shard: inicial, milesimos: d.valorMilesimos }];
  let saltos = 0;
  for (let rodada = 0; rodada < RODADAS_DEBITO; rodada++) {
    if (plano) {
      const r = await debitarPlano(d, c, plano);
      if (r === 'debitado' || r === 'repetido' || r === 'sem-saldo') return r;
      if (r === 'ocupado' && plano.length === 1 && saltos++ < SALDO_SHARDS) {
        // The shard is busy with another debit at this instant: another shard at random, at once, rather than waiting for this one.
        plano = [{ shard: (plano[0]!.shard + 1 + randomInt(SALDO_SHARDS - 1)) % SALDO_SHARDS, milesimos: d.valorMilesimos }];
        continue;
      }
    }
    let shards = await lerShards(d.clienteId);
    if (shards.length > 0 && !('valores' in shards[0]! && shards[0].valores)) {
      // Still in the old form: moved once (with the account's unit values), then read again.
      await moverShardsAntigos(d.clienteId, c.valores);
      shards = await lerShards(d.clienteId);
    }
    const saldos = Array<number>(SALDO_SHARDS).fill(0);
    for (const s of shards) {
      if (s.shard >= 0 && s.shard < SALDO_SHARDS && s.ciclo === c.ciclo && s.prazoConsumo >= c.hoje) saldos[s.shard] = s.saldoMilesimos;
    }
    const proximo = planoDeDebito(saldos, d.valorMilesimos, (plano?.[0]?.shard ?? inicial) + 1);
    if (!proximo) return 'sem-saldo';
    plano = proximo;
  }
  throw new Error(`debit ${d.chave}: the shards kept changing for ${RODADAS_DEBITO} rounds`);
}

/**
 * One try of a plan. 'ocupado': cancelled only because another transaction held one of its items
 * (TransactionConflict); 'tentar-de-novo': a shard could not pay its part (or busy after retries).
 * A one-shard plan is not retried on a conflict here: the caller moves to another shard instead.
 */
async function debitarPlano(d: DebitoRecord, c: { ciclo: number; hoje: string; mes: string }, plano: readonly ParteDebito[]): Promise<ResultadoDebito | 'ocupado' | 'tentar-de-novo'> {
  const result = await transactWithRetry(
    () =>
      db()
        .transaction.write(({ debito: db_, saldo: sd, extrato: ex }) => [
          db_.create(comFim(d)).commit(),
          ...plano.map((p) =>
            sd
              .patch({ clienteId: d.clienteId, shard: p.shard })
              .subtract({ saldoMilesimos: p.milesimos })
              .where((a, op) => `${op.eq(a.ciclo, c.ciclo)} AND ${op.gte(a.prazoConsumo, c.hoje)} AND ${op.gte(a.saldoMilesimos, p.milesimos)}`)
              .commit(),
          ),
          ex
            .upsert({ clienteId: d.clienteId, mes: c.mes, servico: d.servico, shard: plano[0]!.shard, valorUnitario: d.valorMilesimos, expiresAt: expiraExtrato(c.mes) })
            .add({ requisicoes: 1, valorMilesimos: d.valorMilesimos })
            .commit(),
        ])
        .go(),
    plano.length === 1 ? 1 : 4,
  );
  if (!result.canceled) return 'debitado';
  if (result.data[0]?.code === 'ConditionalCheckFailed') return 'repetido';
  const codigos = result.data.map((x) => x.code ?? 'None');
  if (codigos.every((x) => x === 'None' || x === 'TransactionConflict')) return 'ocupado';
  // A shard that could not pay its part, or items still busy with other debits after the retries: read and plan again.
  if (codigos.every((x) => x === 'None' || x === 'ConditionalCheckFailed' || x === 'TransactionConflict')) return 'tentar-de-novo';
  throw new Error(`debit ${d.chave} cancelled: ${codigos.join(', ')}`);
}

/**
 * An account credited before the balance had shards: its balance moved from the item into the shards,
 * in one transaction conditioned on the item still holding that balance (so it happens once).
 */
async function repartirSaldoDaConta(clienteId: string, ciclo: number, prazoConsumo: string, saldoMilesimos: number, valores: ContaRecord['valores']): Promise<void> {
  await transactWithRetry(() =>
    db()
      .transaction.write(({ conta: ct, saldo: sd }) => [
        ct
          .patch({ clienteId })
          .set({ saldoMilesimos: 0 })
          .where((a, op) => `${op.eq(a.ciclo, ciclo)} AND ${op.eq(a.situacao, 'VIGENTE')} AND ${op.eq(a.saldoMilesimos, saldoMilesimos)}`)
          .commit(),
        ...shardsDoCredito(clienteId, ciclo, prazoConsumo, saldoMilesimos, valores).map((item) => sd.put(item).commit()),
      ])
      .go(),
  );
  // Cancelled: another use moved it first; the debit reads the shards either way.
}

/**
 * One page of a client's month of debits (the evidence archive): its DEBITO_SHARDS index partitions
 * merged by (instant, key), from `cursor` (platform/paginas.ts paginaIntercalada's position).
 */
export async function paginaDeDebitosDoMes(clienteId: string, mes: string, pagina: { cursor: string | null; limite: number }): Promise<{ data: DebitoRecord[]; cursor: string | null }> {
  const entidade = db().entities.debito;
  const conv = createConversions(entidade);
  const lote = Math.max(Math.ceil((pagina.limite * 5) / (4 * DEBITO_SHARDS)) + 1, 10);
  type Chave = [createdAt: string, chave: string];
  const p = await paginaIntercalada<DebitoRecord, Chave>(
    Array.from({ length: DEBITO_SHARDS }, (_, parte) => async (desde) => {
      const { data, cursor } = await entidade.query.byMes({ clienteId, mes, parte }).go({ cursor: desde ?? null, limit: lote });
      return { data, cursor };
    }),
    {
      perPage: pagina.limite,
      posicao: pagina.cursor ?? undefined,
      chave: (d) => [d.createdAt, d.chave],
      comparar: (a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0),
      apos: (parte, [createdAt, chave]) => conv.byAccessPattern.byMes.fromComposite.toCursor({ clienteId, mes, parte, createdAt, chave })!,
      validarChave: (k): k is Chave => Array.isArray(k) && k.length === 2 && typeof k[0] === 'string' && typeof k[1] === 'string',
    },
  );
  return { data: p.items, cursor: p.posicao ?? null };
}

/** Records a use the balance did not cover (EXCEDENTE); false when the use was already recorded. */
export async function registrarExcedente(d: DebitoRecord): Promise<boolean> {
  try {
    await db().entities.debito.create(comFim(d)).go({ response: 'none' });
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

/**
 * A month's statement: per service, its shards' lines added up (requests and thousandths): one Query
 * per shard's partition and one of the lines written before issue 36, in parallel.
 */
export async function extratoDoMes(clienteId: string, mes: string): Promise<{ servico: number; requisicoes: number; valorUnitario: number; valorMilesimos: number }[]> {
  const pages = await Promise.all([
    // Bounded: one shard of one month: a line per service.
    ...TODOS_OS_SHARDS.map((shard) => db().entities.extrato.query.byShard({ clienteId, mes, shard }).go({ pages: 'all' })),
    // Bounded: the month's lines in the old form (services × SALDO_SHARDS at most).
    db().entities.extratoAntigo.query.byClienteMes({ clienteId, mes }).go({ pages: 'all' }),
  ]);
  const porServico = new Map<number, { servico: number; requisicoes: number; valorUnitario: number; valorMilesimos: number }>();
  for (const l of pages.flatMap((p) => p.data)) {
    const soma = porServico.get(l.servico) ?? { servico: l.servico, requisicoes: 0, valorUnitario: l.valorUnitario, valorMilesimos: 0 };
    soma.requisicoes += l.requisicoes ?? 0;
    soma.valorMilesimos += l.valorMilesimos ?? 0;
    porServico.set(l.servico, soma);
  }
  return [...porServico.values()].sort((a, b) => a.servico - b.servico);
}

/**
 * What adds an old-form statement line to its new-form line: the UpdateItem of that addition, for the
 * migration (infra/migrations/chaves-particionadas.ts) to run in one transaction with the old line's
 * conditional delete. A line stored before the balance had shards goes to shard 0.
 */
export function somaNoExtrato(l: { clienteId: string; mes: string; servico: number; shard?: number | undefined; valorUnitario: number; requisicoes?: number | undefined; valorMilesimos?: number | undefined }) {
  return db()
    .entities.extrato.upsert({ clienteId: l.clienteId, mes: l.mes, servico: l.servico, shard: l.shard ?? 0, valorUnitario: l.valorUnitario, expiresAt: expiraExtrato(l.mes) })
    .add({ requisicoes: l.requisicoes ?? 0, valorMilesimos: l.valorMilesimos ?? 0 })
    .params();
}

export type ExtratoAntigoRecord = EntityItem<typeof extratoAntigo>;

/** The items of before issue 36, as stored then: for the migration's test, which writes some. */
export const formaAntiga = { saldo: () => db().entities.saldoAntigo, extrato: () => db().entities.extratoAntigo };
