import { createConversions, Entity, type EntityItem } from 'electrodb';
import { vencimentoPadraoDae } from '@plac/shared/domain';
import { paginaEmSequencia, type Pagina } from '../platform/paginas';
import { isConditionalFailure, transactWithRetry } from '../platform/table';
import { partesDaFatura } from '../grupos-rateio';
import { linhaPagamento, linhasDaFatura, totalPagamentos, variacao, type Linha, type LinhaPagamentoRecord } from './linhas-pagamento';
import { saldoDaFatura, type Recebimento } from './recebimentos';
import { entidadeSobDemanda, servicoSobDemanda } from '../platform/entidade-sob-demanda';

/**
 * Monthly billing (docs/faturamento.md, docs/data-model.md "Billing"). Four entities:
 * - fatura: one client's invoice of one month. Its key is made of the client and the month
 *   (`faturaId` = `<YYYYMM>-<clienteId>`), and it is only ever created on the condition that it does
 *   not exist: that condition is what makes the billing run idempotent (a re-run, a retried shard or
 *   two runs at once never write a second invoice nor change an issued one);
 * - execucao: one billing run of a month (who or what started it, its clients and shards, its end);
 * - progresso: one shard of a run, written with SET only (never ADD), so a retried shard rewrites
 *   its own figures instead of counting twice; the run's progress is the sum of its shards;
 * - reprecificacao: the audit of a deliberate re-price of an open invoice (who, when, why, before, after).
 */

/** What every payment the bank reported for a DAE carries (the full payment, a short one, a receipt of the ledger). */
const doPagamento = {
  codigoBarras: { type: 'string', required: true },
  dataPagamento: { type: 'string', required: true },
  dataRetornoBanco: { type: 'string', required: true },
  importacaoId: { type: 'string', required: true },
} as const;

/** Kept: an invoice is the evidence of what was charged and must stay at least five years, the period in which a charge can be questioned (CTN art. 173/174); the evidence archive (issue 41) copies its lines beside the month's log, but the invoice itself is a few items per client and month, and its payments and DAEs go on being read. */
const fatura = entidadeSobDemanda(() => new Entity({
  model: { entity: 'fatura', version: '1', service: 'faturamento' },
  attributes: {
    faturaId: { type: 'string', required: true },
    clienteId: { type: 'string', required: true },
    /** The client's CNPJ and name when the invoice was issued. */
    cnpj: { type: 'string', required: true },
    razaoSocial: { type: 'string', required: true },
    /** 'YYYY-MM', the business month billed. */
    mes: { type: 'string', required: true },
    /** A (Em Aberto) or P (Pago). */
    situacao: { type: ['A', 'P'] as const, required: true },
    itens: {
      type: 'list',
      required: true,
      items: {
        type: 'map',
        properties: {
          servico: { type: 'number', required: true },
          /** The service's description when the invoice was issued. */
          descricao: { type: 'string', required: true },
          uf: { type: 'string', required: true },
          requisicoes: { type: 'number', required: true },
          /** Thousandths of a real. */
          valorUnitario: { type: 'number', required: true },
          /** Centavos. */
          valor: { type: 'number', required: true },
          faixaId: { type: 'string' },
          promocional: { type: 'boolean', required: true },
        },
      },
    },
    valorServicos: { type: 'number', required: true },
    valorAssinatura: { type: 'number', required: true },
    valorTotal: { type: 'number', required: true },
    /** The minimum subscription of the tariff version in force in the month. */
    assinaturaMinima: { type: 'number', required: true },
    execucaoId: { type: 'string', required: true },
    emitidaEm: { type: 'string', required: true },
    /** 1 when issued; +1 on each audited re-price. */
    revisao: { type: 'number', required: true },
    atualizadaEm: { type: 'string' },
    atualizadaPor: { type: 'string' },
    /**
     * The tax note's files (docs/faturamento.md, "Tax notes and the detail ZIP"): the documents
     * bucket's key of each and the name the administrator's file had (sanitised), set together by
     * gravarNotaFiscal; the revision above is the prices' and does not move with them.
     */
    pdfKey: { type: 'string' },
    nomePdfFile: { type: 'string' },
    xmlKey: { type: 'string' },
    nomeXmlFile: { type: 'string' },
    notaAtualizadaEm: { type: 'string' },
    notaAtualizadaPor: { type: 'string' },
    /**
     * The payment, set with situacao P by the bank-return import (functions/faturamento/retorno): the
     * DAE's barcode the bank read, the day paid, the return file's date, centavos paid and the
     * late-payment surcharge among them, and the import that recorded it.
     */
    pagamento: {
      type: 'map',
      properties: {
        ...doPagamento,
        valorPago: { type: 'number', required: true },
        valorAcrescimo: { type: 'number', required: true },
      },
    },
    /**
     * Before the ledger below (read only, recebimentos.ts reads them as receipts): each bank line that
     * paid this invoice's DAE less than was due, with `<importacaoId>:<linha>` in the set below.
     */
    pagamentosParciais: {
      type: 'list',
      items: {
        type: 'map',
        properties: {
          ...doPagamento,
          /** Centavos received. */
          valorPago: { type: 'number', required: true },
          /** Centavos that were due on that day (the DAE's value plus the surcharge). */
          valorDevido: { type: 'number', required: true },
          linha: { type: 'number', required: true },
        },
      },
    },
    pagamentosParciaisChaves: { type: 'set', items: 'string' },
    /**
     * The ledger of payments received (recebimentos.ts, issue 37): every payment the bank reported for a
     * DAE of this invoice, how it was applied (surcharge, balance, overpayment) and where it came from.
     * Rewritten whole by registrarRecebimento on the condition that `versaoRecebimentos` did not move
     * and that the payment's key (`recebimentosChaves`) is absent: a payment is recorded once whatever
     * file repeats it, and two payments of one invoice at once never overwrite each other.
     */
    recebimentos: {
      type: 'list',
      items: {
        type: 'map',
        properties: {
          ...doPagamento,
          banco: { type: 'string', required: true },
          nomeBanco: { type: 'string', required: true },
          nomeArquivo: { type: 'string', required: true },
          linha: { type: 'number', required: true },
          autenticacao: { type: 'string', required: true },
          saldoAnterior: { type: 'number', required: true },
          acrescimoDevido: { type: 'number', required: true },
          valorPago: { type: 'number', required: true },
          valorAcrescimo: { type: 'number', required: true },
          valorAmortizado: { type: 'number', required: true },
          valorExcedente: { type: 'number', required: true },
        },
      },
    },
    recebimentosChaves: { type: 'set', items: 'string' },
    /** How many times the ledger was written (absent: never). */
    versaoRecebimentos: { type: 'number' },
    /**
     * The revenue-sharing status of a paid invoice (functions/rateio, docs/repasse.md): EM_PROCESSAMENTO
     * while a repasse run works on it, PREVIA_ANALISADA after a simulation, DISTRIBUIDO after the
     * month's definitive repasse, FALHA when that run failed. Absent: never shared yet.
     */
    situacaoRepasse: { type: ['EM_PROCESSAMENTO', 'PREVIA_ANALISADA', 'DISTRIBUIDO', 'FALHA'] as const },
    /** The invoice's latest DAE (functions/faturamento/dae-fatura.ts): its due date is the next DAE's default. */
    dae: {
      type: 'map',
      properties: { dtVencimento: { type: 'string', required: true }, codigoBarras: { type: 'string', required: true }, revisao: { type: 'number', required: true } },
    },
    /**
     * What this invoice adds to the open-invoice counters (`faturasAbertas`), as last counted:
     * `<due date>|<centavos owed>`; absent while it adds nothing (paid, or not yet counted).
     * `recontarFatura` moves it and the counters together.
     */
    contagemAberta: { type: 'string' },
    /**
     * The month's evidence in the archive (functions/arquivo, issue 41), set when the archive job found
     * every file's rows equal to what the table held: the manifest's key, when, and each table's rows
     * and parts (the evidence download reads the request log's parts from them).
     */
    arquivo: {
      type: 'map',
      properties: {
        manifesto: { type: 'string', required: true },
        arquivadoEm: { type: 'string', required: true },
        linhasRequisicoes: { type: 'number', required: true },
        partesRequisicoes: { type: 'number', required: true },
      },
    },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['faturaId'] }, sk: { field: 'sk', composite: [] } },
    // Every invoice of a month (the admin's list).
    byMes: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['mes'] }, sk: { field: 'gsi1sk', composite: ['clienteId'] } },
    // A client's invoices by month (the client's list).
    byCliente: { index: 'gsi2', pk: { field: 'gsi2pk', composite: ['clienteId'] }, sk: { field: 'gsi2sk', composite: ['mes'] } },
  },
}));

/** Kept: the audit of a billing run (who, when, what it did), a handful a month, as long as the invoices it issued. */
const execucao = entidadeSobDemanda(() => new Entity({
  model: { entity: 'execucao', version: '1', service: 'faturamento' },
  attributes: {
    execucaoId: { type: 'string', required: true },
    mes: { type: 'string', required: true },
    /** agendamento (EventBridge Scheduler) or admin (the portal). */
    origem: { type: ['agendamento', 'admin'] as const, required: true },
    iniciadaPor: { type: 'string', required: true },
    /** A scheduled run's Step Functions execution name (an admin's is its execucaoId): what a start judges a dead run by. */
    execucao: { type: 'string' },
    iniciadaEm: { type: 'string', required: true },
    situacao: { type: ['EM_ANDAMENTO', 'CONCLUIDA', 'FALHA'] as const, required: true },
    /** Known once ListShards has run. */
    totalClientes: { type: 'number' },
    shards: { type: 'number' },
    concluidaEm: { type: 'string' },
    erro: { type: 'string' },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['execucaoId'] }, sk: { field: 'sk', composite: [] } },
    // The runs of a month, newest last.
    byMes: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['mes'] }, sk: { field: 'gsi1sk', composite: ['iniciadaEm', 'execucaoId'] } },
  },
}));

/** Kept: one item per shard of a billing run, part of that run's audit, as long as the run. */
const progresso = entidadeSobDemanda(() => new Entity({
  model: { entity: 'progresso', version: '1', service: 'faturamento' },
  attributes: {
    execucaoId: { type: 'string', required: true },
    shard: { type: 'number', required: true },
    clientes: { type: 'number', required: true },
    feitos: { type: 'number', required: true },
    emitidas: { type: 'number', required: true },
    jaEmitidas: { type: 'number', required: true },
    semFatura: { type: 'number', required: true },
    emAvaliacao: { type: 'number', required: true },
    falhas: {
      type: 'list',
      required: true,
      items: { type: 'map', properties: { clienteId: { type: 'string', required: true }, erro: { type: 'string', required: true } } },
    },
    atualizadoEm: { type: 'string', required: true },
  },
  // A run's billing shards (a handful of items, each written once when its shard is billed): not a hot key.
  indexes: { byExecucao: { pk: { field: 'pk', composite: ['execucaoId'] }, sk: { field: 'sk', composite: ['shard'] } } },
}));

/** Kept: the audit of an invoice's re-price (who, when, why, before and after), as long as the invoice. */
const reprecificacao = entidadeSobDemanda(() => new Entity({
  model: { entity: 'reprecificacao', version: '1', service: 'faturamento' },
  attributes: {
    faturaId: { type: 'string', required: true },
    em: { type: 'string', required: true },
    por: { type: 'string', required: true },
    justificativa: { type: 'string', required: true },
    revisaoAnterior: { type: 'number', required: true },
    antes: { type: 'map', required: true, properties: { valorServicos: { type: 'number' }, valorAssinatura: { type: 'number' }, valorTotal: { type: 'number' } } },
    depois: { type: 'map', required: true, properties: { valorServicos: { type: 'number' }, valorAssinatura: { type: 'number' }, valorTotal: { type: 'number' } } },
  },
  indexes: { byFatura: { pk: { field: 'pk', composite: ['faturaId'] }, sk: { field: 'sk', composite: ['em'] } } },
}));

/**
 * The month's lock (issue 27 item 1): one item per month, held by the run that is going. Taken in the
 * same transaction as the run's record, on the condition that it is absent or past its expiry (the
 * state machine's timeout: a run that died without ending releases it that way); deleted by the run's
 * end (encerrarExecucao). Two starts of one month at once: exactly one wins the transaction.
 * Kept: one lock item per month, removed when its run ends and taken over when it expires.
 */
const trava = entidadeSobDemanda(() => new Entity({
  model: { entity: 'travaFaturamento', version: '1', service: 'faturamento' },
  attributes: {
    mes: { type: 'string', required: true },
    execucaoId: { type: 'string', required: true },
    /** Epoch milliseconds after which the lock no longer holds (the run is INTERROMPIDA by then). */
    expiraEm: { type: 'number', required: true },
  },
  indexes: { byMes: { pk: { field: 'pk', composite: ['mes'] }, sk: { field: 'sk', composite: [] } } },
}));

/**
 * The open invoices of a billed month by due date (the DAE's, else the 15th of the next month): how many
 * and the centavos they still owe, the overdue dashboard's figures (vencidas.ts) without reading an
 * invoice. Each invoice's share is its `contagemAberta`, and `recontarFatura` moves the two together
 * in one transaction after every write that changes what it owes or when (issue, payment, receipt,
 * DAE, re-price). A month has a handful of due dates, so a read is a few items per month. The billing
 * run puts its month's invoices on one item (the default due date): one transactional write of 2 units
 * per invoice, a few hundred over the run's minutes.
 * Kept: counters of the invoices, as long as the invoices (five years).
 */
const faturasAbertas = entidadeSobDemanda(() => new Entity({
  model: { entity: 'faturasAbertas', version: '1', service: 'faturamento' },
  attributes: {
    mes: { type: 'string', required: true },
    vencimento: { type: 'string', required: true },
    quantidade: { type: 'number', required: true, default: 0 },
    /** Centavos still owed. */
    saldo: { type: 'number', required: true, default: 0 },
  },
  indexes: { byMes: { pk: { field: 'pk', composite: ['mes'] }, sk: { field: 'sk', composite: ['vencimento'] } } },
}));

const entities = { fatura, execucao, progresso, reprecificacao, trava, faturasAbertas, linhaPagamento, totalPagamentos };
const db = servicoSobDemanda(entities);

export type FaturaRecord = EntityItem<typeof fatura>;
export type ExecucaoRecord = EntityItem<typeof execucao>;
export type ProgressoRecord = EntityItem<typeof progresso>;
export type ReprecificacaoRecord = EntityItem<typeof reprecificacao>;

/** Creates the invoice unless one exists for that client and month: 'jaEmitida' then, and nothing is written. */
export async function emitirFatura(record: FaturaRecord): Promise<'emitida' | 'jaEmitida'> {
  let resultado: 'emitida' | 'jaEmitida';
  try {
    await db().entities.fatura.create(record).go({ response: 'none' });
    resultado = 'emitida';
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
    resultado = 'jaEmitida';
  }
  // Also when it existed: a run retried after a crash between the create and the count counts it now.
  // One just created starts from the record written, with no rows yet (both writes are conditional on
  // what they assume, so a write in between only costs a read).
  await recontarFatura(record.faturaId, resultado === 'emitida' ? { lida: record, semLinhas: true } : {});
  return resultado;
}

export async function lerFatura(faturaId: string): Promise<FaturaRecord | null> {
  const { data } = await db().entities.fatura.get({ faturaId }).go({ consistent: true });
  return data;
}

/** Records where the invoice's month is archived (a patch: never creates an invoice; the latest archive wins). */
export async function registrarArquivo(faturaId: string, arquivo: NonNullable<FaturaRecord['arquivo']>): Promise<void> {
  await db().entities.fatura.patch({ faturaId }).set({ arquivo }).go({ response: 'none' });
}

/** Points the invoice at its latest DAE (a plain SET: the latest issued wins). */
export async function marcarDae(faturaId: string, dae: NonNullable<FaturaRecord['dae']>): Promise<void> {
  await db().entities.fatura.patch({ faturaId }).set({ dae }).go({ response: 'none' });
  // Its due date moves the invoice among the open-invoice counters.
  await recontarFatura(faturaId);
}

/**
 * `marcarDae` as the parameters of an update, for a transaction that creates the DAE with it (functions/dae/store.ts
 * `criarDae`); the caller then runs `recontarFatura` (the due date may have moved).
 */
export function marcacaoDoDae(faturaId: string, dae: NonNullable<FaturaRecord['dae']>): Record<string, unknown> {
  return db().entities.fatura.patch({ faturaId }).set({ dae }).params<Record<string, unknown>>();
}

/**
 * Records an invoice's payment: situacao A → P with the payment, on the condition that it is still
 * open at the revision the DAE was issued for. 'jaPaga' when it was already paid (by this payment, a
 * re-import, or another), and nothing is written; 'revisaoDiferente' when it was re-priced since.
 */
export async function registrarPagamento(
  faturaId: string,
  revisao: number,
  pagamento: NonNullable<FaturaRecord['pagamento']>,
): Promise<'paga' | 'jaPaga' | 'revisaoDiferente'> {
  try {
    await db()
      .entities.fatura.patch({ faturaId })
      .set({ situacao: 'P', pagamento })
      .where(({ situacao, revisao: r }, { eq }) => `${eq(situacao, 'A')} AND ${eq(r, revisao)}`)
      .go({ response: 'none' });
    await recontarFatura(faturaId);
    return 'paga';
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
    await recontarFatura(faturaId);
    const atual = await lerFatura(faturaId);
    return atual?.situacao === 'P' ? 'jaPaga' : 'revisaoDiferente';
  }
}

/**
 * Records one payment received in the invoice's ledger (recebimentos.ts): the whole ledger written
 * (`recebimentos`, the receipts before it first), the payment's key added, and — when it leaves nothing
 * owed — the invoice P with `pagamento` (the payment that closed it). Conditional on the ledger's
 * version read (`versao`, 0: never written), on the revision the DAE was issued for, and on the key's
 * absence. 'gravado'; 'jaRegistrado' when the key is there (nothing written); 'revisaoDiferente' when the
 * invoice was re-priced since the DAE; 'conflito' when another payment was recorded meanwhile (read
 * again and retry).
 */
export async function registrarRecebimento(
  faturaId: string,
  lido: { revisao: number; versao: number },
  escrita: { recebimentos: Recebimento[]; chave: string; quitada: NonNullable<FaturaRecord['pagamento']> | null },
): Promise<'gravado' | 'jaRegistrado' | 'revisaoDiferente' | 'conflito'> {
  try {
    await db()
      .entities.fatura.patch({ faturaId })
      .set({ recebimentos: escrita.recebimentos, versaoRecebimentos: lido.versao + 1, ...(escrita.quitada ? { situacao: 'P' as const, pagamento: escrita.quitada } : {}) })
      .add({ recebimentosChaves: [escrita.chave] })
      .where(({ revisao, versaoRecebimentos, recebimentosChaves }, { eq, notExists, notContains }) =>
        [eq(revisao, lido.revisao), lido.versao === 0 ? notExists(versaoRecebimentos) : eq(versaoRecebimentos, lido.versao), notContains(recebimentosChaves, escrita.chave)].join(' AND '),
      )
      .go({ response: 'none' });
    await recontarFatura(faturaId);
    return 'gravado';
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
    const atual = await lerFatura(faturaId);
    if (atual?.recebimentosChaves?.includes(escrita.chave)) {
      // Recorded by an attempt that may have stopped before its count.
      await recontarFatura(faturaId);
      return 'jaRegistrado';
    }
    if (atual && atual.revisao !== lido.revisao) return 'revisaoDiferente';
    return 'conflito';
  }
}

export type SituacaoRepasse = NonNullable<FaturaRecord['situacaoRepasse']>;

/**
 * Sets the revenue-sharing status of paid invoices. A DISTRIBUIDO invoice never changes again (the
 * condition), so a simulation run after the definitive one cannot touch it.
 */
export async function marcarRepasse(faturaIds: readonly string[], situacao: SituacaoRepasse): Promise<void> {
  for (let i = 0; i < faturaIds.length; i += 25) {
    await Promise.all(
      faturaIds.slice(i, i + 25).map(async (faturaId) => {
        try {
          await db()
            .entities.fatura.patch({ faturaId })
            .set({ situacaoRepasse: situacao })
            .where(({ situacao: s, situacaoRepasse }, { eq, ne, notExists }) => `${eq(s, 'P')} AND (${notExists(situacaoRepasse)} OR ${ne(situacaoRepasse, 'DISTRIBUIDO')})`)
            .go({ response: 'none' });
        } catch (error) {
          if (!isConditionalFailure(error)) throw error;
        }
        // The status shows on its payment rows, and a distributed row counts in the month as distributed.
        await sincronizarLinhas(faturaId);
      }),
    );
  }
}

// ---- the open-invoice counters --------------------------------------------------------------------

/** What an invoice adds to the open-invoice counters: open, its due date and what it still owes; paid, nothing. */
export function contagemDe(f: FaturaRecord): string | null {
  if (f.situacao !== 'A') return null;
  return `${vencimentoPadraoDae(f.mes, f.dae?.dtVencimento)}|${saldoDaFatura(f).saldoDevedor}`;
}

export function lerContagem(c: string | null | undefined): { vencimento: string; saldo: number } | null {
  if (!c) return null;
  const [vencimento, saldo] = c.split('|');
  return { vencimento: vencimento!, saldo: Number(saldo) };
}

/** The counters' changes from one share to another, one per due date (a transaction writes an item once). */
function variacoes(antes: string | null, depois: string | null) {
  const porVencimento = new Map<string, { quantidade: number; saldo: number }>();
  const somar = (c: string | null, sinal: 1 | -1) => {
    const x = lerContagem(c);
    if (!x) return;
    const v = porVencimento.get(x.vencimento) ?? { quantidade: 0, saldo: 0 };
    porVencimento.set(x.vencimento, { quantidade: v.quantidade + sinal, saldo: v.saldo + sinal * x.saldo });
  };
  somar(antes, -1);
  somar(depois, 1);
  return [...porVencimento].filter(([, v]) => v.quantidade !== 0 || v.saldo !== 0);
}

/**
 * Brings the invoice's share of the open-invoice counters up to date: reads it, and when what it adds
 * now (`contagemDe`) is not what it added (`contagemAberta`), writes the new share and the counters'
 * change in one transaction, on the condition that the share and everything it is made of (status,
 * revision, ledger version, DAE due date) are as read. A write in between fails it and it reads again,
 * so the counters always hold exactly the sum of the shares. Every write of an invoice that changes
 * what it owes or when runs it after itself; one that stopped before it is counted by its next write
 * or by infra/migrations/faturas-abertas.ts (which recounts a period's open invoices).
 */
export async function recontarFatura(faturaId: string, inicio: { lida?: FaturaRecord; semLinhas?: boolean } = {}): Promise<void> {
  const lida = await recontarAbertas(faturaId, inicio.lida);
  // What changes what an invoice owes changes its Pagamento de Serviços rows too. They start from the
  // invoice as the count read it (its rows' conditions do not look at the count's own attribute).
  if (lida) await sincronizarLinhas(faturaId, lida, inicio.semLinhas);
}

/** Answers the invoice as last read (null when there is none); the first try may start from the caller's read. */
async function recontarAbertas(faturaId: string, lida?: FaturaRecord): Promise<FaturaRecord | null> {
  for (let tentativa = 1; tentativa <= 8; tentativa++) {
    const f = tentativa === 1 && lida ? lida : await lerFatura(faturaId);
    if (!f) return null;
    const antes = f.contagemAberta ?? null;
    const depois = contagemDe(f);
    if (antes === depois) return f;
    const result = await transactWithRetry(() =>
      db()
        .transaction.write(({ fatura: x, faturasAbertas: a }) => [
          (depois === null ? x.patch({ faturaId }).remove(['contagemAberta']) : x.patch({ faturaId }).set({ contagemAberta: depois }))
            .where((attr, op) =>
              [
                antes === null ? op.notExists(attr.contagemAberta) : op.eq(attr.contagemAberta, antes),
                op.eq(attr.situacao, f.situacao),
                op.eq(attr.revisao, f.revisao),
                f.versaoRecebimentos === undefined ? op.notExists(attr.versaoRecebimentos) : op.eq(attr.versaoRecebimentos, f.versaoRecebimentos),
                f.dae === undefined ? op.notExists(attr.dae) : op.eq(attr.dae.codigoBarras, f.dae.codigoBarras),
              ].join(' AND '),
            )
            .commit(),
          ...variacoes(antes, depois).map(([vencimento, v]) => a.upsert({ mes: f.mes, vencimento }).add({ quantidade: v.quantidade, saldo: v.saldo }).commit()),
        ])
        .go(),
    );
    if (!result.canceled) return f;
  }
  throw new Error(`the open-invoice count of ${faturaId} did not settle: too many writes of it at once`);
}

// ---- Pagamento de Serviços: the rows per UF and their counters (linhas-pagamento.ts) ---------------

/**
 * Brings the invoice's payment rows and their month's counters up to date: reads the invoice and its
 * rows, and writes each row that changed (or removes one whose UF the invoice no longer has) with the
 * counters' change in one transaction, on the condition that the row is as read and the invoice still
 * in the state the rows were made from (status, revision, ledger version, repasse status). A write in
 * between fails it and it reads again, so the counters always hold exactly the sum of the rows. One
 * that stopped before it is caught up by the invoice's next write or by infra/migrations/linhas-pagamento.ts.
 */
export async function sincronizarLinhas(faturaId: string, lida?: FaturaRecord, semLinhas = false): Promise<void> {
  for (let tentativa = 1; tentativa <= 8; tentativa++) {
    // The first try may start from the caller's read; a lost write reads again.
    const f = tentativa === 1 && lida ? lida : await lerFatura(faturaId);
    if (!f) return;
    const partes = f.situacao === 'P' ? await partesDaFatura(f) : null;
    const novas = new Map(linhasDaFatura(f, partes).map((l) => [l.uf, l]));
    // An invoice just created has none (a row written since fails its put's condition, and the retry reads them).
    const atuais = tentativa === 1 && semLinhas ? [] : await linhasDaFaturaGravadas(faturaId);
    const porUf = new Map(atuais.map((l) => [l.uf, l]));
    const mudadas = [...new Set([...novas.keys(), ...porUf.keys()])].filter((uf) => novas.get(uf)?.conteudo !== porUf.get(uf)?.conteudo);
    if (mudadas.length === 0) return;
    let perdeu = false;
    for (const grupo of emTransacoes(mudadas.map((uf) => mudancaDeLinha(porUf.get(uf) ?? null, novas.get(uf) ?? null)))) {
      if (!(await gravarLinhas(f, grupo))) perdeu = true;
    }
    if (!perdeu) return;
  }
  throw new Error(`the payment rows of ${faturaId} did not settle: too many writes of it at once`);
}

async function linhasDaFaturaGravadas(faturaId: string): Promise<LinhaPagamentoRecord[]> {
  // Bounded: one invoice's rows, one per origin UF (at most 28).
  const { data } = await db().entities.linhaPagamento.query.byFatura({ faturaId }).go({ pages: 'all', consistent: true });
  return data;
}

const semConteudo = (l: LinhaPagamentoRecord | null): Linha | null => {
  if (!l) return null;
  const { conteudo: _conteudo, ...linha } = l;
  return linha;
};

/** A row's change and the counters' change it makes (linhas-pagamento.ts `variacao`), computed once. */
type MudancaDeLinha = { antes: LinhaPagamentoRecord | null; depois: LinhaPagamentoRecord | null; contadores: [string, number][] };
const mudancaDeLinha = (antes: LinhaPagamentoRecord | null, depois: LinhaPagamentoRecord | null): MudancaDeLinha => ({
  antes,
  depois,
  contadores: variacao(semConteudo(antes), semConteudo(depois)),
});

/** DynamoDB's limit of items in one transaction. */
const ITENS_POR_TRANSACAO = 100;
const itensDaMudanca = (m: MudancaDeLinha) => 1 + m.contadores.length;

/**
 * The changed rows in as few transactions as fit (each also checks the invoice: one item more): usually
 * one, as an invoice has a few UFs; a transaction writes an item once, and each row's counters are its
 * own UF's, so no two rows of a group touch the same counter.
 */
function emTransacoes(mudancas: MudancaDeLinha[]): MudancaDeLinha[][] {
  const grupos: MudancaDeLinha[][] = [];
  let itens = ITENS_POR_TRANSACAO;
  for (const m of mudancas) {
    const n = itensDaMudanca(m);
    if (itens + n > ITENS_POR_TRANSACAO) {
      grupos.push([]);
      itens = 1;
    }
    grupos.at(-1)!.push(m);
    itens += n;
  }
  return grupos;
}

/** Some rows' writes (or removals) and the counters' change, conditional on each row and the invoice as read: false when it lost. */
async function gravarLinhas(f: FaturaRecord, mudancas: MudancaDeLinha[]): Promise<boolean> {
  const result = await transactWithRetry(() =>
    db()
      .transaction.write(({ fatura: x, linhaPagamento: l, totalPagamentos: t }) => [
        x
          .check({ faturaId: f.faturaId })
          .where((attr, op) =>
            [
              op.eq(attr.situacao, f.situacao),
              op.eq(attr.revisao, f.revisao),
              f.versaoRecebimentos === undefined ? op.notExists(attr.versaoRecebimentos) : op.eq(attr.versaoRecebimentos, f.versaoRecebimentos),
              f.situacaoRepasse === undefined ? op.notExists(attr.situacaoRepasse) : op.eq(attr.situacaoRepasse, f.situacaoRepasse),
            ].join(' AND '),
          )
          .commit(),
        ...mudancas.flatMap(({ antes, depois, contadores }) => [
          (depois ? l.put(depois) : l.delete({ faturaId: f.faturaId, uf: antes!.uf }))
            .where((attr, op) => (antes ? op.eq(attr.conteudo, antes.conteudo) : op.notExists(attr.conteudo)))
            .commit(),
          ...contadores.map(([k, v]) => t.upsert({ mes: f.mes, chave: k }).add({ valor: v }).commit()),
        ]),
      ])
      .go(),
  );
  return !result.canceled;
}

export type { Linha as LinhaPagamento };

/**
 * A page of the payment rows of some months (newest first), each month's by UF then client name: one
 * key-range Query of the month's partition (gsi1; a UF chosen is a prefix of its key) after another.
 */
export async function paginaDeLinhasPagamento(meses: readonly string[], uf: string | null, o: { perPage: number; posicao?: string | undefined; aceita?: ((l: Linha) => boolean) | undefined }) {
  const entity = db().entities.linhaPagamento;
  const pagina = await paginaEmSequencia<LinhaPagamentoRecord>(
    meses.map((mes) => async (desde, limite) => {
      const q = uf === null ? entity.query.byMes({ mes }) : entity.query.byMes({ mes, uf });
      const { data, cursor } = await q.go({ limit: limite, cursor: desde ?? null });
      return { data, cursor };
    }),
    (_, l) => createConversions(entity).byAccessPattern.byMes.fromComposite.toCursor(l)!,
    { perPage: o.perPage, posicao: o.posicao, aceita: o.aceita },
  );
  return { items: pagina.items.map((l) => semConteudo(l)!), posicao: pagina.posicao };
}

/** One client's payment rows of a period (a handful of UFs a month: bounded by the period). */
export async function linhasPagamentoDoCliente(clienteId: string, de: string, ate: string): Promise<Linha[]> {
  // Bounded: one invoice of this client a month, one row per origin UF (at most 28).
  const { data } = await db().entities.linhaPagamento.query.byCliente({ clienteId }).between({ mes: de }, { mes: `${ate}~` }).go({ pages: 'all' });
  return data.map((l) => semConteudo(l)!);
}

/** The counters of a month (linhas-pagamento.ts: totals per UF and status, shares per UF and beneficiary). */
export async function totaisPagamentosDoMes(mes: string): Promise<{ chave: string; valor: number }[]> {
  // Bounded: one month's counters, UFs × (2 statuses + 2 × the group's beneficiaries), not its invoices.
  const { data } = await db().entities.totalPagamentos.query.byMes({ mes }).go({ pages: 'all' });
  return data.map((t) => ({ chave: t.chave, valor: t.valor }));
}

/**
 * The open invoices of some months due before a day, by due date, from the counters: one key-range
 * Query per month (its due dates before the day), a handful of items each.
 */
export async function abertasVencidasAntesDe(meses: readonly string[], dia: string): Promise<{ mes: string; vencimento: string; quantidade: number; saldo: number }[]> {
  const porMes = await Promise.all(
    // Bounded: one month's due dates (the default and the DAEs' few), not its invoices.
    meses.map((mes) => db().entities.faturasAbertas.query.byMes({ mes }).lt({ vencimento: dia }).go({ pages: 'all' })),
  );
  return porMes.flatMap((p) => p.data.map((c) => ({ mes: c.mes, vencimento: c.vencimento, quantidade: c.quantidade, saldo: c.saldo })));
}

/** Writes an invoice as invoices were written before the open-invoice counters (no share): the migration's test only. */
export async function gravarFaturaSemContagem(record: FaturaRecord): Promise<void> {
  await db().entities.fatura.create(record).go({ response: 'none' });
}

export async function faturasDoMes(mes: string): Promise<FaturaRecord[]> {
  // Bounded: one invoice per active client and month (the platform's clients, about 100 planned).
  const { data } = await db().entities.fatura.query.byMes({ mes }).go({ pages: 'all' });
  return data;
}

export async function faturasDoCliente(clienteId: string, de: string, ate: string): Promise<FaturaRecord[]> {
  // Bounded: one invoice of this client per month of the period asked.
  const { data } = await db().entities.fatura.query.byCliente({ clienteId }).between({ mes: de }, { mes: ate }).go({ pages: 'all' });
  return data;
}

interface PaginaDeFaturas {
  perPage: number;
  posicao?: string | undefined;
  aceita?: ((f: FaturaRecord) => boolean) | undefined;
}

/** A page of one client's invoices of a month range, newest month first: one key-range Query on gsi2. */
export async function paginaDeFaturasDoCliente(clienteId: string, de: string, ate: string, o: PaginaDeFaturas): Promise<Pagina<FaturaRecord>> {
  const entity = db().entities.fatura;
  return paginaEmSequencia<FaturaRecord>(
    [
      async (desde, limite) => {
        const { data, cursor } = await entity.query.byCliente({ clienteId }).between({ mes: de }, { mes: ate }).go({ order: 'desc', limit: limite, cursor: desde ?? null });
        return { data, cursor };
      },
    ],
    (_, f) => createConversions(entity).byAccessPattern.byCliente.fromComposite.toCursor(f)!,
    o,
  );
}

/** A page of every client's invoices of the months (newest first), one after another: a Query of each month's partition (gsi1, by client). */
export async function paginaDeFaturasDosMeses(meses: readonly string[], o: PaginaDeFaturas): Promise<Pagina<FaturaRecord>> {
  const entity = db().entities.fatura;
  return paginaEmSequencia<FaturaRecord>(
    meses.map((mes) => async (desde, limite) => {
      const { data, cursor } = await entity.query.byMes({ mes }).go({ limit: limite, cursor: desde ?? null });
      return { data, cursor };
    }),
    (_, f) => createConversions(entity).byAccessPattern.byMes.fromComposite.toCursor(f)!,
    o,
  );
}

/**
 * Records a run that is starting, with the month's lock, in one transaction: false (nothing written)
 * when another run of the month holds the lock. `expiraEm`: when the lock stops holding if the run
 * never ends (the state machine's timeout after the start).
 */
export async function criarExecucao(record: ExecucaoRecord, expiraEm: number, agora: number = Date.now()): Promise<boolean> {
  const result = await transactWithRetry(() =>
    db()
      .transaction.write(({ execucao: e, trava: t }) => [
        t
          .put({ mes: record.mes, execucaoId: record.execucaoId, expiraEm })
          .where((attr, op) => `${op.notExists(attr.execucaoId)} OR ${op.lt(attr.expiraEm, agora)}`)
          .commit(),
        e.create(record).commit(),
      ])
      .go(),
  );
  return !result.canceled;
}

/** The month's lock, if any (tests and diagnostics). */
export async function lerTrava(mes: string) {
  const { data } = await db().entities.trava.get({ mes }).go({ consistent: true });
  return data;
}

/** Releases the month's lock if this run still holds it (a later run's lock is left alone). */
async function liberarTrava(mes: string, execucaoId: string): Promise<void> {
  try {
    await db()
      .entities.trava.delete({ mes })
      .where((attr, op) => op.eq(attr.execucaoId, execucaoId))
      .go({ response: 'none' });
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
  }
}

export async function lerExecucao(execucaoId: string): Promise<ExecucaoRecord | null> {
  const { data } = await db().entities.execucao.get({ execucaoId }).go({ consistent: true });
  return data;
}

export async function execucoesDoMes(mes: string): Promise<ExecucaoRecord[]> {
  // Bounded: one execution per start of the month's billing run by an administrator (a handful).
  const { data } = await db().entities.execucao.query.byMes({ mes }).go({ pages: 'all' });
  return data;
}

export async function atualizarExecucao(
  execucaoId: string,
  changes: Partial<Pick<ExecucaoRecord, 'totalClientes' | 'shards' | 'situacao' | 'concluidaEm' | 'erro'>>,
): Promise<void> {
  await db().entities.execucao.patch({ execucaoId }).set(changes).go({ response: 'none' });
}

/**
 * Ends a run that is still running (a later end never overwrites an earlier one), and releases the
 * month's lock if the run holds it (also when the run had already ended: a release that crashed is
 * done again; a lock never released expires with the state machine's timeout).
 */
export async function encerrarExecucao(execucaoId: string, changes: Pick<ExecucaoRecord, 'situacao' | 'concluidaEm'> & { erro?: string }): Promise<boolean> {
  let encerrada: boolean;
  let mes: string | undefined;
  try {
    const { data } = await db()
      .entities.execucao.patch({ execucaoId })
      .set(changes)
      .where((attr, op) => op.eq(attr.situacao, 'EM_ANDAMENTO'))
      .go({ response: 'all_new' });
    encerrada = true;
    mes = data.mes;
  } catch (error) {
    if (!isConditionalFailure(error)) throw error;
    encerrada = false;
    mes = (await lerExecucao(execucaoId))?.mes;
  }
  if (mes) await liberarTrava(mes, execucaoId);
  return encerrada;
}

export async function gravarProgresso(record: ProgressoRecord): Promise<void> {
  await db().entities.progresso.put(record).go({ response: 'none' });
}

export async function progressoDaExecucao(execucaoId: string): Promise<ProgressoRecord[]> {
  // Bounded: one progress item per shard of the run (one per 100 clients, MAX_SHARDS at most).
  const { data } = await db().entities.progresso.query.byExecucao({ execucaoId }).go({ pages: 'all' });
  return data;
}

/**
 * A deliberate re-price: the invoice rewritten on the condition that it is still open and at the
 * revision read, together with its audit item, in one transaction. false when it changed meanwhile.
 */
export async function reprecificar(
  antes: FaturaRecord,
  depois: Pick<FaturaRecord, 'itens' | 'valorServicos' | 'valorAssinatura' | 'valorTotal' | 'assinaturaMinima' | 'atualizadaEm' | 'atualizadaPor'>,
  audit: Omit<ReprecificacaoRecord, 'faturaId' | 'revisaoAnterior' | 'antes' | 'depois'>,
): Promise<boolean> {
  const result = await transactWithRetry(() =>
    db()
      .transaction.write(({ fatura: f, reprecificacao: r }) => [
        f
          .patch({ faturaId: antes.faturaId })
          .set({ ...depois, revisao: antes.revisao + 1 })
          .where((attr, op) => `${op.eq(attr.revisao, antes.revisao)} AND ${op.eq(attr.situacao, 'A')}`)
          .commit(),
        r
          .create({
            ...audit,
            faturaId: antes.faturaId,
            revisaoAnterior: antes.revisao,
            antes: { valorServicos: antes.valorServicos, valorAssinatura: antes.valorAssinatura, valorTotal: antes.valorTotal },
            depois: { valorServicos: depois.valorServicos, valorAssinatura: depois.valorAssinatura, valorTotal: depois.valorTotal },
          })
          .commit(),
      ])
      .go(),
  );
  if (!result.canceled) await recontarFatura(antes.faturaId);
  return !result.canceled;
}

export async function reprecificacoesDaFatura(faturaId: string): Promise<ReprecificacaoRecord[]> {
  // Bounded: one invoice's re-pricings, one per tariff correction an administrator applied (a handful).
  const { data } = await db().entities.reprecificacao.query.byFatura({ faturaId }).go({ pages: 'all' });
  return data;
}

/**
 * One file of the tax note set on the invoice, on the condition that the file it replaces is the one
 * read before (none, or that key): two replacements at once never lose track of a stored object, and
 * the caller deletes exactly the object it replaced. false when the invoice changed meanwhile (or is gone).
 */
export async function gravarNotaFiscal(
  faturaId: string,
  tipo: 'pdf' | 'xml',
  nota: { key: string; nome: string; em: string; por: string },
  keyAnterior: string | undefined,
): Promise<boolean> {
  const arquivo = tipo === 'pdf' ? { pdfKey: nota.key, nomePdfFile: nota.nome } : { xmlKey: nota.key, nomeXmlFile: nota.nome };
  try {
    await db()
      .entities.fatura.patch({ faturaId })
      .set({ ...arquivo, notaAtualizadaEm: nota.em, notaAtualizadaPor: nota.por })
      .where((attr, op) => {
        const atual = tipo === 'pdf' ? attr.pdfKey : attr.xmlKey;
        return keyAnterior === undefined ? op.notExists(atual) : op.eq(atual, keyAnterior);
      })
      .go({ response: 'none' });
    return true;
  } catch (error) {
    if (isConditionalFailure(error)) return false;
    throw error;
  }
}
