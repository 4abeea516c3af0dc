import { randomInt } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { Principal } from '@plac/shared/access';
import { cnpjCheckDigits, foldText, monthOf, previousMonth } from '@plac/shared/domain';
import { putCliente } from '../../functions/clientes/store';
import { gravarContadores } from '../../functions/consumo/store';
import { lerJob } from '../../functions/consumo/relatorio-job-store';
import { faturaIdDe } from '../../functions/faturamento/regras';
import { lerFatura } from '../../functions/faturamento/store';
import { bearer, tokenFor } from '../api/session';
import { api, killTwinProcess, report, restartTwinProcess, seconds, sleep, startTwinProcess, stopTwinProcess, type TwinProcess } from './twin-process';

/**
 * The monthly billing run killed mid-way (issue 42, "Done when"): a real `kill -9` of the twin while
 * an administrator's run of a month is between 20 % and 80 % of its clients, the twin started again on
 * the same data, and the month started again from the API. The start must be accepted within about a
 * minute (the dead run is judged by DescribeExecution once it is a minute old, instead of holding the
 * month's lock for the machine's hour), and the month must end with exactly one invoice per client,
 * each the same, to the centavo, as in a month with the same usage billed without a kill.
 */

const CLIENTES = 60;
const admin: Principal = { userId: 'faults-admin', name: 'Admin Falhas', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
// Two closed months inside the demo's current tariff version (infra/local/seed-tarifas.ts: from 5 months
// ago to next month), so the same usage has the same price in both.
const mesA = previousMonth(monthOf(new Date()));
const mesB = previousMonth(mesA);

interface ExecucaoView {
  execucaoId: string;
  situacao: string;
  totalClientes: number | null;
  feitos: number;
}

function novoCnpj(): string {
  const first12 = `${String(randomInt(10_000_000, 99_999_999))}0001`;
  return `${first12}${cnpjCheckDigits(first12)}`;
}

describe('a billing run killed mid-way (issue 42)', () => {
  let twin: TwinProcess | undefined;
  afterAll(() => stopTwinProcess(twin), 60_000);

  it('is started again within about a minute and leaves one invoice per client, equal to the month billed without a kill', async () => {
    // No schedules: no Sefaz load competing for the two cores, no scheduled billing run of its own.
    twin = await startTwinProcess({ PLAC_SCHEDULES: '0', PLAC_SEFAZ_BACKLOG: '5', PLAC_SEFAZ_TRICKLE_MS: '0' });
    // The twin's environment in this process: sessions and the seed are written to its DynamoDB.
    Object.assign(process.env, twin.env);
    const t = twin;

    // ---- the clients, with the same usage in both months (as tests/api/faturamento.test.ts seeds it) ----
    const clientes = Array.from({ length: CLIENTES }, (_, i) => ({ clienteId: `falha-${String(i).padStart(3, '0')}-${randomInt(1e9)}`, cnpj: novoCnpj(), i }));
    const now = new Date().toISOString();
    for (const c of clientes) {
      const razaoSocial = `CLIENTE FALHA ${c.i} ${c.cnpj.slice(0, 6)}`;
      await putCliente({
        clienteId: c.clienteId, cnpj: c.cnpj, razaoSocial, razaoFolded: foldText(razaoSocial), tipoCliente: 'ESF', situacao: 'A', email: `${c.clienteId}@teste.local`, uf: 'BA',
        logradouro: 'Rua 1', numero: '1', bairro: 'Centro', cidade: 'Salvador', cep: '40000000', telefone: '71999990000', nomeResponsavel: 'Resp',
        categoria: 'PRIVADA', createdAt: now, updatedAt: now, updatedBy: 'teste',
      });
      // Usage that differs per client (so a total taken from another client would show), in three
      // services and UFs; a few clients below the minimum subscription.
      const uso = (mes: string) => [
        { clienteId: c.clienteId, mes, servico: 5, uf: 'GO', shard: 0, requisicoes: c.i % 7 === 0 ? 10 + c.i : 700 + 13 * c.i },
        { clienteId: c.clienteId, mes, servico: 1, uf: 'BA', shard: 1, requisicoes: 100 + 37 * c.i },
        { clienteId: c.clienteId, mes, servico: 9, uf: 'SP', shard: 2, requisicoes: 2_000 + 51 * c.i },
      ];
      await gravarContadores([...uso(mesA), ...uso(mesB)]);
    }
    const nossos = new Map(clientes.map((c) => [c.cnpj, c.clienteId]));

    let token = await tokenFor(admin);
    const iniciar = (mes: string) =>
      api(t, '/api/v1/faturamento-mensal/execucoes', { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ mes }) });
    const progresso = async (id: string) => (await api(t, `/api/v1/faturamento-mensal/execucoes/${id}`, { headers: bearer(token) })).body as ExecucaoView;
    const ateTerminar = async (id: string, timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      let view = await progresso(id);
      while (view.situacao === 'EM_ANDAMENTO' && Date.now() < deadline) {
        await sleep(500);
        view = await progresso(id);
      }
      return view;
    };
    /** The month's invoices as the administrator's list shows them, every page. */
    const faturasDoMes = async (mes: string) => {
      const all: { id: string; valorTotal: number; cliente: { cnpj: string } }[] = [];
      let cursor: string | undefined;
      do {
        const q = new URLSearchParams({ dataInicio: mes, dataFim: mes, perPage: '100', ...(cursor ? { cursor } : {}) });
        const page = await api(t, `/api/v1/fatura?${q.toString()}`, { headers: bearer(token) });
        expect(page.status).toBe(200);
        const body = page.body as { items: typeof all; nextCursor?: string };
        all.push(...body.items);
        cursor = body.nextCursor;
      } while (cursor);
      return all.filter((f) => nossos.has(f.cliente.cnpj));
    };

    // ---- month B, billed without a kill: the reference ----
    const b = await iniciar(mesB);
    expect(b.status).toBe(202);
    const t0b = performance.now();
    expect(await ateTerminar((b.body as ExecucaoView).execucaoId, 300_000)).toMatchObject({ situacao: 'CONCLUIDA' });
    console.log(`month ${mesB} billed without a kill in ${seconds(t0b)} s`);
    const totaisB = new Map((await faturasDoMes(mesB)).map((f) => [f.cliente.cnpj, f.valorTotal]));
    expect(totaisB.size).toBe(CLIENTES);

    // ---- month A, killed between 20 % and 80 % of its clients ----
    const a = await iniciar(mesA);
    expect(a.status).toBe(202);
    const morta = (a.body as ExecucaoView).execucaoId;
    let visto: ExecucaoView | undefined;
    for (const deadline = Date.now() + 300_000; Date.now() < deadline; ) {
      const view = await progresso(morta);
      const fracao = view.totalClientes ? view.feitos / view.totalClientes : 0;
      if (fracao >= 0.2 && fracao <= 0.8) {
        visto = view;
        break;
      }
      expect(view.situacao, `the run ended before it could be killed between 20 % and 80 % (at ${view.feitos}/${view.totalClientes})`).toBe('EM_ANDAMENTO');
      await sleep(100);
    }
    expect(visto, 'the run never reached 20 %').toBeDefined();
    await killTwinProcess(t);
    console.log(`killed month ${mesA}'s run at ${visto!.feitos}/${visto!.totalClientes} clients`);

    // ---- restart, start month A again until accepted ----
    const tRestart = performance.now();
    twin = await restartTwinProcess(t);
    const r = twin;
    const tHealthy = performance.now();
    token = await tokenFor(admin);
    // What the killed run had written (on disk, read back now that DynamoDB Local is up again).
    const antes = (await Promise.all(clientes.map((c) => lerFatura(faturaIdDe(c.clienteId, mesA))))).filter((f) => f !== null).length;
    const recusas: number[] = [];
    let aceita: { status: number; body: unknown } | undefined;
    for (const deadline = Date.now() + 180_000; Date.now() < deadline; ) {
      const answer = await api(r, '/api/v1/faturamento-mensal/execucoes', {
        method: 'POST',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        body: JSON.stringify({ mes: mesA }),
      });
      if (answer.status === 202) {
        aceita = answer;
        break;
      }
      expect(answer).toMatchObject({ status: 409, body: { error: 'faturamentoEmAndamento' } });
      recusas.push(answer.status);
      await sleep(2_000);
    }
    const tAceita = performance.now();
    expect(aceita, 'the month was still refused 3 minutes after the restart').toBeDefined();
    const nova = (aceita!.body as ExecucaoView).execucaoId;
    const fim = await ateTerminar(nova, 600_000);
    const tFim = performance.now();
    expect(fim).toMatchObject({ situacao: 'CONCLUIDA', falhas: [] });

    // ---- the invariants ----
    const faturasA = await faturasDoMes(mesA);
    const porCliente = new Map<string, number[]>();
    for (const f of faturasA) porCliente.set(f.cliente.cnpj, [...(porCliente.get(f.cliente.cnpj) ?? []), f.valorTotal]);
    const perdidas = clientes.filter((c) => !porCliente.has(c.cnpj)).length;
    const duplicadas = [...porCliente.values()].reduce((n, v) => n + v.length - 1, 0);
    const diferentes = clientes.filter((c) => porCliente.get(c.cnpj)?.length === 1 && porCliente.get(c.cnpj)![0] !== totaisB.get(c.cnpj)).map((c) => c.cnpj);
    // The run killed is ended as FALHA by the start that took its place; none of the month's runs is left going.
    const execucoes = (await api(r, `/api/v1/faturamento-mensal/execucoes?mes=${mesA}`, { headers: bearer(token) })).body as ExecucaoView[];
    const presas = execucoes.filter((e) => e.situacao === 'EM_ANDAMENTO').length;
    expect(execucoes.find((e) => e.execucaoId === morta)).toMatchObject({ situacao: 'FALHA' });
    // Each invoice's detail ZIP (a report job queued by the run): those the killed run had left going
    // are taken over only after 15 minutes without progress (functions/consumo/relatorio-job.ts), by the
    // next request for them. Counted here, not asserted: that delay is the documented design.
    await sleep(30_000);
    const detalhes = await Promise.all(clientes.map(async (c) => (await lerJob(`det-${faturaIdDe(c.clienteId, mesA)}`))?.estado ?? 'AUSENTE'));
    const detalhesParados = detalhes.filter((e) => e !== 'CONCLUIDO');

    const linha = report({
      job: 'billing run (monthly invoices)',
      lost: perdidas,
      duplicated: duplicadas,
      stuck: presas,
      acceptedS: seconds(tRestart, tAceita),
      finishedS: seconds(tRestart, tFim),
      note:
        `${CLIENTES} clients, killed at ${visto!.feitos}/${visto!.totalClientes}, ${antes} invoices written before the kill, ` +
        `twin healthy after ${seconds(tRestart, tHealthy)} s, ${recusas.length} starts refused 409 first, ` +
        `${diferentes.length} totals different from the month without a kill, ${detalhesParados.length} detail ZIPs not done 30 s after the run${detalhesParados.length ? ` (${detalhesParados.join(', ')})` : ''}`,
    });
    expect(linha).toContain('lost 0, duplicated 0, stuck 0');
    expect(diferentes).toEqual([]);
    expect(faturasA).toHaveLength(CLIENTES);

  }, 1_500_000);
});
