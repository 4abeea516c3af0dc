import { createConversions, Entity, Service, type EntityItem } from 'electrodb';
import { paginaEmSequencia, type Pagina } from '../platform/paginas';
import { isConditionalFailure, tableConfig, transactWithRetry } from '../platform/table';

/**
 * Prepaid requests (docs/prepago.md, docs/data-model.md "Prepaid"). Four entities:
 * - conta: the bookkeeper's request account, one per client. It is also what makes a second
 *   reservation impossible while one is open or in force: a reservation writes it on a condition
 *   (absent, or the previous cycle ended), in one transaction with the reservation;
 * - reserva: each reservation (a cycle of the account) with its DAE, by client and cycle, and on
 *   gsi1 by creation (the admin's list of every bookkeeper's DAEs: one partition, newest first);
 * - debito: one item per metered use the account was asked to pay for (keyed by the metering's
 *   key), what makes a debit happen once: PREPAGO (paid by the balance) or EXCEDENTE (the balance did
 *   not cover it: billed on the monthly invoice);
 * - extrato: per client, month and service, the requests debited and their value in thousandths.
 */

const conta = new Entity({
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
    /** Thousandths of a real: what is left; only ever lowered by a conditional debit. */
    saldoMilesimos: { type: 'number', required: true },
    /** 'YYYY-MM-DD', set by the payment. */
    prazoConsumo: { type: 'string' },
    /** Unit values (thousandths) per service id, fixed by the reservation's price. */
    valores: { type: 'map', properties: { envioFate: { type: 'number' }, monitoramento: { type: 'number' }, registroCessao: { type: 'number' } }, required: true },
    updatedAt: { type: 'string', required: true },
  },
  indexes: { byCliente: { pk: { field: 'pk', composite: ['clienteId'] }, sk: { field: 'sk', composite: [] } } },
});

const reserva = new Entity({
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
});

const debito = new Entity({
  model: { entity: 'debitoPrepago', version: '1', service: 'prepago' },
  attributes: {
    chave: { type: 'string', required: true },
    clienteId: { type: 'string', required: true },
    servico: { type: 'number', required: true },
    resultado: { type: ['PREPAGO', 'EXCEDENTE'] as const, required: true },
    valorMilesimos: { type: 'number', required: true },
    createdAt: { type: 'string', required: true },
  },
  indexes: { byChave: { pk: { field: 'pk', composite: ['chave'] }, sk: { field: 'sk', composite: [] } } },
});

const extrato = new Entity({
  model: { entity: 'extratoPrepago', version: '1', service: 'prepago' },
  attributes: {
    clienteId: { type: 'string', required: true },
    mes: { type: 'string', required: true },
    servico: { type: 'number', required: true },
    requisicoes: { type: 'number', required: true, default: 0 },
    valorUnitario: { type: 'number', required: true },
    valorMilesimos: { type: 'number', required: true, default: 0 },
  },
  indexes: { byClienteMes: { pk: { field: 'pk', composite: ['clienteId'] }, sk: { field: 'sk', composite: ['mes', 'servico'] } } },
});

const entities = { conta, reserva, debito, extrato };
let service: Service<typeof entities> | undefined;
const db = () => (service ??= new Service(entities, tableConfig()));

export type ContaRecord = EntityItem<typeof conta>;
export type ReservaRecord = EntityItem<typeof reserva>;
export type DebitoRecord = EntityItem<typeof debito>;

export async function lerConta(clienteId: string): Promise<ContaRecord | null> {
  const { data } = await db().entities.conta.get({ clienteId }).go({ consistent: true });
  return data;
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
 */
export async function abrirCiclo(novaConta: ContaRecord, novaReserva: ReservaRecord, anterior: ContaRecord | null, hoje: string, saldoMinimo: number): Promise<boolean> {
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
 * balance set to the contracted value, the deadline set), in one transaction conditioned on both being
 * still unpaid and on the same cycle. false when already paid.
 */
export async function creditar(r: ReservaRecord, p: { pagoEm: string; codigoBarras: string; prazoConsumo: string; agora: string }): Promise<boolean> {
  const result = await transactWithRetry(() =>
    db()
      .transaction.write(({ conta: c, reserva: rv }) => [
        rv
          .patch({ clienteId: r.clienteId, ciclo: r.ciclo })
          .set({ situacao: 'P', pagoEm: p.pagoEm, codigoBarrasPago: p.codigoBarras })
          .where((a, op) => op.eq(a.situacao, 'A'))
          .commit(),
        c
          .patch({ clienteId: r.clienteId })
          .set({ situacao: 'VIGENTE', saldoMilesimos: r.valor * 10, prazoConsumo: p.prazoConsumo, updatedAt: p.agora })
          .where((a, op) => `${op.eq(a.ciclo, r.ciclo)} AND ${op.eq(a.situacao, 'AGUARDANDO_PAGAMENTO')}`)
          .commit(),
      ])
      .go(),
  );
  if (!result.canceled) return true;
  if (result.data.some((d) => d.code === 'ConditionalCheckFailed')) return false;
  throw new Error(`credit cancelled: ${result.data.map((d) => d.code ?? 'None').join(', ')}`);
}

export async function reservasDoCliente(clienteId: string): Promise<ReservaRecord[]> {
  const { data } = await db().entities.reserva.query.byCliente({ clienteId }).go({ pages: 'all', order: 'desc' });
  return data;
}

/** Every reservation created between two instants (the admin's list: one partition of gsi1, newest first). */
export async function reservasEntre(de: string, ate: string): Promise<ReservaRecord[]> {
  const { data } = await db().entities.reserva.query.todas({ lista: 'reservas' }).between({ createdAt: de }, { createdAt: ate }).go({ pages: 'all', order: 'desc' });
  return data;
}

interface PaginaDeReservas {
  perPage: number;
  posicao?: string | undefined;
  aceita?: ((r: ReservaRecord) => boolean) | undefined;
}

/** A page of a bookkeeper's reservations (and their DAEs), newest cycle first: one Query of its partition. */
export async function paginaDeReservasDoCliente(clienteId: string, o: PaginaDeReservas): Promise<Pagina<ReservaRecord>> {
  const entity = db().entities.reserva;
  return paginaEmSequencia<ReservaRecord>(
    [
      async (desde, limite) => {
        const { data, cursor } = await entity.query.byCliente({ clienteId }).go({ order: 'desc', limit: limite, cursor: desde ?? null });
        return { data, cursor };
      },
    ],
    (_, r) => createConversions(entity).byAccessPattern.byCliente.fromComposite.toCursor(r)!,
    o,
  );
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

/**
 * One use paid by the balance, in one transaction: the debit item created (refused when this use was
 * already recorded), the balance lowered on the condition that it covers the unit value and the cycle
 * is in force and not past its deadline, and the month's statement line added to. 'repetido' when the
 * use was already recorded (whatever its outcome: the caller reads it), 'sem-saldo' when the balance
 * condition failed (nothing written).
 */
export async function debitar(d: DebitoRecord, c: { ciclo: number; hoje: string; mes: string }): Promise<ResultadoDebito> {
  const result = await transactWithRetry(
    () =>
      db()
        .transaction.write(({ debito: db_, conta: ct, extrato: ex }) => [
          db_.create(d).commit(),
          ct
            .patch({ clienteId: d.clienteId })
            .subtract({ saldoMilesimos: d.valorMilesimos })
            .where((a, op) => `${op.eq(a.ciclo, c.ciclo)} AND ${op.eq(a.situacao, 'VIGENTE')} AND ${op.gte(a.prazoConsumo, c.hoje)} AND ${op.gte(a.saldoMilesimos, d.valorMilesimos)}`)
            .commit(),
          ex
            .upsert({ clienteId: d.clienteId, mes: c.mes, servico: d.servico, valorUnitario: d.valorMilesimos })
            .add({ requisicoes: 1, valorMilesimos: d.valorMilesimos })
            .commit(),
        ])
        .go(),
    8,
  );
  if (!result.canceled) return 'debitado';
  if (result.data[0]?.code === 'ConditionalCheckFailed') return 'repetido';
  if (result.data[1]?.code === 'ConditionalCheckFailed') return 'sem-saldo';
  throw new Error(`debit ${d.chave} cancelled: ${result.data.map((x) => x.code ?? 'None').join(', ')}`);
}

/** Records a use the balance did not cover (EXCEDENTE); false when the use was already recorded. */
export async function registrarExcedente(d: DebitoRecord): Promise<boolean> {
  try {
    await db().entities.debito.create(d).go({ response: 'none' });
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}

export async function extratoDoMes(clienteId: string, mes: string) {
  const { data } = await db().entities.extrato.query.byClienteMes({ clienteId, mes }).go({ pages: 'all' });
  return data;
}
