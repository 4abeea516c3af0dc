import { randomUUID } from 'node:crypto';
import type { Principal } from '@plac/shared/access';
import { monthOf, ordensDeTransferencia, porCodigo } from '@plac/shared/domain';
import * as faturamento from '../faturamento';
import { conflict, invalid } from '../platform/errors';
import { faturasDoRepasse, repartirComGrupoVigente, repartirMes, totaisPorBeneficiado, type Grupo } from './repartir';
import * as store from './repasse-store';

/**
 * The repasse (docs/repasse.md; spec 2, 2.11 and 4 "Repasse"): each paid invoice of a month split per
 * origin UF among the beneficiaries of the sharing group in force in that month (calcularRepasse, in
 * @plac/shared/domain). A run is a Step Functions execution (infra/lib/constructs/repasse.ts, run.ts):
 * Preparar (the invoices EM_PROCESSAMENTO) → Distribuir (the shares computed, totals and transfer
 * orders recorded; the invoices PREVIA_ANALISADA after a simulation, DISTRIBUIDO after the definitive
 * run), and MarcarFalha on the Catch (FALHA). The definitive run happens once per month.
 */

export type Tipo = store.RepasseRecord['tipo'];
export type Iniciar = (execucaoId: string, input: { mes: string; tipo: Tipo; execucaoId: string }) => Promise<void>;

const CABECALHO_PREVISAO = ['UF', 'CNPJ', 'Razão Social', 'Fatura', 'Valor UF', 'Beneficiado', 'Tipo', 'Valor'];
const CABECALHO_TOTAIS = ['UF', 'Beneficiado', 'Tipo', 'Valor'];
const CABECALHO_ORDENS = ['Beneficiado', 'Banco', 'Agência', 'DV Agência', 'Conta', 'DV Conta', 'Valor'];

function assertMesFechado(mes: string) {
  if (mes >= monthOf(new Date())) throw invalid('repasseMesInvalido');
}

/** Whether the month's definitive repasse exists (spec 2, 7: a boolean). */
export async function definitivoGerado(mes: string): Promise<boolean> {
  const r = await store.ler(mes, 'DEFINITIVO');
  return r !== null && r.situacao !== 'FALHA';
}

/** Records and starts a run; the definitive one once per month, a simulation only before it. */
export async function iniciar(mes: string, tipo: Tipo, p: Principal, iniciarMaquina: Iniciar): Promise<{ execucaoId: string; situacao: string }> {
  assertMesFechado(mes);
  if (await definitivoGerado(mes)) throw conflict('repasseDefinitivoJaGerado');
  const execucaoId = `${mes}-${tipo.toLowerCase()}-${randomUUID()}`;
  const ok = await store.iniciar({ mes, tipo, execucaoId, situacao: 'EM_ANDAMENTO', iniciadoEm: new Date().toISOString(), iniciadoPor: p.name });
  if (!ok) throw conflict(tipo === 'DEFINITIVO' ? 'repasseDefinitivoJaGerado' : 'repasseEmAndamento');
  await iniciarMaquina(execucaoId, { mes, tipo, execucaoId });
  return { execucaoId, situacao: 'EM_ANDAMENTO' };
}

/** The month's run of a kind, for the screen (null when none). */
export async function situacao(mes: string, tipo: Tipo) {
  const r = await store.ler(mes, tipo);
  return r ? { execucaoId: r.execucaoId, situacao: r.situacao, iniciadoEm: r.iniciadoEm, iniciadoPor: r.iniciadoPor, concluidoEm: r.concluidoEm ?? null, erro: r.erro ?? null } : null;
}

/** The month's runs, newest first (issue 28 item 2): kind, who, when, status and, once ended, totals. */
export async function historico(mes: string) {
  const runs = await store.execucoes(mes);
  return runs
    .sort((a, b) => porCodigo(b.iniciadoEm, a.iniciadoEm))
    .map((r) => ({
      execucaoId: r.execucaoId,
      tipo: r.tipo,
      situacao: r.situacao,
      iniciadoEm: r.iniciadoEm,
      iniciadoPor: r.iniciadoPor,
      concluidoEm: r.concluidoEm ?? null,
      erro: r.erro ?? null,
      faturas: r.faturas ?? null,
      total: r.total ?? null,
      ordens: r.ordens ?? null,
    }));
}

// ---- the state machine's tasks ----------------------------------------------------------------------

/** Preparar: the month's invoices the repasse counts (repartir.ts) not yet distributed go EM_PROCESSAMENTO. */
export async function preparar(input: { mes: string; tipo: Tipo; execucaoId: string }) {
  const faturas = (await faturasDoRepasse(input.mes)).filter((f) => f.situacaoRepasse !== 'DISTRIBUIDO');
  await faturamento.marcarRepasse(
    faturas.map((f) => f.faturaId),
    'EM_PROCESSAMENTO',
  );
  return { ...input, faturas: faturas.length };
}

/**
 * The group as the record keeps it (repasse-store.ts `grupo`): what a definitive month is read with from
 * then on, whatever becomes of the group (issue 37 item 2).
 */
function grupoGravado(grupo: Grupo): NonNullable<store.RepasseRecord['grupo']> {
  return {
    grupoRateioId: grupo.grupoRateioId,
    ...(grupo.descricao ? { descricao: grupo.descricao } : {}),
    percentualSefaz: grupo.percentualSefaz,
    beneficiados: grupo.beneficiados.map((b) => ({
      beneficiadoId: b.beneficiadoId,
      nome: b.nome,
      tipo: b.tipo,
      ...(b.uf ? { uf: b.uf } : {}),
      percentual: b.percentual,
      ativoNoMes: b.ativoNoMes,
      ...(b.conta ? { conta: { banco: b.conta.banco, agencia: b.conta.agencia, dvAgencia: b.conta.dvAgencia, conta: b.conta.conta, dvConta: b.conta.dvConta } } : {}),
    })),
  };
}

/**
 * Distribuir: the month's invoices not yet distributed split under the group in force now; the shares'
 * totals, the transfer orders and that group recorded with the run's history line (one transaction);
 * then the invoices' status moved on.
 */
export async function distribuir(input: { mes: string; tipo: Tipo; execucaoId: string }) {
  const faturas = (await faturasDoRepasse(input.mes)).filter((f) => f.situacaoRepasse !== 'DISTRIBUIDO');
  const r = await repartirComGrupoVigente(input.mes, faturas);
  if (!r) throw new Error(`no sharing group in force in ${input.mes}`);
  const { grupo, linhas } = r;
  const ordens = ordensDeTransferencia(linhas, grupo.beneficiados).map((o) => {
    const conta = grupo.beneficiados.find((b) => b.beneficiadoId === o.beneficiadoId)?.conta;
    return { ...o, ...(conta ? { banco: conta.banco, agencia: conta.agencia, dvAgencia: conta.dvAgencia, conta: conta.conta, dvConta: conta.dvConta } : {}) };
  });
  await store.concluir(input.mes, input.tipo, input.execucaoId, {
    situacao: 'CONCLUIDO',
    concluidoEm: new Date().toISOString(),
    grupoRateioId: grupo.grupoRateioId,
    grupo: grupoGravado(grupo),
    faturas: faturas.length,
    totais: totaisPorBeneficiado(linhas),
    ordens,
  });
  await faturamento.marcarRepasse(
    faturas.map((f) => f.faturaId),
    input.tipo === 'DEFINITIVO' ? 'DISTRIBUIDO' : 'PREVIA_ANALISADA',
  );
  return { execucaoId: input.execucaoId, faturas: faturas.length, ordens: ordens.length };
}

/** MarcarFalha: the run FALHA, its invoices FALHA (a definitive run may then be started again). */
export async function falhou(input: { mes?: string; tipo?: Tipo; execucaoId?: string; erro?: { Error?: string; Cause?: string } }) {
  if (!input.mes || !input.tipo || !input.execucaoId) return { ok: false };
  await store.concluir(input.mes, input.tipo, input.execucaoId, { situacao: 'FALHA', concluidoEm: new Date().toISOString(), erro: `${input.erro?.Error ?? 'Erro'}: ${(input.erro?.Cause ?? '').slice(0, 500)}` });
  const faturas = (await faturamento.faturasPagasDoMes(input.mes)).filter((f) => f.situacaoRepasse === 'EM_PROCESSAMENTO');
  await faturamento.marcarRepasse(
    faturas.map((f) => f.faturaId),
    'FALHA',
  );
  return { ok: true };
}

// ---- the CSV files ------------------------------------------------------------------------------

/** A CSV cell: ';'-separated, quoted when needed, formula injection neutralised. */
function celula(v: string | number): string {
  let s = String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[";\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

const reais = (centavos: number) => `${Math.trunc(centavos / 100)},${String(centavos % 100).padStart(2, '0')}`;

function csv(cabecalho: readonly string[], linhas: readonly (readonly (string | number)[])[]): string {
  return `\uFEFF${[cabecalho, ...linhas].map((l) => l.map(celula).join(';')).join('\r\n')}\r\n`;
}

/**
 * previsao-repasse.csv: every share of every invoice the repasse counts: the split they would have now
 * under the group in force; once the month's definitive repasse concluded, the split it distributed (its
 * recorded group, its invoices). Header only: none.
 */
export async function previsaoCsv(mes: string): Promise<string> {
  const r = await repartirMes(mes, await faturasDoRepasse(mes));
  if (!r) return csv(CABECALHO_PREVISAO, []);
  const { linhas } = r;
  return csv(
    CABECALHO_PREVISAO,
    linhas.map((l) => [l.uf, l.cnpj, l.razaoSocial, l.faturaId, reais(l.valorUf), l.nome, l.tipo, reais(l.valor)]),
  );
}

/** simulacao-repasse.csv: the totals per UF and beneficiary of the month's latest simulation. Header only: none. */
export async function simulacaoCsv(mes: string): Promise<string> {
  const r = await store.ler(mes, 'SIMULACAO');
  return csv(CABECALHO_TOTAIS, r?.situacao === 'CONCLUIDO' ? (r.totais ?? []).map((t) => [t.uf || '-', t.nome, t.tipo, reais(t.valor)]) : []);
}

/** definitivo-repasse.csv: the totals per UF and beneficiary of the month's definitive run once concluded. Header only: none. */
export async function definitivoCsv(mes: string): Promise<string> {
  const r = await store.ler(mes, 'DEFINITIVO');
  return csv(CABECALHO_TOTAIS, r?.situacao === 'CONCLUIDO' ? (r.totais ?? []).map((t) => [t.uf || '-', t.nome, t.tipo, reais(t.valor)]) : []);
}

/** ordens-repasse.csv: the definitive run's transfer orders per beneficiary account. Header only: none. */
export async function ordensCsv(mes: string): Promise<string> {
  const r = await store.ler(mes, 'DEFINITIVO');
  return csv(
    CABECALHO_ORDENS,
    r?.situacao === 'CONCLUIDO' ? (r.ordens ?? []).map((o) => [o.nome, o.banco ?? '', o.agencia ?? '', o.dvAgencia ?? '', o.conta ?? '', o.dvConta ?? '', reais(o.valor)]) : [],
  );
}
