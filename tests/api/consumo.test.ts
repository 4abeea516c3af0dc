import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@plac/shared/access';
import { cnpjCheckDigits, foldText, formatDate, monthOf, previousMonth, todayInBahia } from '@plac/shared/domain';
import { putCliente } from '../../functions/clientes/store';
import { cobrarConsulta, registrarNaoEncontrada } from '../../functions/consumo/cobranca';
import { callAs } from './http';
import { aguardarRelatorio } from './relatorios';
import { headersOf } from './session';

/**
 * The consumption screens' API on the twin: charges and not-found look-ups recorded through the
 * metering service, read back through the routes, with the client's and the manager's fixed scope.
 */

const agora = new Date();
const mes = monthOf(agora);
const hoje = formatDate(todayInBahia());
const sufixo = randomUUID().slice(0, 8);

function novoCnpj(): string {
  const first12 = String(Math.floor(Math.random() * 1e12)).padStart(12, '0');
  return first12 + cnpjCheckDigits(first12);
}

const clienteA = { id: `consumo-a-${sufixo}`, cnpj: novoCnpj(), razao: `Banco Consumo A ${sufixo}` };
const clienteB = { id: `consumo-b-${sufixo}`, cnpj: novoCnpj(), razao: `Banco Consumo B ${sufixo}` };

const admin: Principal = { userId: 'consumo-admin', name: 'Admin Consumo', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const gestorPa: Principal = { userId: 'consumo-gestor', name: 'Gestor PA', tipo: 'S', roles: ['sefaz_gestor'], uf: 'PA' };
const usuarioA: Principal = { userId: 'consumo-cli-a', name: 'Cliente A', tipo: 'C', roles: ['cliente'], clienteId: clienteA.id };
const usuarioB: Principal = { userId: 'consumo-cli-b', name: 'Cliente B', tipo: 'C', roles: ['cliente'], clienteId: clienteB.id };
const monitorA: Principal = { userId: 'consumo-mon-a', name: 'Monitor A', tipo: 'C', roles: ['cliente_monitoramento'], clienteId: clienteA.id };

const get = (path: string, who: Principal) => callAs('GET', path, who);
const headersDe = headersOf;

async function criarCliente(c: { id: string; cnpj: string; razao: string }) {
  const now = new Date().toISOString();
  await putCliente({
    clienteId: c.id,
    cnpj: c.cnpj,
    razaoSocial: c.razao,
    razaoFolded: foldText(c.razao),
    tipoCliente: 'ESF',
    situacao: 'A',
    email: `${c.id}@consumo.test`,
    uf: 'BA',
    createdAt: now,
    updatedAt: now,
    updatedBy: 'teste',
  });
}

type ConsumoClientes = {
  mes: string;
  clientes: {
    cliente: { id: string; razaoSocial: string; cnpj: string; tipo: string; situacao: string };
    total: number;
    porServico: { idModuloServico: number; servico: string; requisicoes: number }[];
    porServicoUf: { idModuloServico: number; servico: string; uf: string; requisicoes: number }[];
  }[];
};

const chaveNaoEncontrada = `2926${Date.now()}`.padEnd(44, '7').slice(0, 44);

beforeAll(async () => {
  await criarCliente(clienteA);
  await criarCliente(clienteB);
  // Client A: 3 look-ups of service 1 (2 from PA, 1 from CE), 2 of service 5 from PA, one of them retried.
  const cobrancas = [
    { servico: 1, uf: 'PA', chave: '=cmd|calc', idempotencyKey: `a1-${sufixo}` },
    { servico: 1, uf: 'PA', chave: 'k2', idempotencyKey: `a2-${sufixo}` },
    { servico: 1, uf: 'CE', chave: 'k3', idempotencyKey: `a3-${sufixo}` },
    { servico: 5, uf: 'PA', chave: 'k4', idempotencyKey: `a4-${sufixo}` },
    { servico: 5, uf: 'PA', chave: 'k5', idempotencyKey: `a5-${sufixo}` },
    { servico: 5, uf: 'PA', chave: 'k5', idempotencyKey: `a5-${sufixo}` },
  ];
  for (const c of cobrancas) await cobrarConsulta({ clienteId: clienteA.id, agora, ...c });
  await cobrarConsulta({ clienteId: clienteB.id, servico: 2, uf: 'CE', chave: 'b1', agora });
  // Last month: 4 charges and 1 not-found, for the monitoring by month.
  const mesPassado = new Date(`${previousMonth(mes)}-15T15:00:00Z`);
  for (let i = 0; i < 4; i++) await cobrarConsulta({ clienteId: clienteA.id, servico: 1, uf: 'PA', chave: `p${i}`, agora: mesPassado });
  await registrarNaoEncontrada({ uf: 'PA', chnfe: `${chaveNaoEncontrada.slice(0, 40)}0000`, servico: 1, status: 'NAO_ENCONTRADA', clienteId: clienteA.id, cnpj: clienteA.cnpj, razaoSocial: clienteA.razao, agora: mesPassado });
  // Not found this month: two in PA, one in CE.
  await registrarNaoEncontrada({ uf: 'PA', chnfe: chaveNaoEncontrada, servico: 1, status: 'NAO_ENCONTRADA', clienteId: clienteA.id, cnpj: clienteA.cnpj, razaoSocial: clienteA.razao, agora });
  await registrarNaoEncontrada({ uf: 'PA', chnfe: `${chaveNaoEncontrada.slice(0, 43)}9`, servico: 2, status: 'CHAVE_INVALIDA', clienteId: clienteB.id, cnpj: clienteB.cnpj, razaoSocial: clienteB.razao, agora });
  await registrarNaoEncontrada({ uf: 'CE', chnfe: chaveNaoEncontrada, servico: 1, status: 'NAO_ENCONTRADA', clienteId: clienteA.id, cnpj: clienteA.cnpj, razaoSocial: clienteA.razao, agora });
});

/** Every page of the list of every client's consumption (admin), following nextCursor. */
async function todasAsPaginas(path: string): Promise<ConsumoClientes['clientes']> {
  const todos: ConsumoClientes['clientes'] = [];
  let cursor: string | undefined;
  for (let pagina = 0; pagina < 100; pagina++) {
    const { status, body } = await get(`${path}${path.includes('?') ? '&' : '?'}${cursor ? `cursor=${encodeURIComponent(cursor)}` : ''}`, admin);
    expect(status).toBe(200);
    const { clientes, nextCursor } = body as ConsumoClientes & { nextCursor?: string };
    todos.push(...clientes);
    if (!nextCursor) return todos;
    cursor = nextCursor;
  }
  throw new Error('more than 100 pages');
}

describe('consumption by client', () => {
  it('answers the month by service and by service and UF, each request counted once', async () => {
    const { status, body } = await get(`/api/v1/consumo/clientes?idCliente=${clienteA.id}`, admin);
    expect(status).toBe(200);
    const { clientes, mes: answered } = body as ConsumoClientes;
    expect(answered).toBe(mes);
    expect(clientes).toHaveLength(1);
    expect(clientes[0]).toEqual({
      cliente: expect.objectContaining({ id: clienteA.id, razaoSocial: clienteA.razao, cnpj: clienteA.cnpj, tipo: 'ESF', situacao: 'A' }),
      total: 5,
      porServico: [
        { idModuloServico: 1, servico: 'Consulta Fat-e por Chave de Acesso', requisicoes: 3 },
        { idModuloServico: 5, servico: 'Consulta Faturamento NF-e', requisicoes: 2 },
      ],
      porServicoUf: [
        { idModuloServico: 1, servico: 'Consulta Fat-e por Chave de Acesso', uf: 'CE', requisicoes: 1 },
        { idModuloServico: 1, servico: 'Consulta Fat-e por Chave de Acesso', uf: 'PA', requisicoes: 2 },
        { idModuloServico: 5, servico: 'Consulta Faturamento NF-e', uf: 'PA', requisicoes: 2 },
      ],
    });
  });

  it('filters by service, and without a client lists every client with consumption in the month', async () => {
    const servico5 = (await get(`/api/v1/consumo/clientes?idCliente=${clienteA.id}&idModuloServico=5`, admin)).body as ConsumoClientes;
    expect(servico5.clientes[0]).toMatchObject({ total: 2, porServico: [{ idModuloServico: 5, requisicoes: 2 }] });

    const todos = { clientes: await todasAsPaginas('/api/v1/consumo/clientes?perPage=50') };
    const meus = todos.clientes.filter((c) => c.cliente.id === clienteA.id || c.cliente.id === clienteB.id);
    expect(meus.map((c) => [c.cliente.razaoSocial, c.total])).toEqual([
      [clienteA.razao, 5],
      [clienteB.razao, 1],
    ]);
    const doServico2 = { clientes: await todasAsPaginas('/api/v1/consumo/clientes?idModuloServico=2&idCliente=') };
    expect(doServico2.clientes.some((c) => c.cliente.id === clienteA.id)).toBe(false);
    expect(doServico2.clientes.find((c) => c.cliente.id === clienteB.id)?.total).toBe(1);
  });

  it('every client of a month is listed a page at a time in name order, each once, with its month by service (issue 38)', async () => {
    // A month of its own: 12 clients with consumption, one of them with 40 look-ups over the shards.
    const mesProprio = '2025-02';
    const instante = new Date('2025-02-14T15:00:00Z');
    const clientes = Array.from({ length: 12 }, (_, i) => ({ id: `consumo-pg-${sufixo}-${i}`, cnpj: novoCnpj(), razao: `Banco Página ${sufixo} ${String(11 - i).padStart(2, '0')}` }));
    for (const c of clientes) await criarCliente(c);
    for (const c of clientes) await cobrarConsulta({ clienteId: c.id, servico: 1, uf: 'BA', chave: 'k', agora: instante });
    await Promise.all(Array.from({ length: 39 }, (_, i) => cobrarConsulta({ clienteId: clientes[0]!.id, servico: i % 2 === 0 ? 5 : 1, uf: i % 3 === 0 ? 'SP' : 'BA', chave: `m${i}`, agora: instante })));
    await cobrarConsulta({ clienteId: clientes[5]!.id, servico: 2, uf: 'PA', chave: 'so-servico-2', agora: instante });

    const primeira = await get(`/api/v1/consumo/clientes?mes=${mesProprio}&perPage=10`, admin);
    const corpo = primeira.body as ConsumoClientes & { nextCursor?: string };
    expect(corpo.clientes.filter((c) => c.cliente.id.startsWith(`consumo-pg-${sufixo}`))).toHaveLength(10);
    expect(corpo.nextCursor).toBeDefined();
    const meus = (await todasAsPaginas(`/api/v1/consumo/clientes?mes=${mesProprio}&perPage=10`)).filter((c) => c.cliente.id.startsWith(`consumo-pg-${sufixo}`));
    expect(meus.map((c) => c.cliente.razaoSocial)).toEqual(clientes.map((c) => c.razao).sort());
    const grande = meus.find((c) => c.cliente.id === clientes[0]!.id)!;
    expect(grande).toMatchObject({
      total: 40,
      porServico: [
        { idModuloServico: 1, requisicoes: 20 },
        { idModuloServico: 5, requisicoes: 20 },
      ],
    });
    // The list leaves the UF detail to the client's own answer, which holds it.
    expect(grande.porServicoUf).toBeUndefined();
    const dele = (await get(`/api/v1/consumo/clientes?mes=${mesProprio}&idCliente=${clientes[0]!.id}`, admin)).body as ConsumoClientes;
    expect(dele.clientes[0]!.porServicoUf.reduce((n, l) => n + l.requisicoes, 0)).toBe(40);
    // A service: only the clients that used it, with that service's figures.
    const doServico2 = (await todasAsPaginas(`/api/v1/consumo/clientes?mes=${mesProprio}&idModuloServico=2&perPage=10`)).filter((c) => c.cliente.id.startsWith(`consumo-pg-${sufixo}`));
    expect(doServico2.map((c) => [c.cliente.id, c.total])).toEqual([[clientes[5]!.id, 1]]);
    // A cursor is bound to its query; a client user has no list of every client.
    const outraConsulta = await get(`/api/v1/consumo/clientes?mes=${mesProprio}&perPage=25&cursor=${encodeURIComponent(corpo.nextCursor!)}`, admin);
    expect(outraConsulta).toMatchObject({ status: 400, body: { error: 'cursorInvalido' } });
    expect(((await get(`/api/v1/consumo/clientes?mes=${mesProprio}`, usuarioA)).body as ConsumoClientes).clientes.map((c) => c.cliente.id)).toEqual([clienteA.id]);
  });

  it('a client user sees only its own client: the own by default, another one refused', async () => {
    const own = (await get('/api/v1/consumo/clientes', usuarioA)).body as ConsumoClientes;
    expect(own.clientes.map((c) => [c.cliente.id, c.total])).toEqual([[clienteA.id, 5]]);
    const other = await get(`/api/v1/consumo/clientes?idCliente=${clienteB.id}`, usuarioA);
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ error: 'clienteNaoPermitido' });
    expect((await get(`/api/v1/consumo/clientes/${clienteB.id}/relatorio`, usuarioA)).status).toBe(403);
  });

  it('an unknown client is 404, a malformed id 400', async () => {
    expect((await get('/api/v1/consumo/clientes?idCliente=nao-existe-123', admin)).status).toBe(404);
    expect((await get('/api/v1/consumo/clientes?idCliente=a%20b', admin)).status).toBe(400);
    expect((await get('/api/v1/consumo/clientes?mes=2026-13', admin)).status).toBe(400);
  });
});

describe('the consumption report', () => {
  it('is a CSV of the month built on the server: each request, then the totals, formula-safe', async () => {
    const { job } = await aguardarRelatorio(await get(`/api/v1/consumo/clientes/${clienteA.id}/relatorio`, usuarioA), await headersDe(usuarioA));
    expect(job).toMatchObject({ estado: 'CONCLUIDO', nomeArquivo: `relatorio-consumo-${clienteA.cnpj}-${mes}.csv`, linhas: 5, total: 5 });
    const answer = job as { nomeArquivo: string; url: string };
    const file = await fetch(answer.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('text/csv');
    expect(file.headers.get('content-disposition')).toContain(`attachment; filename="${answer.nomeArquivo}"`);
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).split('\r\n');
    expect(lines.slice(0, 6)).toEqual(['Relatório de consumo', `Cliente;${clienteA.razao}`, expect.stringMatching(/^CNPJ;\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}$/), `Mês;${mes.slice(5)}/${mes.slice(0, 4)}`, '', 'Data/Hora;Serviço;UF;Chave;Requisição']);
    const detalhe = lines.slice(6, 11);
    expect(detalhe).toHaveLength(5);
    expect(detalhe.every((l) => /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2};/.test(l))).toBe(true);
    expect(detalhe.find((l) => l.includes('cmd'))).toContain(`;'=cmd|calc;a1-${sufixo}`);
    expect(lines.slice(11)).toEqual([
      '',
      'Serviço;UF;Requisições',
      'Consulta Fat-e por Chave de Acesso;CE;1',
      'Consulta Fat-e por Chave de Acesso;PA;2',
      'Consulta Faturamento NF-e;PA;2',
      'Total;;5',
    ]);
  });

  it('of one service only, when asked', async () => {
    const { job } = await aguardarRelatorio(await get(`/api/v1/consumo/clientes/${clienteA.id}/relatorio?idModuloServico=5`, admin), await headersDe(admin));
    expect(job).toMatchObject({ estado: 'CONCLUIDO', nomeArquivo: `relatorio-consumo-${clienteA.cnpj}-${mes}-servico-5.csv`, linhas: 2, total: 2 });
  });

  it('its job is read by its client and an administrator only', async () => {
    const answer = await get(`/api/v1/consumo/clientes/${clienteA.id}/relatorio`, usuarioA);
    const { job } = await aguardarRelatorio(answer, await headersDe(usuarioA));
    expect((await get(`/api/v1/consumo/relatorios/${job.id}`, admin)).status).toBe(200);
    expect(await get(`/api/v1/consumo/relatorios/${job.id}`, usuarioB)).toMatchObject({ status: 403, body: { error: 'clienteNaoPermitido' } });
    expect((await get(`/api/v1/consumo/relatorios/${job.id}`, monitorA)).status).toBe(403);
    expect((await get('/api/v1/consumo/relatorios/nao-existe', admin)).status).toBe(404);
    expect((await get('/api/v1/consumo/relatorios/a%20b', admin)).status).toBe(400);
  });
});

describe('the consumption report, requested once (issue 38)', () => {
  it('an identical request answers the same job while it runs and once done; another service or month is another job', async () => {
    const primeiro = await get(`/api/v1/consumo/clientes/${clienteB.id}/relatorio`, usuarioB);
    const segundo = await get(`/api/v1/consumo/clientes/${clienteB.id}/relatorio`, usuarioB);
    expect(primeiro.status).toBe(202);
    expect((segundo.body as { id: string }).id).toBe((primeiro.body as { id: string }).id);
    const { job } = await aguardarRelatorio(primeiro, await headersDe(usuarioB));
    // Done and fresh: answered as it is (the administrator asking the same is the same request).
    const depois = await get(`/api/v1/consumo/clientes/${clienteB.id}/relatorio`, admin);
    expect(depois.body).toMatchObject({ id: job.id, estado: 'CONCLUIDO' });
    const outroServico = await get(`/api/v1/consumo/clientes/${clienteB.id}/relatorio?idModuloServico=2`, usuarioB);
    const outroMes = await get(`/api/v1/consumo/clientes/${clienteB.id}/relatorio?mes=${previousMonth(mes)}`, usuarioB);
    const ids = [job.id, (outroServico.body as { id: string }).id, (outroMes.body as { id: string }).id];
    expect(new Set(ids).size).toBe(3);
    await aguardarRelatorio(outroServico, await headersDe(usuarioB));
    await aguardarRelatorio(outroMes, await headersDe(usuarioB));
  });

  it('a client has at most 3 in production: a 4th is refused (429), and runs once a place is free (a job that stopped gives its place and fails)', async () => {
    const jobs = await import('../../functions/consumo/relatorio-job-store');
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    // Three reports of the client still running (written as the report job records them).
    const emProducao = [0, 1, 2].map((i) => `teste-em-producao-${sufixo}-${i}`);
    const registro = (jobId: string, criadoEm: Date) => ({
      jobId, tipo: 'consumo' as const, clienteId: clienteA.id, mes, chave: `consumo/${clienteA.id}/${jobId}/x.csv`, nomeArquivo: 'x.csv',
      contentType: 'text/csv', estado: 'PROCESSANDO' as const, passo: 0, tentativa: 1, linhas: 0, total: 0, progresso: '{}', criadoEm: criadoEm.toISOString(), expiresAt,
    });
    for (const jobId of emProducao) {
      expect(await jobs.criarJob(registro(jobId, new Date()))).toBe(true);
      expect(await jobs.ocuparVaga(clienteA.id, jobId, 3, expiresAt)).toBe(true);
    }
    const recusado = await get(`/api/v1/consumo/clientes/${clienteA.id}/relatorio?mes=${previousMonth(previousMonth(mes))}`, usuarioA);
    expect(recusado).toMatchObject({ status: 429, body: { error: 'relatoriosEmAndamento', message: 'Este cliente já tem o máximo de relatórios em produção ao mesmo tempo (3). Aguarde a conclusão de um deles e tente novamente.' } });
    // One of them has written no step for 20 minutes (its process died): the same request runs now, and that job is failed.
    await jobs.marcarFalha(emProducao[1]!, 'teste');
    expect(await jobs.criarJob(registro(emProducao[1]!, new Date(Date.now() - 20 * 60_000)))).toBe(true);
    const aceito = await get(`/api/v1/consumo/clientes/${clienteA.id}/relatorio?mes=${previousMonth(previousMonth(mes))}`, usuarioA);
    const { job } = await aguardarRelatorio(aceito, await headersDe(usuarioA));
    expect(job.estado).toBe('CONCLUIDO');
    expect(await jobs.lerJob(emProducao[1]!)).toMatchObject({ estado: 'FALHA', erro: expect.stringContaining('parado') });
    for (const jobId of emProducao) await jobs.marcarFalha(jobId, 'teste');
  });
});

describe('consumption by UF', () => {
  it('sums every client of the UF for the service; UF and service are both required', async () => {
    const { status, body } = await get('/api/v1/consumo/ufs?uf=CE&idModuloServico=2', admin);
    expect(status).toBe(200);
    const itens = (body as { itens: { uf: string; servico: string; requisicoes: number }[] }).itens;
    expect(itens).toHaveLength(1);
    expect(itens[0]).toMatchObject({ uf: 'CE', idModuloServico: 2, servico: 'Consulta Fat-e por Composição de Dados' });
    expect(itens[0]!.requisicoes).toBeGreaterThanOrEqual(1);

    const antes = ((await get('/api/v1/consumo/ufs?uf=AM&idModuloServico=7', admin)).body as { itens: { requisicoes: number }[] }).itens[0]?.requisicoes ?? 0;
    await cobrarConsulta({ clienteId: clienteB.id, servico: 7, uf: 'AM', chave: 'x' });
    await cobrarConsulta({ clienteId: clienteA.id, servico: 7, uf: 'AM', chave: 'y' });
    const depois = ((await get('/api/v1/consumo/ufs?uf=am&idModuloServico=7', admin)).body as { itens: { requisicoes: number }[] }).itens[0]!.requisicoes;
    expect(depois - antes).toBe(2);

    const missing = await get('/api/v1/consumo/ufs', admin);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ errors: { uf: ['O campo UF de Origem é obrigatório.'], idModuloServico: ['O campo Serviço é obrigatório.'] } });
  });

  it('a manager reaches only the own UF', async () => {
    expect((await get('/api/v1/consumo/ufs?uf=PA&idModuloServico=1', gestorPa)).status).toBe(200);
    const other = await get('/api/v1/consumo/ufs?uf=CE&idModuloServico=1', gestorPa);
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ error: 'acessoNegado' });
  });
});

describe('the not-found look-ups', () => {
  const periodo = `dataInicio=${encodeURIComponent(hoje)}&dataFim=${encodeURIComponent(hoje)}`;

  it('lists a UF’s look-ups of the period with their columns, filtered by key and status', async () => {
    const { status, body } = await get(`/api/v1/consumo/nao-encontradas?uf=PA&${periodo}&chnfe=${chaveNaoEncontrada.slice(0, 30)}`, admin);
    expect(status).toBe(200);
    const page = body as { items: Record<string, unknown>[]; nextCursor?: string };
    // No counter holds the total: none is answered.
    expect(page).not.toHaveProperty('total');
    expect(page.nextCursor).toBeUndefined();
    expect(page.items).toHaveLength(2);
    expect(page.items.map((i) => [i.chnfe, i.status, i.razao_social])).toEqual(
      expect.arrayContaining([
        [chaveNaoEncontrada, 'NAO_ENCONTRADA', clienteA.razao],
        [`${chaveNaoEncontrada.slice(0, 43)}9`, 'CHAVE_INVALIDA', clienteB.razao],
      ]),
    );
    expect(page.items.find((i) => i.chnfe === chaveNaoEncontrada)).toMatchObject({
      uf: 'PA',
      servico: 'Consulta Fat-e por Chave de Acesso',
      statusDescricao: 'Não encontrada',
      cnpj: clienteA.cnpj,
    });
    const invalidas = (await get(`/api/v1/consumo/nao-encontradas?uf=PA&${periodo}&chnfe=${chaveNaoEncontrada.slice(0, 30)}&status=CHAVE_INVALIDA`, admin)).body as { items: unknown[] };
    expect(invalidas.items).toHaveLength(1);
    const lastMonth = (await get(`/api/v1/consumo/nao-encontradas?uf=PA&${periodo}&chnfe=${chaveNaoEncontrada.slice(0, 40)}0000`, admin)).body as { items: unknown[] };
    expect(lastMonth.items).toHaveLength(0);
  });

  it('pages, and refuses the date rules and a manager’s other UF in the catalogue’s words', async () => {
    const first = (await get(`/api/v1/consumo/nao-encontradas?uf=PA&${periodo}&chnfe=${chaveNaoEncontrada.slice(0, 30)}&perPage=10`, admin)).body as { items: unknown[]; nextCursor?: string };
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).toBeUndefined();
    expect((await get(`/api/v1/consumo/nao-encontradas?uf=PA&${periodo}&perPage=12`, admin)).body).toMatchObject({ errors: { perPage: ['Tamanho de página inválido.'] } });
    const invertida = await get('/api/v1/consumo/nao-encontradas?uf=PA&dataInicio=10/11/2026&dataFim=01/11/2026', admin);
    expect(invertida.body).toMatchObject({ error: 'dataInicioMaiorDataFim', message: 'Data Início maior que Data Fim.' });
    const longa = await get('/api/v1/consumo/nao-encontradas?uf=PA&dataInicio=01/01/2026&dataFim=01/11/2026', admin);
    expect(longa.body).toMatchObject({ error: 'faixaDataInvalida' });
    const semDatas = await get('/api/v1/consumo/nao-encontradas?uf=PA', admin);
    expect(semDatas.body).toEqual({ errors: { dataInicio: ['O campo Data Início é obrigatório'], dataFim: ['O campo Data Fim é obrigatório'] } });
    expect((await get(`/api/v1/consumo/nao-encontradas?uf=CE&${periodo}`, gestorPa)).status).toBe(403);
    expect((await get(`/api/v1/consumo/nao-encontradas?uf=PA&${periodo}`, gestorPa)).status).toBe(200);
  });

  it('offers the statuses a look-up is recorded with', async () => {
    expect((await get('/api/v1/consumo/nao-encontradas/status', gestorPa)).body).toEqual([
      { value: 'NAO_ENCONTRADA', label: 'Não encontrada' },
      { value: 'CHAVE_INVALIDA', label: 'Chave inválida' },
    ]);
  });
});

describe('consumption monitoring', () => {
  type Serie = { cliente: { id: string; razaoSocial: string }; pontos: string[]; sucesso: number[]; erro: number[] };

  it('by month: the last 12 months ending this one, charged requests and not-found look-ups', async () => {
    const { status, body } = await get(`/api/v1/consumo/monitoramento?idCliente=${clienteA.id}`, admin);
    expect(status).toBe(200);
    const serie = body as Serie;
    expect(serie.cliente).toEqual({ id: clienteA.id, razaoSocial: clienteA.razao });
    expect(serie.pontos).toHaveLength(12);
    expect(serie.pontos.at(-1)).toBe(mes);
    expect(serie.pontos.at(-2)).toBe(previousMonth(mes));
    // This month: 5 charged (+ the AM ones of the UF test, when it ran first) and 2 not found (PA, CE).
    expect(serie.sucesso.at(-1)).toBeGreaterThanOrEqual(5);
    expect(serie.erro.at(-1)).toBe(2);
    expect(serie.sucesso.at(-2)).toBe(4);
    expect(serie.erro.at(-2)).toBe(1);
    expect(serie.sucesso.slice(0, 10)).toEqual(Array(10).fill(0));
  });

  it('by day of a month, in Bahia days', async () => {
    const serie = (await get(`/api/v1/consumo/monitoramento?idCliente=${clienteA.id}&modo=dia&mes=${previousMonth(mes)}`, admin)).body as Serie;
    expect(serie.pontos[0]).toBe(`${previousMonth(mes)}-01`);
    const dia15 = serie.pontos.indexOf(`${previousMonth(mes)}-15`);
    expect(serie.sucesso[dia15]).toBe(4);
    expect(serie.erro[dia15]).toBe(1);
    expect(serie.sucesso.reduce((a, b) => a + b, 0)).toBe(4);
  });

  it('a monitoring user is fixed to its own client; an administrator must pick one; the period rules', async () => {
    const own = (await get('/api/v1/consumo/monitoramento', monitorA)).body as Serie;
    expect(own.cliente.id).toBe(clienteA.id);
    const other = await get(`/api/v1/consumo/monitoramento?idCliente=${clienteB.id}`, monitorA);
    expect(other).toMatchObject({ status: 403, body: { error: 'clienteNaoPermitido' } });
    expect((await get('/api/v1/consumo/monitoramento', admin)).body).toMatchObject({ error: 'clientePlacObrigatorio' });
    expect((await get(`/api/v1/consumo/monitoramento?idCliente=${clienteA.id}&mesInicio=2026-05&mesFim=2026-01`, admin)).body).toMatchObject({ error: 'dataInicioMaiorDataFim' });
    expect((await get(`/api/v1/consumo/monitoramento?idCliente=${clienteA.id}&mesInicio=2025-01&mesFim=2026-01`, admin)).body).toMatchObject({ error: 'periodoMaximoDozeMeses' });
    expect((await get('/api/v1/consumo/monitoramento?idCliente=demo-esf', usuarioA)).status).toBe(403);
  });
});
