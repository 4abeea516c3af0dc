import { randomInt, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@plac/shared/access';
import { cnpjCheckDigits, monthOf, previousMonth, type ClienteSituacao } from '@plac/shared/domain';
import { findCliente, putCliente } from '../../functions/clientes/store';
import { cobrarConsulta } from '../../functions/consumo/cobranca';
import { gravarContadores } from '../../functions/consumo/store';
import { faturaIdDe, shardDoCliente as shardOf } from '../../functions/faturamento/regras';
import { falhou, faturarShard, listarShards } from '../../functions/faturamento/service';
import { criarExecucao, execucoesDoMes, lerExecucao, lerFatura, lerTrava, reprecificacoesDaFatura, type FaturaRecord } from '../../functions/faturamento/store';
import { faturamentoStateMachine } from '../../infra/lib/topology';
import { FATURAMENTO_STATES } from '../../infra/lib/state-machines';
import { localStateMachines } from '../../infra/local/state-machines';
import { lerJob } from '../../functions/consumo/relatorio-job-store';
import { call } from './http';
import { bearer, tokenFor } from './session';
import { gravarCliente } from './clientes-kit';

/**
 * The billing run on the twin (issue 14, part 1): a month billed for clients of our own whose usage is
 * charged through the metering service, each invoice checked against totals computed by hand from the
 * price rule and the demo tariff version in force last month (infra/local/seed-tarifas.ts: bands
 * 1-5.000 (promotional), 5.001-50.000, 50.001-500.000, 500.001-; minimum subscription R$ 750,00;
 * service 1 at R$ 0,150 in band 1, service 5 at R$ 0,900 in band 1, service 9 at R$ 0,015 in band 2).
 * Then: a shard crashed mid-way, the whole run, a retried shard and a second run leave exactly the
 * same invoices.
 */

const admin: Principal = { userId: 'fat-admin', name: 'Admin Faturamento', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
/** Last month: its tariff version has been in force and never changes again (docs/tarifas.md). */
const mes = previousMonth(monthOf(new Date()));
const [ano, mm] = mes.split('-').map(Number) as [number, number];
/** Mid-month in Bahia, as a charge of that month. */
const noMes = new Date(Date.UTC(ano, mm - 1, 15, 15, 0, 0));

function novoCnpj(): string {
  const first12 = `${String(randomInt(10_000_000, 99_999_999))}0001`;
  return `${first12}${cnpjCheckDigits(first12)}`;
}

async function novoCliente(situacao: ClienteSituacao) {
  const cnpj = novoCnpj();
  const clienteId = `fat-${randomUUID()}`;
  const razaoSocial = `CLIENTE FATURAMENTO ${situacao} ${cnpj.slice(0, 6)}`;
  const now = new Date().toISOString();
  await gravarCliente({ clienteId, cnpj, razaoSocial, situacao, createdAt: now, updatedAt: now });
  return { clienteId, cnpj, razaoSocial };
}

/**
 * `n` charged look-ups of a service from a UF in the billed month. The last 3 go through the metering
 * service (request log and a counter shard, as a real look-up); the rest are written as one counter
 * shard of the same month, which is what the billing run reads (charging 5,000 one by one cost minutes).
 */
async function cobrar(clienteId: string, servico: number, uf: string, n: number) {
  const pelaMedicao = Math.min(3, n);
  if (n > pelaMedicao) await gravarContadores([{ clienteId, mes, servico, uf, shard: 0, requisicoes: n - pelaMedicao }]);
  for (let i = 0; i < pelaMedicao; i++) {
    await cobrarConsulta({ clienteId, servico, uf, chave: `k${i}`, idempotencyKey: `${servico}-${uf}-${i}`, agora: noMes });
  }
}

const machine = () => localStateMachines().get(faturamentoStateMachine.id)!;
const fatura = (clienteId: string) => lerFatura(faturaIdDe(clienteId, mes));
const c = {} as Record<'banda' | 'acima' | 'semUso' | 'avaliacao' | 'novo' | 'cancelado', { clienteId: string; cnpj: string; razaoSocial: string }>;

beforeAll(async () => {
  c.banda = await novoCliente('A');
  c.acima = await novoCliente('A');
  c.semUso = await novoCliente('A');
  c.avaliacao = await novoCliente('E');
  c.novo = await novoCliente('N');
  c.cancelado = await novoCliente('C');
  await Promise.all([
    // 5.001 of service 9: band 2 (R$ 0,015) by one request; 2.501 × 0,015 = 37,515 → 37,52 (half-up)
    cobrar(c.banda.clienteId, 9, 'BA', 2_501),
    cobrar(c.banda.clienteId, 9, 'SP', 2_500),
    // 834 NF-e billing look-ups in band 1: 834 × 0,900 = 750,60, above the subscription
    cobrar(c.acima.clienteId, 5, 'GO', 834),
    cobrar(c.avaliacao.clienteId, 1, 'BA', 3),
    cobrar(c.cancelado.clienteId, 1, 'BA', 3),
  ]);
}, 240_000);

/** The expected invoices, by hand. */
const esperado = () => ({
  banda: {
    situacao: 'A',
    itens: [
      { servico: 9, descricao: 'Envio de Fat-e', uf: 'BA', requisicoes: 2_501, valorUnitario: 15, valor: 37_52, promocional: false },
      { servico: 9, descricao: 'Envio de Fat-e', uf: 'SP', requisicoes: 2_500, valorUnitario: 15, valor: 37_50, promocional: false },
    ],
    valorServicos: 75_02,
    valorAssinatura: 674_98,
    valorTotal: 750_00,
    assinaturaMinima: 750_00,
  },
  acima: {
    itens: [{ servico: 5, descricao: 'Consulta Faturamento NF-e', uf: 'GO', requisicoes: 834, valorUnitario: 900, valor: 750_60, promocional: true }],
    valorServicos: 750_60,
    valorAssinatura: 0,
    valorTotal: 750_60,
  },
  semUso: { itens: [], valorServicos: 0, valorAssinatura: 750_00, valorTotal: 750_00 },
  cancelado: {
    itens: [{ servico: 1, descricao: 'Consulta Fat-e por Chave de Acesso', uf: 'BA', requisicoes: 3, valorUnitario: 150, valor: 45, promocional: true }],
    valorServicos: 45,
    valorAssinatura: 749_55,
    valorTotal: 750_00,
  },
});

async function nossasFaturas(): Promise<Record<string, FaturaRecord | null>> {
  return Object.fromEntries(await Promise.all(Object.entries(c).map(async ([k, v]) => [k, await fatura(v.clienteId)] as const)));
}

describe('the billing run of a month', () => {
  let primeiras: Record<string, FaturaRecord | null>;

  it('a shard that crashes mid-way leaves the invoices written before the crash, and nothing else', async () => {
    const { execucaoId, shards } = await listarShards({ mes });
    // Crash the shard of the 'acima' client just before it: its invoice is not written.
    const alvo = shards.find((s) => s.shard === shardOf(c.acima.clienteId, s.shards))!;
    await expect(
      faturarShard(alvo, {
        antesDoCliente: (id) => {
          if (id === c.acima.clienteId) throw new Error('crash (injected by the test)');
        },
      }),
    ).rejects.toThrow('crash');
    expect(await fatura(c.acima.clienteId)).toBeNull();
    // What the state machine's Catch does with a run that cannot go on.
    await falhou(execucaoId, { Error: 'Error', Cause: 'crash' });
    expect(await lerExecucao(execucaoId)).toMatchObject({ situacao: 'FALHA', erro: 'Error: crash' });
  });

  it('bills every client by the price rule, with a shard retried after a crash, and the totals are the hand-computed ones', async () => {
    let crashed = 0;
    const { output, events } = await machine().execute(
      { mes },
      {
        // The first BillShard does all its work and then "dies": Step Functions retries it.
        wrap: (state, invoke) => async (input) => {
          const result = await invoke(input);
          if (state === FATURAMENTO_STATES.one && crashed === 0) {
            crashed++;
            throw new Error('Lambda died after writing (injected by the test)');
          }
          return result;
        },
      },
    );
    expect(crashed).toBe(1);
    expect(events.some((e) => e.type === 'StateRetried')).toBe(true);
    expect(output).toMatchObject({ falhas: 0 });
    // The crashed attempt had written its invoices: the retry finds them issued and writes none again.
    const { emitidas, jaEmitidas } = output as { emitidas: number; jaEmitidas: number };
    expect(emitidas + jaEmitidas).toBeGreaterThanOrEqual(4);
    expect(jaEmitidas).toBeGreaterThanOrEqual(1);
    expect((output as { emAvaliacao: number }).emAvaliacao).toBeGreaterThanOrEqual(1);

    primeiras = await nossasFaturas();
    const e = esperado();
    expect(primeiras.banda).toMatchObject({ ...e.banda, clienteId: c.banda.clienteId, cnpj: c.banda.cnpj, razaoSocial: c.banda.razaoSocial, mes, revisao: 1 });
    expect(primeiras.acima).toMatchObject({ ...e.acima, situacao: 'A' });
    expect(primeiras.semUso).toMatchObject({ ...e.semUso, situacao: 'A' });
    expect(primeiras.cancelado).toMatchObject({ ...e.cancelado, situacao: 'A' });
    // In evaluation: metered, never billed. New without usage: nothing to bill.
    expect(primeiras.avaliacao).toBeNull();
    expect(primeiras.novo).toBeNull();

    const run = await lerExecucao((output as { execucaoId: string }).execucaoId);
    expect(run).toMatchObject({ mes, situacao: 'CONCLUIDA', origem: 'agendamento' });

    // Each invoice issued has its detail ZIP queued as a report job, once (the retried shard found it
    // there): it runs in the twin's Step Functions and ends with the month's requests of that client.
    for (const f of [primeiras.banda!, primeiras.acima!, primeiras.semUso!]) {
      await expect.poll(async () => (await lerJob(`det-${f.faturaId}`))?.estado, { timeout: 60_000, interval: 200 }).toBe('CONCLUIDO');
      expect(await lerJob(`det-${f.faturaId}`)).toMatchObject({ tentativa: 1, tipo: 'detalhamento', clienteId: f.clienteId, mes, chave: `faturas/${f.clienteId}/${f.faturaId}/detalhamento.zip` });
    }
  }, 120_000);

  it('run again by an admin from the API, the month keeps exactly the same invoices; the progress counts every client', async () => {
    const token = await tokenFor(admin);
    const started = await call('/api/v1/faturamento-mensal/execucoes', {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify({ mes }),
    });
    expect(started.status).toBe(202);
    const { execucaoId } = started.body as { execucaoId: string };
    expect(started.body).toMatchObject({ mes, origem: 'admin', iniciadaPor: admin.name });

    let progresso: Record<string, unknown> = {};
    for (let i = 0; i < 120; i++) {
      progresso = (await call(`/api/v1/faturamento-mensal/execucoes/${execucaoId}`, { headers: bearer(token) })).body as Record<string, unknown>;
      if (progresso.situacao !== 'EM_ANDAMENTO') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(progresso).toMatchObject({ situacao: 'CONCLUIDA', falhas: [], emitidas: 0 });
    expect(progresso.feitos).toBe(progresso.totalClientes);
    expect(progresso.jaEmitidas as number).toBeGreaterThanOrEqual(4);

    expect(await nossasFaturas()).toEqual(primeiras);

    const lista = await call(`/api/v1/faturamento-mensal/execucoes?mes=${mes}`, { headers: bearer(token) });
    expect((lista.body as { execucaoId: string }[])[0]!.execucaoId).toBe(execucaoId);
  }, 120_000);

  it('twenty starts of one month at once: exactly one 202 and nineteen 409 faturamentoEmAndamento, one run; its end releases the month (issue 27 item 1)', async () => {
    const token = await tokenFor(admin);
    const antes = new Set((await execucoesDoMes(mes)).map((e) => e.execucaoId));
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call('/api/v1/faturamento-mensal/execucoes', { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ mes }) }),
      ),
    );
    const aceitas = answers.filter((a) => a.status === 202);
    const recusadas = answers.filter((a) => a.status === 409);
    expect(aceitas).toHaveLength(1);
    expect(recusadas).toHaveLength(19);
    for (const r of recusadas) expect(r.body).toMatchObject({ error: 'faturamentoEmAndamento', message: `Já existe um faturamento em andamento para o mês ${mes.slice(5)}/${mes.slice(0, 4)}.` });
    const { execucaoId } = aceitas[0]!.body as { execucaoId: string };
    const novas = (await execucoesDoMes(mes)).filter((e) => !antes.has(e.execucaoId));
    expect(novas.map((e) => e.execucaoId)).toEqual([execucaoId]);
    expect(await lerTrava(mes)).toMatchObject({ execucaoId });

    let situacao = 'EM_ANDAMENTO';
    for (let i = 0; i < 120 && situacao === 'EM_ANDAMENTO'; i++) {
      await new Promise((r) => setTimeout(r, 500));
      situacao = (await lerExecucao(execucaoId))!.situacao;
    }
    expect(situacao).toBe('CONCLUIDA');
    // The finished run released the month: the next start is accepted (and ends too).
    expect(await lerTrava(mes)).toBeNull();
    const outra = await call('/api/v1/faturamento-mensal/execucoes', { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ mes }) });
    expect(outra.status).toBe(202);
    const outraId = (outra.body as { execucaoId: string }).execucaoId;
    for (let i = 0; i < 120 && (await lerExecucao(outraId))!.situacao === 'EM_ANDAMENTO'; i++) await new Promise((r) => setTimeout(r, 500));
    expect((await lerExecucao(outraId))!.situacao).toBe('CONCLUIDA');
  }, 180_000);

  it('a run whose execution is gone (the twin was killed mid-run) holds nothing: the next start ends it as FALHA and runs at once (issue 42)', async () => {
    const token = await tokenFor(admin);
    // As a start left it when its process died: the run recorded with the month's lock a minute ago, its execution unknown to Step Functions.
    const morta = { execucaoId: randomUUID(), mes, origem: 'admin' as const, iniciadaPor: 'Admin', iniciadaEm: new Date(Date.now() - 61_000).toISOString(), situacao: 'EM_ANDAMENTO' as const };
    expect(await criarExecucao(morta, Date.now() + 3_600_000)).toBe(true);
    // Recorded over a minute ago and its execution unknown: ended, and this start runs.
    const recente = await call('/api/v1/faturamento-mensal/execucoes', { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ mes }) });
    expect(recente.status).toBe(202);
    expect(await lerExecucao(morta.execucaoId)).toMatchObject({ situacao: 'FALHA', erro: expect.stringContaining('interrompida') });
    const { execucaoId } = recente.body as { execucaoId: string };
    expect(await lerTrava(mes)).toMatchObject({ execucaoId });
    for (let i = 0; i < 120 && (await lerExecucao(execucaoId))!.situacao === 'EM_ANDAMENTO'; i++) await new Promise((r) => setTimeout(r, 500));
    expect((await lerExecucao(execucaoId))!.situacao).toBe('CONCLUIDA');
  }, 180_000);

  it('a scheduled run is judged by its execution\'s name, which its first step records: gone, the next start ends it; recorded before the name, it keeps its lock (issue 42)', async () => {
    const token = await tokenFor(admin);
    const iniciar = () => call('/api/v1/faturamento-mensal/execucoes', { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ mes }) });
    // Without a name (a run recorded before the field): only its lock's expiry frees the month.
    const antiga = { execucaoId: randomUUID(), mes, origem: 'agendamento' as const, iniciadaPor: 'EventBridge Scheduler', iniciadaEm: new Date(Date.now() - 120_000).toISOString(), situacao: 'EM_ANDAMENTO' as const };
    expect(await criarExecucao(antiga, Date.now() + 3_600_000)).toBe(true);
    expect(await iniciar()).toMatchObject({ status: 409, body: { error: 'faturamentoEmAndamento' } });
    await falhou(antiga.execucaoId, { Error: 'Error', Cause: 'teste' });
    // The scheduler's execution, named by it and recorded by ListShards, that Step Functions no longer runs.
    const { execucaoId } = await listarShards({ mes, execucao: `agendada-${randomUUID()}` }, new Date(Date.now() - 120_000));
    expect(await lerExecucao(execucaoId)).toMatchObject({ origem: 'agendamento', execucao: expect.stringMatching(/^agendada-/) });
    const recente = await iniciar();
    expect(recente.status).toBe(202);
    expect(await lerExecucao(execucaoId)).toMatchObject({ situacao: 'FALHA', erro: expect.stringContaining('interrompida') });
    const nova = (recente.body as { execucaoId: string }).execucaoId;
    for (let i = 0; i < 120 && (await lerExecucao(nova))!.situacao === 'EM_ANDAMENTO'; i++) await new Promise((r) => setTimeout(r, 500));
    expect((await lerExecucao(nova))!.situacao).toBe('CONCLUIDA');
  }, 180_000);

  it('a run recorded less than a minute ago is not judged by its execution: a start is refused while it holds the month', async () => {
    const token = await tokenFor(admin);
    const nova = { execucaoId: randomUUID(), mes, origem: 'admin' as const, iniciadaPor: 'Admin', iniciadaEm: new Date().toISOString(), situacao: 'EM_ANDAMENTO' as const };
    expect(await criarExecucao(nova, Date.now() + 3_600_000)).toBe(true);
    const recusada = await call('/api/v1/faturamento-mensal/execucoes', { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ mes }) });
    expect(recusada).toMatchObject({ status: 409, body: { error: 'faturamentoEmAndamento' } });
    await falhou(nova.execucaoId, { Error: 'Error', Cause: 'teste' });
    expect(await lerTrava(mes)).toBeNull();
  });

  it('a scheduled start of a month whose run is going records nothing and fails; a failed run releases the month (issue 27 item 1)', async () => {
    const { execucaoId } = await listarShards({ mes });
    await expect(listarShards({ mes })).rejects.toThrow('faturamentoEmAndamento');
    expect((await execucoesDoMes(mes)).filter((e) => e.situacao === 'EM_ANDAMENTO').map((e) => e.execucaoId)).toEqual([execucaoId]);
    await falhou(execucaoId, { Error: 'Error', Cause: 'teste' });
    expect(await lerTrava(mes)).toBeNull();
  });

  it('refuses the current month, an unknown run, and anyone but the admin', async () => {
    const token = await tokenFor(admin);
    const post = (body: unknown, t = token) =>
      call('/api/v1/faturamento-mensal/execucoes', { method: 'POST', headers: { ...bearer(t), 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(await post({ mes: monthOf(new Date()) })).toMatchObject({ status: 400, body: { error: 'faturamentoMesInvalido', message: 'Só é possível faturar um mês já encerrado.' } });
    expect((await post({ mes: '2026-13' })).status).toBe(400);
    expect((await call(`/api/v1/faturamento-mensal/execucoes/${randomUUID()}`, { headers: bearer(token) })).status).toBe(404);
    const cliente = await tokenFor({ userId: 'fat-cli', name: 'Cliente', tipo: 'C', roles: ['cliente'], clienteId: c.banda.clienteId });
    expect((await post({ mes }, cliente)).status).toBe(403);
  });

  it('re-prices an open invoice only as an explicit, audited admin action on the revision seen', async () => {
    const token = await tokenFor(admin);
    const id = faturaIdDe(c.banda.clienteId, mes);
    const put = (body: unknown) =>
      call(`/api/v1/fatura/${id}/recalcular`, { method: 'PUT', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const feito = await put({ revisao: 1, justificativa: 'Correção da tarifa do serviço 9' });
    expect(feito).toMatchObject({ status: 200, body: { revisao: 2, valorTotal: 750_00 } });
    expect(await put({ revisao: 1, justificativa: 'Outra vez, da mesma revisão' })).toMatchObject({ status: 409, body: { error: 'faturaAlterada' } });
    const audit = await reprecificacoesDaFatura(id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ por: admin.name, justificativa: 'Correção da tarifa do serviço 9', revisaoAnterior: 1, antes: { valorTotal: 750_00 }, depois: { valorTotal: 750_00 } });
    expect(await fatura(c.banda.clienteId)).toMatchObject({ revisao: 2, atualizadaPor: admin.name, itens: esperado().banda.itens });
  });

  it('lists and details invoices: a client only its own, the admin every client but those in evaluation', async () => {
    const admToken = await tokenFor(admin);
    const cliToken = await tokenFor({ userId: 'fat-cli-acima', name: 'Cliente', tipo: 'C', roles: ['cliente'], clienteId: c.acima.clienteId });
    const q = (params: Record<string, string>) => `/api/v1/fatura?${new URLSearchParams({ dataInicio: mes, dataFim: mes, perPage: '100', ...params }).toString()}`;

    const proprias = await call(q({}), { headers: bearer(cliToken) });
    expect(proprias.status).toBe(200);
    expect(proprias.body).toEqual({
      items: [
        {
          id: faturaIdDe(c.acima.clienteId, mes),
          mes: mm,
          ano,
          valorTotal: 750_60,
          situacao: 'A',
          cliente: { razaoSocial: c.acima.razaoSocial, cnpj: c.acima.cnpj },
          dae: null,
          pagamentosParciais: [],
          valorRecebido: 0,
          saldoDevedor: 750_60,
          valorExcedente: 0,
          nomePdfFile: null,
          nomeXmlFile: null,
        },
      ],
    });
    expect(await call(q({ cnpj: c.banda.cnpj }), { headers: bearer(cliToken) })).toMatchObject({ status: 403, body: { error: 'clienteNaoPermitido' } });
    expect((await call(q({ situacao: 'P' }), { headers: bearer(cliToken) })).body).toEqual({ items: [] });
    expect(await call(`/api/v1/fatura/${faturaIdDe(c.banda.clienteId, mes)}`, { headers: bearer(cliToken) })).toMatchObject({ status: 403, body: { error: 'clienteNaoPermitido' } });

    const detalhe = await call(`/api/v1/fatura/${faturaIdDe(c.acima.clienteId, mes)}`, { headers: bearer(cliToken) });
    expect(detalhe).toMatchObject({
      status: 200,
      body: {
        cliente: { cnpj: c.acima.cnpj, razaoSocial: c.acima.razaoSocial },
        mes: mm,
        ano,
        valorServicos: 750_60,
        valorAssinatura: 0,
        valorTotal: 750_60,
        dae: null,
        pagamento: null,
        pagamentosParciais: [],
        valorRecebido: 0,
        saldoDevedor: 750_60,
        valorExcedente: 0,
        acrescimoSobreSaldo: 0,
        recebimentos: [],
        itens: [{ idModuloServico: 5, descricao: 'Consulta Faturamento NF-e', uf: 52, sgUf: 'GO', requisicoes: 834, valorUnitario: 900, valorConsumo: 750_60 }],
      },
    });

    const todas = (await call(q({}), { headers: bearer(admToken) })).body as { items: { id: string }[] };
    const ids = todas.items.map((f) => f.id);
    for (const k of ['banda', 'acima', 'semUso', 'cancelado'] as const) expect(ids).toContain(faturaIdDe(c[k].clienteId, mes));
    expect((await call(q({ cnpj: c.cancelado.cnpj }), { headers: bearer(admToken) })).body).toMatchObject({ items: [{ valorTotal: 750_00 }] });
    expect(await call(q({ dataInicio: mes, dataFim: previousMonth(mes) }), { headers: bearer(admToken) })).toMatchObject({ status: 400, body: { error: 'dataInicioMaiorDataFim' } });

    // A client put (back) in evaluation: its invoices leave the admin's views; the client still sees them.
    const record = (await findCliente(c.semUso.clienteId))!;
    await putCliente({ ...record, situacao: 'E' });
    const semAvaliacao = ((await call(q({}), { headers: bearer(admToken) })).body as { items: { id: string }[] }).items.map((f) => f.id);
    expect(semAvaliacao).not.toContain(faturaIdDe(c.semUso.clienteId, mes));
    expect((await call(`/api/v1/fatura/${faturaIdDe(c.semUso.clienteId, mes)}`, { headers: bearer(admToken) })).status).toBe(404);
    const propria = await tokenFor({ userId: 'fat-cli-semuso', name: 'Cliente', tipo: 'C', roles: ['cliente'], clienteId: c.semUso.clienteId });
    expect((await call(q({}), { headers: bearer(propria) })).body).toMatchObject({ items: [{ valorTotal: 750_00 }] });
  });
});
