import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { UFS } from '@plac/shared/domain';
import { charts } from '../../test/fake-chart';
import { diaIso, hojeMais, mesAtualMais, mesIso, pontosAteHoje } from './model';
import { jsonResponse, makeResumo, nsu15, renderPage, SEFAZ, signInAs, stubApi } from '../../test/cargas';

const PATH = '/app/processamento/consultarProcessamento';
const MES = `GET /api/v1/processamento/historico/mes/${mesIso(mesAtualMais(0))}`;

const MONITORAMENTO = {
  resumo: [
    makeResumo(),
    makeResumo({
      cuf: 16,
      sigla: 'AP',
      updatedAt: '2026-05-10T08:00:00.000Z',
      cStat: '656',
      status: 'Consumo indevido: aguardando para consultar novamente',
      ultNSU: nsu15(150),
      carregado: 50,
      aguardarAte: '2026-05-10T14:30:00.000Z',
    }),
    makeResumo({
      cuf: 14,
      sigla: 'RR',
      updatedAt: null,
      cStat: '9501',
      status: 'UF não compartilha dados com a Sefaz Virtual',
      ultNSU: nsu15(0),
      nsuMax: nsu15(0),
      carregado: 100,
    }),
  ],
  sefaz: SEFAZ,
  interrompidas: { mais24h: ['AC'], mais12h: [], mais3h: ['AP'] },
  agora: '2026-05-10T14:00:00.000Z',
};

const HISTORICO = {
  dias: ['2026-05-01', '2026-05-02'],
  serie: [
    { sigla: 'BA', valores: [10, 20] },
    { sigla: 'PI', valores: [1, 2] },
  ],
  serie_erro: [
    { sigla: 'BA', valores: [0, 1] },
    { sigla: 'PI', valores: [1, 0] },
  ],
  sefaz: SEFAZ,
};

const cells = (row: HTMLElement) => [...row.querySelectorAll('td')].map((td) => td.textContent);

describe('consultar-processamento', { timeout: 20_000 }, () => {
  it('shows one summary row per Sefaz: last update, status with the wait, last and maximum NSU without zeros', async () => {
    charts.length = 0;
    signInAs(['cliente_monitoramento']);
    stubApi({ 'GET /api/v1/processamento/monitoramento': jsonResponse(200, MONITORAMENTO), [MES]: jsonResponse(200, HISTORICO) });
    renderPage(PATH);

    expect(await screen.findByRole('heading', { name: 'Processamento de Documentos', level: 1 })).toBeTruthy();
    const resumo = screen.getByRole('table', { name: 'Resumo Processamento' });
    await within(resumo).findByText('RR');
    const rows = within(resumo).getAllByRole('row');
    expect(cells(rows[1]!)).toEqual(['BA', '10/05/2026 10:05', 'Documento(s) localizado(s) para distribuição', '300', '300']);
    expect(cells(rows[2]!)).toEqual(['AP', '10/05/2026 05:00', 'Consumo indevido: aguardando para consultar novamenteAguardando até 11:30', '150', '300']);
    expect(within(rows[2]!).getByText('Aguardando até 11:30').closest('.p-tag')?.classList.contains('p-tag-warning')).toBe(true);
    expect(cells(rows[3]!)).toEqual(['RR', '—', 'UF não compartilha dados com a Sefaz Virtual', '0', '0']);
  });

  it('groups the stalled loads: AC over 24 hours, none over 12, AP over 3', async () => {
    signInAs(['sefaz_admin']);
    stubApi({ 'GET /api/v1/processamento/monitoramento': jsonResponse(200, MONITORAMENTO), [MES]: jsonResponse(200, HISTORICO) });
    renderPage(PATH);
    const panel = (await screen.findByRole('heading', { name: 'Cargas Interrompidas' })).closest('section')!;
    await waitFor(() => expect(within(panel).getByText('AC')).toBeTruthy());
    const grupo = (title: string) => within(panel).getByText(title).nextElementSibling!.textContent;
    expect(grupo('+ de 24 horas')).toBe('AC');
    expect(grupo('+ de 12 horas')).toBe('Nenhuma');
    expect(grupo('+ de 3 horas')).toBe('AP');
  });

  it('draws the loaded share as stacked bars on an image canvas, with the same numbers in a table shown on demand', async () => {
    charts.length = 0;
    signInAs(['sefaz_admin']);
    stubApi({ 'GET /api/v1/processamento/monitoramento': jsonResponse(200, MONITORAMENTO), [MES]: jsonResponse(200, HISTORICO) });
    renderPage(PATH);

    const canvas = await screen.findByRole('img', { name: /percentual carregado e pendente de 3 Sefaz/ });
    expect(canvas.tagName).toBe('CANVAS');
    expect(canvas.getAttribute('aria-label')).toContain('AP 50 %');
    await waitFor(() => expect(charts.find((c) => c.type === 'bar')?.data.labels).toEqual(['BA', 'AP', 'RR']));
    const bar = charts.find((c) => c.type === 'bar')!;
    expect(bar.data.datasets.map((d) => [d.label, d.data])).toEqual([
      ['Carregado', [100, 50, 100]],
      ['Pendente', [0, 50, 0]],
    ]);

    const card = canvas.closest('section')!;
    const toggle = within(card).getByRole('button', { name: 'Ver dados em tabela' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    const table = within(card).getByRole('table', { name: 'Percentual carregado e pendente por Sefaz' });
    // Hidden on screen, there for screen readers.
    expect(table.parentElement!.className).toBe('cargas-sr-only');
    await userEvent.click(toggle);
    expect(within(card).getByRole('button', { name: 'Ocultar dados em tabela' }).getAttribute('aria-expanded')).toBe('true');
    expect(table.parentElement!.className).toBe('cargas-chart-table');
    const rows = within(table).getAllByRole('row').map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Sefaz', 'Carregado', 'Pendente'],
      ['BA', '100 %', '0 %'],
      ['AP', '50 %', '50 %'],
      ['RR', '100 %', '0 %'],
    ]);
  });

  it('shows the month history (documents) summed over the Sefaz, and by day on request', async () => {
    charts.length = 0;
    signInAs(['sefaz_admin']);
    const dia = `GET /api/v1/processamento/historico/dia/${diaIso(hojeMais(-6))}/${diaIso(hojeMais(0))}`;
    const api = stubApi({
      'GET /api/v1/processamento/monitoramento': jsonResponse(200, MONITORAMENTO),
      [MES]: jsonResponse(200, HISTORICO),
      [dia]: jsonResponse(200, { ...HISTORICO, dias: ['2026-05-09', '2026-05-10'] }),
    });
    renderPage(PATH);

    const section = (await screen.findByRole('heading', { name: 'Histórico de Processamento' })).closest('section')!;
    await waitFor(() => expect(charts.find((c) => c.type === 'line')?.data.labels).toEqual(['01/05', '02/05']));
    expect(api.of('GET', MES.slice(4))[0]!.query.get('tipo')).toBe('documentos');
    expect(charts.find((c) => c.type === 'line')!.data.datasets.map((d) => [d.label, d.data])).toEqual([
      ['Carregados', [11, 22]],
      ['Erros', [1, 1]],
    ]);
    const table = within(section).getByRole('table', { name: /Histórico de processamento/ });
    expect(within(table).getAllByRole('row').map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent))).toEqual([
      ['Dia', 'Carregados', 'Erros'],
      ['01/05', '11', '1'],
      ['02/05', '22', '1'],
    ]);

    await userEvent.click(within(section).getByRole('button', { name: 'Por dia' }));
    await waitFor(() => expect(api.of('GET', dia.slice(4))).toHaveLength(1));
    await waitFor(() => expect(within(table).getByText('10/05')).toBeTruthy());
  });

  it("'Documentos' switches the whole screen to the transport stream (CT-e): monitor and history ask with fluxo=cte", async () => {
    signInAs(['sefaz_admin']);
    const cte = { ...MONITORAMENTO, resumo: [makeResumo({ ultNSU: nsu15(7), nsuMax: nsu15(9), carregado: 77.8 })] };
    const api = stubApi({
      'GET /api/v1/processamento/monitoramento': ({ query }) => jsonResponse(200, query.get('fluxo') === 'cte' ? cte : MONITORAMENTO),
      [MES]: jsonResponse(200, HISTORICO),
    });
    renderPage(PATH);

    const documentos = await screen.findByRole('group', { name: 'Documentos' });
    const nfe = within(documentos).getByRole('button', { name: 'Mercadorias (NF-e)' });
    const transporte = within(documentos).getByRole('button', { name: 'Transporte (CT-e)' });
    expect(nfe.getAttribute('aria-pressed')).toBe('true');
    expect(transporte.getAttribute('aria-pressed')).toBe('false');
    const resumo = screen.getByRole('table', { name: 'Resumo Processamento' });
    await within(resumo).findByText('RR');
    const monitor = () => api.of('GET', '/api/v1/processamento/monitoramento');
    expect(monitor()[0]!.query.get('fluxo')).toBe('nfe');
    await waitFor(() => expect(api.of('GET', MES.slice(4))[0]?.query.get('fluxo')).toBe('nfe'));

    await userEvent.click(transporte);
    expect(transporte.getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(monitor().map((c) => c.query.get('fluxo'))).toEqual(['nfe', 'cte']));
    await waitFor(() => expect(api.of('GET', MES.slice(4)).map((c) => c.query.get('fluxo'))).toEqual(['nfe', 'cte']));
    await waitFor(() => expect(within(resumo).queryByText('RR')).toBeNull());
    // The new stream's rows: the table is drawn in a deferred render (ListTable), after its loading state.
    await within(resumo).findByText('BA');
    const rows = within(resumo).getAllByRole('row');
    expect(rows).toHaveLength(2);
    expect(cells(rows[1]!)).toEqual(['BA', '10/05/2026 10:05', 'Documento(s) localizado(s) para distribuição', '7', '9']);
  });

  it('asks again every minute while open', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signInAs(['sefaz_admin']);
    const api = stubApi({ 'GET /api/v1/processamento/monitoramento': jsonResponse(200, MONITORAMENTO), [MES]: jsonResponse(200, HISTORICO) });
    renderPage(PATH);
    await waitFor(() => expect(api.of('GET', '/api/v1/processamento/monitoramento')).toHaveLength(1));
    await vi.advanceTimersByTimeAsync(60_000);
    await waitFor(() => expect(api.of('GET', '/api/v1/processamento/monitoramento')).toHaveLength(2));
  });
});

describe('consultar-processamento-evento', { timeout: 20_000 }, () => {
  it('reads the financial events monitor and history', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({ 'GET /api/v1/processamento/monitoramento/evento': jsonResponse(200, MONITORAMENTO), [MES]: jsonResponse(200, HISTORICO) });
    renderPage('/app/processamento/consultarProcEventoFinanceiro');
    expect(await screen.findByRole('heading', { name: 'Processamento de Eventos Financeiros', level: 1 })).toBeTruthy();
    await waitFor(() => expect(api.of('GET', MES.slice(4))[0]?.query.get('tipo')).toBe('eventos'));
    expect(await screen.findByText('AC')).toBeTruthy();
    expect(api.of('GET', '/api/v1/processamento/monitoramento/evento')[0]!.query.get('fluxo')).toBe('nfe');

    await userEvent.click(within(screen.getByRole('group', { name: 'Documentos' })).getByRole('button', { name: 'Transporte (CT-e)' }));
    await waitFor(() => expect(api.of('GET', '/api/v1/processamento/monitoramento/evento')[1]?.query.get('fluxo')).toBe('cte'));
    await waitFor(() => expect(api.of('GET', MES.slice(4))[1]?.query.get('fluxo')).toBe('cte'));
    expect(api.of('GET', MES.slice(4))[1]!.query.get('tipo')).toBe('eventos');
  });

  it('27 Sefaz: every UF label kept and turned upright; the month history stops at today, not plotted as zeros after it', async () => {
    charts.length = 0;
    signInAs(['sefaz_admin']);
    const resumo = UFS.map((u, i) => makeResumo({ cuf: 11 + i, sigla: u.uf, carregado: 100 }));
    const hoje = diaIso(hojeMais(0));
    const amanha = diaIso(hojeMais(1));
    stubApi({
      'GET /api/v1/processamento/monitoramento': jsonResponse(200, { ...MONITORAMENTO, resumo }),
      [MES]: jsonResponse(200, { ...HISTORICO, dias: [hoje, amanha], serie: [{ sigla: 'BA', valores: [5, 0] }], serie_erro: [{ sigla: 'BA', valores: [1, 0] }] }),
    });
    renderPage(PATH);
    await waitFor(() => expect(charts.find((c) => c.type === 'bar')?.data.labels).toHaveLength(27));
    expect(charts.find((c) => c.type === 'bar')!.options.scales.x.ticks).toMatchObject({ autoSkip: false, minRotation: 90 });
    await waitFor(() => expect(charts.find((c) => c.type === 'line')?.data.labels).toHaveLength(1));
    expect(charts.find((c) => c.type === 'line')!.data.datasets.map((d) => d.data)).toEqual([[5], [1]]);
  });

  it('pontosAteHoje: days and months up to today only', () => {
    expect(pontosAteHoje(['2026-11-25', '2026-11-26', '2026-11-27'], '2026-11-26')).toBe(2);
    expect(pontosAteHoje(['2026-10', '2026-11', '2026-12'], '2026-11-26')).toBe(2);
    expect(pontosAteHoje([], '2026-11-26')).toBe(0);
  });
});
