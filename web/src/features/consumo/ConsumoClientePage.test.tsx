import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { consumo } from '@plac/shared/contracts';
import { getSession, setReportProcessing } from '../../lib/session';
import { toast } from '../../lib/toast';
import { gerarRelatorio } from '../../lib/relatorio';
import { RelatorioConsumoBanner } from './RelatorioConsumoBanner';
import { CLIENTES, jsonResponse, makeConsumo, PATHS, pickOption, renderPage, SERVICOS, signInAs, stubApi } from '../../test/consumo';
import { bytesOf } from '../../test/inputs';

const LISTA = 'GET /api/v1/consumo/clientes';
const BASE = {
  'GET /api/v1/service': jsonResponse(200, SERVICOS),
  'GET /api/v1/cliente/get-all-cliente': jsonResponse(200, CLIENTES),
};
const RELATORIO = 'GET /api/v1/consumo/clientes/c-1/relatorio';
const ARQUIVO = 'GET /_s3/documents/consumo/c-1/relatorio.csv';
const JOB = 'GET /api/v1/consumo/relatorios/job-1';

/** A report job as the API answers it. */
const job = (j: Partial<consumo.RelatorioJob>): consumo.RelatorioJob => ({ id: 'job-1', estado: 'PROCESSANDO', linhas: 0, total: 0, nomeArquivo: 'r.csv', ...j });

afterEach(() => {
  vi.useRealTimers();
});

function captureDownload() {
  const saved: { name: string; blob?: Blob } = { name: '' };
  const createObjectURL = vi.fn((blob: Blob) => {
    saved.blob = blob;
    return 'blob:csv';
  });
  vi.stubGlobal('URL', Object.assign(class extends URL {}, { createObjectURL, revokeObjectURL: vi.fn() }));
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.name = this.download;
  });
  return saved;
}

describe('consumo-cliente', { timeout: 20_000 }, () => {
  it('lists every client with consumption this month, and each row expands into the summaries by service and UF and by service', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({ ...BASE, [LISTA]: jsonResponse(200, { mes: '2026-11', clientes: [makeConsumo()] }) });
    renderPage(PATHS.cliente);

    const row = (await screen.findByText('Banco Alfa S.A.')).closest('tr')!;
    expect([...row.querySelectorAll('td')].slice(1).map((td) => td.textContent)).toEqual(['Banco Alfa S.A.', '11.222.333/0001-81', 'ESF', 'Ativo', '10/03/2026', '5']);
    expect(screen.getByText('Consumo do mês 11/2026')).toBeTruthy();
    expect(Object.fromEntries(api.of('GET', '/api/v1/consumo/clientes')[0]!.query)).toEqual({ perPage: '10' });

    await userEvent.click(within(row).getByRole('button'));
    const porUf = await screen.findByRole('region', { name: 'Resumo por serviço e UF: Banco Alfa S.A.' });
    const linhas = (region: HTMLElement) => [...region.querySelectorAll('tbody tr')].filter((tr) => tr.querySelector('td'));
    expect(linhas(porUf).map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent))).toEqual([
      ['Consulta Fat-e por Chave de Acesso', 'CE', '1'],
      ['Consulta Fat-e por Chave de Acesso', 'PA', '2'],
      ['Consulta Faturamento NF-e', 'PA', '2'],
    ]);
    const porServico = screen.getByRole('region', { name: 'Resumo por serviço: Banco Alfa S.A.' });
    expect(linhas(porServico).map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent))).toEqual([
      ['Consulta Fat-e por Chave de Acesso', '3'],
      ['Consulta Faturamento NF-e', '2'],
    ]);
  });

  it('searches the client and service picked', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({ ...BASE, [LISTA]: jsonResponse(200, { mes: '2026-11', clientes: [] }) });
    renderPage(PATHS.cliente);
    expect(await screen.findByText('Nenhum registro encontrado')).toBeTruthy();
    await pickOption(screen.getByLabelText('Cliente'), 'Fomento Beta Ltda - 45.997.418/0001-53');
    await pickOption(screen.getByLabelText('Serviço'), 'Consulta Faturamento NF-e');
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    await waitFor(() => expect(api.of('GET', '/api/v1/consumo/clientes')).toHaveLength(2));
    expect(Object.fromEntries(api.of('GET', '/api/v1/consumo/clientes')[1]!.query)).toEqual({ idCliente: 'c-2', idModuloServico: '5', perPage: '10' });
  });

  it('pages every client by cursor, and an opened row asks for its month by service and UF (the list leaves it out)', async () => {
    signInAs(['sefaz_admin']);
    const semUf = ({ porServicoUf: _, ...linha }: ReturnType<typeof makeConsumo>) => linha;
    const api = stubApi({
      ...BASE,
      [LISTA]: (call: { query: URLSearchParams }) => {
        if (call.query.get('idCliente') === 'c-1') return jsonResponse(200, { mes: '2026-11', clientes: [makeConsumo()] });
        if (call.query.get('cursor') === 'pagina-2') return jsonResponse(200, { mes: '2026-11', clientes: [semUf(makeConsumo({ cliente: { ...makeConsumo().cliente, id: 'c-2', razaoSocial: 'Fomento Beta Ltda' } }))] });
        return jsonResponse(200, { mes: '2026-11', clientes: [semUf(makeConsumo())], nextCursor: 'pagina-2' });
      },
    });
    renderPage(PATHS.cliente);

    const row = (await screen.findByText('Banco Alfa S.A.')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button'));
    const porUf = await screen.findByRole('region', { name: 'Resumo por serviço e UF: Banco Alfa S.A.' });
    await waitFor(() => expect(porUf.querySelectorAll('tbody tr td').length).toBeGreaterThan(1));
    expect([...porUf.querySelectorAll('tbody tr')].filter((tr) => tr.querySelector('td')).map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent))).toEqual([
      ['Consulta Fat-e por Chave de Acesso', 'CE', '1'],
      ['Consulta Fat-e por Chave de Acesso', 'PA', '2'],
      ['Consulta Faturamento NF-e', 'PA', '2'],
    ]);
    expect(api.of('GET', '/api/v1/consumo/clientes').some((c) => c.query.get('idCliente') === 'c-1')).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Próxima' }));
    expect(await screen.findByText('Fomento Beta Ltda')).toBeTruthy();
    expect(screen.getByText('Página 2')).toBeTruthy();
    expect(api.of('GET', '/api/v1/consumo/clientes').at(-1)!.query.get('cursor')).toBe('pagina-2');
  });

  it('a client user has the own client fixed, and the selector is disabled', async () => {
    signInAs(['cliente'], { clienteId: 'c-1' });
    const api = stubApi({ 'GET /api/v1/service': jsonResponse(200, SERVICOS), [LISTA]: jsonResponse(200, { mes: '2026-11', clientes: [makeConsumo()] }) });
    renderPage(PATHS.cliente);
    await screen.findAllByText('Banco Alfa S.A.');
    const dropdown = screen.getByLabelText('Cliente').closest('.p-dropdown')!;
    expect(dropdown.classList.contains('p-disabled')).toBe(true);
    await waitFor(() => expect(dropdown.textContent).toContain('Banco Alfa S.A. - 11.222.333/0001-81'));
    expect(api.of('GET', '/api/v1/cliente/get-all-cliente')).toEqual([]);
    expect(api.of('GET', '/api/v1/consumo/clientes')[0]!.query.get('idCliente')).toBeNull();
  });

  it('the report needs a client, asks for confirmation, and saves the CSV the server built', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({
      ...BASE,
      [LISTA]: jsonResponse(200, { mes: '2026-11', clientes: [makeConsumo()] }),
      [RELATORIO]: jsonResponse(202, job({ estado: 'CONCLUIDO', linhas: 5, total: 5, nomeArquivo: 'relatorio-consumo-11222333000181-2026-11.csv', url: '/_s3/documents/consumo/c-1/relatorio.csv' })),
      [ARQUIVO]: new Response('\uFEFFRelatório de consumo', { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' } }),
    });
    const saved = captureDownload();
    renderPage(PATHS.cliente);
    await screen.findAllByText('Banco Alfa S.A.');

    await userEvent.click(screen.getByRole('button', { name: 'Relatório de consumo' }));
    expect(await screen.findByText('É necessário selecionar um cliente PLAC')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();

    await pickOption(screen.getByLabelText('Cliente'), 'Banco Alfa S.A. - 11.222.333/0001-81');
    await userEvent.click(screen.getByRole('button', { name: 'Relatório de consumo' }));
    expect(await screen.findByText('O relatório de consumo pode levar alguns minutos para ser gerado. Deseja continuar?')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Sim' }));

    await waitFor(() => expect(saved.name).toBe('relatorio-consumo-11222333000181-2026-11.csv'));
    expect(api.of('GET', '/api/v1/consumo/clientes/c-1/relatorio')).toHaveLength(1);
    expect(new TextDecoder().decode(await bytesOf(saved.blob!))).toContain('Relatório de consumo');
    await waitFor(() => expect(screen.queryByText('Processando relatório de consumo')).toBeNull());
  });
});

describe('the report banner', () => {
  it('shows the client and the elapsed mm:ss, refreshed every second while the report runs, and leaves when it is done', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(new Date('2026-11-23T12:00:00Z'));
    signInAs(['cliente'], { clienteId: 'c-1' });
    let responder: ((r: Response) => void) | null = null;
    stubApi({
      [RELATORIO]: () => jsonResponse(202, job({ estado: 'CONCLUIDO', linhas: 1, total: 1, nomeArquivo: 'r.csv', url: '/_s3/documents/consumo/c-1/relatorio.csv' })),
      [ARQUIVO]: () => new Response('x'),
    });
    const fetchApi = globalThis.fetch;
    vi.stubGlobal(
      'fetch',
      vi.fn((input: string, init?: RequestInit) =>
        input.includes('/_s3/') ? new Promise<Response>((resolve) => (responder = resolve)) : fetchApi(input, init),
      ),
    );
    const saved = captureDownload();

    const feito = gerarRelatorio({ id: 'c-1', razaoSocial: 'Banco Alfa S.A.' });
    render(<RelatorioConsumoBanner />);
    const banner = screen.getByRole('status');
    expect(banner.textContent).toContain('Processando relatório de consumo');
    expect(banner.textContent).toContain('Banco Alfa S.A.');
    expect(screen.getByLabelText('Tempo decorrido').textContent).toBe('00:00');

    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByLabelText('Tempo decorrido').textContent).toBe('00:01');
    act(() => vi.advanceTimersByTime(64_000));
    expect(screen.getByLabelText('Tempo decorrido').textContent).toBe('01:05');

    await act(async () => {
      // The API answer is in; the file is still on its way.
      await vi.waitFor(() => expect(responder).not.toBeNull());
      responder!(new Response('conteúdo'));
      await feito;
    });
    expect(saved.name).toBe('r.csv');
    expect(screen.queryByRole('status')).toBeNull();
    expect(getSession().reportProcessing).toBeNull();
  });

  it("shows the job's real progress as it is read, and saves the file when the job is done", async () => {
    signInAs(['cliente'], { clienteId: 'c-1' });
    const leituras = [job({ linhas: 4_000, total: 10_000 }), job({ linhas: 9_500, total: 10_000 }), job({ estado: 'CONCLUIDO', linhas: 10_000, total: 10_000, url: '/_s3/documents/consumo/c-1/relatorio.csv' })];
    const api = stubApi({
      [RELATORIO]: jsonResponse(202, job({ linhas: 0, total: 10_000 })),
      [JOB]: () => jsonResponse(200, leituras.shift()!),
      [ARQUIVO]: () => new Response('conteúdo'),
    });
    const saved = captureDownload();
    const feito = gerarRelatorio({ id: 'c-1', razaoSocial: 'Banco Alfa S.A.' });
    render(<RelatorioConsumoBanner />);
    await waitFor(() => expect(screen.getByLabelText('Progresso do relatório').textContent).toBe('0 de 10.000 linhas'));
    await waitFor(() => expect(screen.getByLabelText('Progresso do relatório').textContent).toBe('4.000 de 10.000 linhas'), { timeout: 3000 });
    expect((screen.getByLabelText('Linhas escritas') as HTMLProgressElement).value).toBe(4_000);
    await waitFor(() => expect(screen.getByLabelText('Progresso do relatório').textContent).toBe('9.500 de 10.000 linhas'), { timeout: 3000 });
    await act(async () => {
      expect(await feito).toBe(true);
    });
    expect(saved.name).toBe('r.csv');
    expect(api.of('GET', '/api/v1/consumo/relatorios/job-1')).toHaveLength(3);
    expect(screen.queryByRole('status')).toBeNull();
  }, 10_000);

  it('a job that fails ends with the toast, without a download', async () => {
    signInAs(['cliente'], { clienteId: 'c-1' });
    const error = vi.spyOn(toast, 'error');
    stubApi({ [RELATORIO]: jsonResponse(202, job({ total: 3 })), [JOB]: () => jsonResponse(200, job({ estado: 'FALHA', linhas: 1, total: 3 })) });
    const saved = captureDownload();
    const feito = gerarRelatorio({ id: 'c-1', razaoSocial: 'Banco Alfa S.A.' });
    render(<RelatorioConsumoBanner />);
    await act(async () => {
      expect(await feito).toBe(false);
    });
    expect(error).toHaveBeenCalledWith('Erro ao gerar relatório de consumo');
    expect(saved.name).toBe('');
    expect(screen.queryByRole('status')).toBeNull();
  }, 10_000);

  it('leaves on failure too, with the toast "Erro ao gerar relatório de consumo"', async () => {
    signInAs(['cliente'], { clienteId: 'c-1' });
    const error = vi.spyOn(toast, 'error');
    stubApi({ [RELATORIO]: jsonResponse(500, { error: 'erroInterno', message: 'Ocorreu um erro interno, contate o administrador do sistema' }) });
    const feito = gerarRelatorio({ id: 'c-1', razaoSocial: 'Banco Alfa S.A.' });
    render(<RelatorioConsumoBanner />);
    expect(screen.getByRole('status').textContent).toContain('Banco Alfa S.A.');
    await act(async () => {
      expect(await feito).toBe(false);
    });
    expect(error).toHaveBeenCalledWith('Erro ao gerar relatório de consumo');
    expect(error).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it("the client's reports at their limit: the server's message, nothing followed", async () => {
    signInAs(['cliente'], { clienteId: 'c-1' });
    const error = vi.spyOn(toast, 'error');
    const texto = 'Este cliente já tem o máximo de relatórios em produção ao mesmo tempo (3). Aguarde a conclusão de um deles e tente novamente.';
    const api = stubApi({ [RELATORIO]: jsonResponse(429, { error: 'relatoriosEmAndamento', message: texto }) });
    await act(async () => {
      expect(await gerarRelatorio({ id: 'c-1', razaoSocial: 'Banco Alfa S.A.' })).toBe(false);
    });
    expect(error).toHaveBeenCalledWith(texto);
    expect(error).toHaveBeenCalledTimes(1);
    expect(api.calls.map((c) => c.path)).toEqual(['/api/v1/consumo/clientes/c-1/relatorio']);
  });

  it('a flag left in the session by a reload mid-report is cleared', () => {
    signInAs(['cliente'], { clienteId: 'c-1' });
    // As sessionStorage would restore it after a reload.
    setReportProcessing({ clienteNome: 'Banco Alfa S.A.', startedAt: Date.now() });
    render(<RelatorioConsumoBanner />);
    return waitFor(() => {
      expect(getSession().reportProcessing).toBeNull();
      expect(screen.queryByRole('status')).toBeNull();
    });
  });
});
