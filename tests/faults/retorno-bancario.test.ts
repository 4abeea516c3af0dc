import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { Principal } from '@plac/shared/access';
import { addDays, monthOf, previousMonth, todayInBahia } from '@plac/shared/domain';
import { campoLivre, codigoOrgao } from '../../functions/dae/config';
import { linhaDigitavel, montarCodigoBarras } from '../../functions/dae/febraban';
import { criarDae, proximoNumero } from '../../functions/dae/store';
import { faturaIdDe } from '../../functions/faturamento/regras';
import { escreverRetorno } from '../../functions/faturamento/retorno/layout';
import { RETOMADA_MS } from '../../functions/faturamento/retorno/service';
import { emitirFatura, lerFatura, type FaturaRecord } from '../../functions/faturamento/store';
import { bearer, tokenFor } from '../api/session';
import { api, emParalelo, killTwinProcess, report, restartTwinProcess, seconds, sleep, startTwinProcess, stopTwinProcess, type TwinProcess } from './twin-process';

/**
 * The bank-return import killed mid-way (issue 42): a FEBRABAN file of 1,800 payments of open invoices
 * uploaded by an administrator; the route matches the first 1,000 itself and answers 202, the rest goes
 * on as the RetornoBancario job (functions/faturamento/retorno); a real `kill -9` of the twin once the
 * job has counted a batch of its own and is in the next, the twin started again on the same data, and
 * the same file uploaded again as the administrator does, every 2 s until accepted. The twin's Step
 * Functions runner keeps its executions in memory, so the job died with the twin and nothing goes on by
 * itself: the import stays PROCESSANDO under the dead attempt's start, which a new upload may take over
 * only RETOMADA_MS (60 s) after that start (409 retornoEmProcessamento until then; the dead job may have
 * been still running for all the route knows). The attempt that takes over redoes the batch the kill
 * interrupted: a payment the dead job had recorded is found by its key and reported as then, never
 * recorded twice. Checked at the end: every invoice paid exactly once, for its DAE's amount, by this
 * import; the import CONCLUIDA with every payment counted once; each line of the file reported once.
 */

const PAGAMENTOS = 1_800;
/** Invoices and DAEs written at once by this process (as tests/api/retorno-bancario.test.ts). */
const EM_VOO = 32;
const admin: Principal = { userId: 'faults-admin', name: 'Admin Falhas', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const hoje = todayInBahia();
const vencimento = addDays(hoje, 2);
const mes = previousMonth(previousMonth(monthOf(new Date())));

interface Dae {
  codigoBarras: string;
  valor: number;
}

interface ImportacaoView {
  importacaoId: string;
  situacao: 'PROCESSANDO' | 'CONCLUIDA';
  totalPagamentos: number;
  processadas: number;
  pagas: number;
  jaPagas: number;
  naoEncontradas: number;
  inconsistentes: number;
  jaImportado: boolean;
}

/** An open invoice of its own client, R$ 700,00 to R$ 899,99 (each amount its own, so a mix-up shows). */
async function fatura(i: number): Promise<FaturaRecord> {
  const clienteId = `falha-ret-${randomUUID()}`;
  const valorTotal = 700_00 + (i % 20_000);
  const record: FaturaRecord = {
    faturaId: faturaIdDe(clienteId, mes), clienteId, cnpj: '12345678000195', razaoSocial: `CLIENTE RETORNO ${clienteId.slice(11, 19)}`, mes, situacao: 'A',
    itens: [], valorServicos: 0, valorAssinatura: valorTotal, valorTotal, assinaturaMinima: 750_00, execucaoId: randomUUID(), emitidaEm: new Date().toISOString(), revisao: 1,
  };
  await emitirFatura(record);
  return record;
}

/** Its DAE, due in two days: the record the API stores when it issues one (as tests/api/retorno-bancario.test.ts). */
async function dae(f: FaturaRecord): Promise<Dae> {
  const numero = await proximoNumero();
  const codigoBarras = montarCodigoBarras({ segmento: '5', identificadorValor: '6', valorCentavos: f.valorTotal, codigoOrgao: codigoOrgao(), campoLivre: campoLivre(vencimento, f.mes, numero) });
  await criarDae({
    faturaId: f.faturaId, origem: 'FATURA', revisao: f.revisao, dtVencimento: vencimento, clienteId: f.clienteId, mes: f.mes, numero, valor: f.valorTotal,
    codigoBarras, linhaDigitavel: linhaDigitavel(codigoBarras), chavePdf: `dae/${f.clienteId}/${f.faturaId}/${codigoBarras}.pdf`, emitidoEm: new Date().toISOString(), emitidoPor: 'teste',
  });
  return { codigoBarras, valor: f.valorTotal };
}

describe('a bank-return import killed mid-way (issue 42)', () => {
  let twin: TwinProcess | undefined;
  afterAll(() => stopTwinProcess(twin), 60_000);

  it('is taken over by the same file uploaded again a minute after its start, and pays every invoice once', async () => {
    // No schedules: no Sefaz load competing for the two cores.
    twin = await startTwinProcess({ PLAC_SCHEDULES: '0', PLAC_SEFAZ_BACKLOG: '5', PLAC_SEFAZ_TRICKLE_MS: '0' });
    Object.assign(process.env, twin.env);
    const t = twin;

    // ---- the open invoices and their DAEs, and the bank's file paying each at face value ----
    const emitidas = await emParalelo(
      Array.from({ length: PAGAMENTOS }, (_, i) => i),
      async (i) => {
        const f = await fatura(i);
        return { f, d: await dae(f) };
      },
      EM_VOO,
    );
    const faturas = emitidas.map((x) => x.f);
    const daes = emitidas.map((x) => x.d);
    const conteudo = escreverRetorno({
      convenio: '000888', banco: '104', nomeBanco: 'Caixa Economica', dataGeracao: hoje, nsa: Math.floor(Math.random() * 900_000) + 1,
      pagamentos: daes.map((x) => ({ dataPagamento: hoje, dataCredito: addDays(hoje, 1), codigoBarras: x.codigoBarras, valorRecebido: x.valor })),
    });

    let token = await tokenFor(admin);
    const enviar = (tw: TwinProcess) =>
      api(tw, '/api/v1/faturamento-mensal/retornos', { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ nomeArquivo: 'retorno-falha.ret', conteudo }) });
    const progresso = async (tw: TwinProcess, id: string) => {
      const answer = await api(tw, `/api/v1/faturamento-mensal/retornos/${id}`, { headers: bearer(token) });
      expect(answer.status).toBe(200);
      return answer.body as ImportacaoView;
    };

    // ---- the upload: the route's share, then 202 and the job ----
    const tEnvio = performance.now();
    const primeira = await enviar(t);
    const tRota = performance.now();
    expect(primeira.status).toBe(202);
    const naRota = primeira.body as ImportacaoView;
    const id = naRota.importacaoId;
    expect(naRota).toMatchObject({ situacao: 'PROCESSANDO', totalPagamentos: PAGAMENTOS });
    expect(naRota.processadas).toBeLessThanOrEqual(1_000);
    console.log(`the route answered 202 after ${seconds(tEnvio, tRota)} s with ${naRota.processadas}/${PAGAMENTOS} payments done`);

    // ---- kill once the job has counted a batch of its own and is in the next ----
    let visto: ImportacaoView | undefined;
    for (const deadline = Date.now() + 300_000; Date.now() < deadline; ) {
      const view = await progresso(t, id);
      expect(view.situacao, `the import ended before it could be killed (at ${view.processadas}/${PAGAMENTOS})`).toBe('PROCESSANDO');
      if (view.processadas > naRota.processadas) {
        visto = view;
        break;
      }
      await sleep(200);
    }
    expect(visto, 'the job counted no batch in 5 minutes').toBeDefined();
    await killTwinProcess(t);
    const tMorte = performance.now();
    console.log(`killed the import's job at ${visto!.processadas}/${PAGAMENTOS} payments counted, ${seconds(tEnvio, tMorte)} s after the upload`);

    // ---- restart; the same file again, every 2 s, until accepted ----
    const tRestart = performance.now();
    twin = await restartTwinProcess(t);
    const r = twin;
    const tHealthy = performance.now();
    token = await tokenFor(admin);
    // What the dead job had recorded past its last counted batch (read back now that DynamoDB Local is up again).
    const naoContadas = faturas.slice(visto!.processadas);
    const pagasSemContar = (await emParalelo(naoContadas, (f) => lerFatura(f.faturaId))).filter((f) => f?.situacao === 'P').length;
    // Nothing goes on by itself: the job died with the twin's Step Functions runner.
    const parada = await progresso(r, id);
    const recusas: number[] = [];
    let aceita: { status: number; body: unknown } | undefined;
    let tAceita = 0;
    for (const deadline = Date.now() + 180_000; Date.now() < deadline; ) {
      const tPedido = performance.now();
      const answer = await enviar(r);
      if (answer.status !== 409) {
        aceita = answer;
        tAceita = tPedido;
        break;
      }
      expect(answer.body).toMatchObject({ error: 'retornoEmProcessamento' });
      recusas.push(seconds(tRestart, tPedido));
      await sleep(2_000);
    }
    expect(aceita, 'the file was still refused 3 minutes after the restart').toBeDefined();
    // The takeover is a new attempt: not the stored report of a finished import.
    expect(aceita!.body).toMatchObject({ importacaoId: id, jaImportado: false });
    let fim = aceita!.body as ImportacaoView;
    for (const deadline = Date.now() + 600_000; fim.situacao === 'PROCESSANDO' && Date.now() < deadline; ) {
      await sleep(500);
      fim = await progresso(r, id);
    }
    const tFim = performance.now();

    // ---- the invariants ----
    expect(fim).toMatchObject({ situacao: 'CONCLUIDA', totalPagamentos: PAGAMENTOS, processadas: PAGAMENTOS, pagas: PAGAMENTOS, jaPagas: 0, naoEncontradas: 0, inconsistentes: 0 });
    // Every invoice: paid (P), for its DAE's amount, by this import, with one receipt in its ledger.
    const lidas = await emParalelo(faturas, (f) => lerFatura(f.faturaId));
    const naoPagas = faturas.filter((f, i) => lidas[i]?.situacao !== 'P' || !lidas[i]?.pagamento).map((f) => f.faturaId);
    const valorErrado = faturas.filter((f, i) => lidas[i]?.pagamento && (lidas[i]!.pagamento!.valorPago !== daes[i]!.valor || lidas[i]!.pagamento!.importacaoId !== id)).map((f) => f.faturaId);
    const recebimentosAMais = lidas.reduce((n, f) => n + Math.max(0, (f?.recebimentos?.length ?? 0) - 1), 0);
    const semRecebimento = lidas.filter((f) => (f?.recebimentos?.length ?? 0) === 0).length;
    // Every line of the file reported once, in file order, as the screen reads them.
    const linhas: { linha: number; situacao: string; faturaId?: string }[] = [];
    let cursor: string | undefined;
    do {
      const q = new URLSearchParams({ perPage: '100', ...(cursor ? { cursor } : {}) });
      const page = await api(r, `/api/v1/faturamento-mensal/retornos/${id}/linhas?${q.toString()}`, { headers: bearer(token) });
      expect(page.status).toBe(200);
      const body = page.body as { items: typeof linhas; nextCursor?: string };
      linhas.push(...body.items);
      cursor = body.nextCursor;
    } while (cursor);
    const linhasAMais = linhas.length - new Set(linhas.map((l) => l.linha)).size;
    const faturasDasLinhas = new Map<string, number>();
    for (const l of linhas) if (l.faturaId) faturasDasLinhas.set(l.faturaId, (faturasDasLinhas.get(l.faturaId) ?? 0) + 1);
    const naoRelatadas = faturas.filter((f) => !faturasDasLinhas.has(f.faturaId)).length;
    const relatadasDuasVezes = [...faturasDasLinhas.values()].reduce((n, c) => n + c - 1, 0);
    // The same file once more: the stored report, nothing changed.
    const denovo = await enviar(r);

    const linha = report({
      job: 'bank-return import (RetornoBancario)',
      lost: naoPagas.length + semRecebimento + naoRelatadas,
      duplicated: recebimentosAMais + linhasAMais + relatadasDuasVezes,
      stuck: fim.situacao === 'CONCLUIDA' ? 0 : 1,
      acceptedS: seconds(tRestart, tAceita),
      finishedS: seconds(tRestart, tFim),
      note:
        `${PAGAMENTOS} payments, the route did ${naRota.processadas} and answered 202 after ${seconds(tEnvio, tRota)} s; ` +
        `killed ${seconds(tEnvio, tMorte)} s after the upload at ${visto!.processadas} counted, ${pagasSemContar} more invoices paid and not yet counted; ` +
        `after the restart the import stood at ${parada.processadas} ${parada.situacao}; twin healthy after ${seconds(tRestart, tHealthy)} s, ` +
        `${recusas.length} uploads refused 409 first (RETOMADA_MS ${RETOMADA_MS / 1000} s from the first upload), the takeover answered ${aceita!.status}`,
    });
    expect(naoPagas).toEqual([]);
    expect(valorErrado).toEqual([]);
    expect(linhas).toHaveLength(PAGAMENTOS);
    expect(linhas.every((l) => l.situacao === 'PAGA')).toBe(true);
    expect(linha).toContain('lost 0, duplicated 0, stuck 0');
    expect(parada).toMatchObject({ situacao: 'PROCESSANDO', processadas: visto!.processadas });
    expect(denovo).toMatchObject({ status: 200, body: { importacaoId: id, jaImportado: true, pagas: PAGAMENTOS } });
  }, 1_500_000);
});
