import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@plac/shared/messages';
import { describe, expect, it } from 'vitest';
import { diaIso, hojeMais, mesAtualMais, mesIso } from '../../lib/calendar';
import { renderPages, signInAs } from '../../test/page-kit';
import { jsonResponse, stubApi } from '../../test/api-stub';
import DashboardPage from './DashboardPage';

/** The dashboards (issue 28 item 6): the client's open and overdue invoices and prepaid balance; the administrator's month at a glance; each card's error state. */

const pages = { dashboard: <DashboardPage /> };
const anterior = mesIso(mesAtualMais(-1));
const [anoAnt, mesAnt] = anterior.split('-').map(Number) as [number, number];
const doisAtras = mesIso(mesAtualMais(-2));
const [ano2, mes2] = doisAtras.split('-').map(Number) as [number, number];

const fatura = (id: string, ano: number, mes: number, valorTotal: number, dtVencimento: string | null) => ({
  id,
  mes,
  ano,
  valorTotal,
  situacao: 'A',
  cliente: { razaoSocial: 'Banco Alfa S.A.', cnpj: '11222333000181' },
  dae: dtVencimento ? { urlDae: null, dtVencimento, valorPago: null } : null,
  pagamentosParciais: [],
  valorRecebido: 0,
  saldoDevedor: valorTotal,
  valorExcedente: 0,
  nomePdfFile: null,
  nomeXmlFile: null,
});
const ontem = diaIso(hojeMais(-1));
const emDezDias = diaIso(hojeMais(10));
const faturas = {
  items: [fatura(`${anoAnt}${String(mesAnt).padStart(2, '0')}-c1`, anoAnt, mesAnt, 236_64, emDezDias), fatura(`${ano2}${String(mes2).padStart(2, '0')}-c1`, ano2, mes2, 750_00, ontem)],
};
const projecao = { 'GET /api/v1/fatura-projetada': jsonResponse(404, { error: 'recursoNaoEncontrado', message: 'x' }) };

describe('the dashboards', { timeout: 30_000 }, () => {
  it('a client: its open invoices with due dates, the overdue one marked, a link to Faturas; its prepaid balance', async () => {
    signInAs(['cliente', 'cliente_imf'], { clienteId: 'c1' });
    const api = stubApi({
      ...projecao,
      'GET /api/v1/fatura': jsonResponse(200, faturas),
      'GET /api/v1/pagamento-antecipado/conta': jsonResponse(200, {
        cnpj: '11222333000181', razaoSocial: 'Banco Alfa S.A.', situacao: 'VIGENTE', valorContratado: 500_000_00, valorReserva: null, prazoConsumo: '2027-06-30', saldoAtual: 123_456_78, valores: [],
      }),
    });
    renderPages(pages, '/app');
    const tabela = await screen.findByRole('table', { name: 'Faturas em aberto' });
    const linhas = within(tabela).getAllByRole('row').slice(1).map((r) => r.textContent);
    // Earliest due first: the overdue one (due yesterday), then the one due in ten days.
    expect(linhas[0]).toContain('Vencida');
    expect(linhas[0]).toContain('R$ 750,00');
    expect(linhas[1]).toContain('A vencer');
    expect(linhas[1]).toContain('R$ 236,64');
    expect(screen.getByText(/2 em aberto, 1 vencida\(s\), devendo R\$\s986,64/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ver todas em Faturas' }).getAttribute('href')).toBe('/app/fatura/consultarFatura');
    expect(await screen.findByText(/R\$\s123\.456,78/)).toBeTruthy();
    const q = api.of('GET', '/api/v1/fatura')[0]!.query;
    expect(q.get('situacao')).toBe('A');
    expect(q.get('dataFim')).toBe(anterior);
  });

  it('a client: every page of its open invoices is read, and an invoice paid in part counts its balance (issue 37)', async () => {
    signInAs(['cliente'], { clienteId: 'c1' });
    const [primeira, segunda] = faturas.items;
    const parcial = { ...segunda!, valorRecebido: 500_00, saldoDevedor: 250_00, pagamentosParciais: [{ valorPago: 500_00, dataPagamento: ontem }] };
    const api = stubApi({
      ...projecao,
      'GET /api/v1/fatura': (call) => jsonResponse(200, call.query.get('cursor') === 'p2' ? { items: [parcial] } : { items: [primeira], nextCursor: 'p2' }),
    });
    renderPages(pages, '/app');
    expect(await screen.findByText(/2 em aberto, 1 vencida\(s\), devendo R\$\s486,64/)).toBeTruthy();
    expect(api.of('GET', '/api/v1/fatura').map((c) => c.query.get('cursor'))).toEqual([null, 'p2']);
  });

  it('a client without a prepaid account and with nothing open: no balance card, the empty sentence', async () => {
    signInAs(['cliente'], { clienteId: 'c1' });
    const api = stubApi({ ...projecao, 'GET /api/v1/fatura': jsonResponse(200, { items: [] }) });
    renderPages(pages, '/app');
    expect(await screen.findByText(/Nenhuma fatura em aberto nos últimos 12 meses/)).toBeTruthy();
    expect(screen.queryByText('Pagamento antecipado')).toBeNull();
    expect(api.of('GET', '/api/v1/pagamento-antecipado/conta')).toHaveLength(0);
  });

  it('a client: the invoices failing shows Serviço indisponível with a retry, not an empty list', async () => {
    signInAs(['cliente'], { clienteId: 'c1' });
    let chamadas = 0;
    stubApi({ ...projecao, 'GET /api/v1/fatura': () => (chamadas++ === 0 ? jsonResponse(503, { error: 'x' }) : jsonResponse(200, faturas)) });
    renderPages(pages, '/app');
    expect(await screen.findByText(MESSAGES.servicoIndisponivel)).toBeTruthy();
    expect(screen.queryByText(/Nenhuma fatura em aberto/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('table', { name: 'Faturas em aberto' })).toBeTruthy();
  });

  it('the administrator: the billing run, the overdue invoices, the repasse and the loads in alert', async () => {
    signInAs(['sefaz_admin'], { uf: 'BA' });
    const api = stubApi({
      ...projecao,
      'GET /api/v1/pagamento-servico/clientes': jsonResponse(200, []),
      'GET /api/v1/clientes/all': jsonResponse(200, []),
      'GET /api/v1/faturamento-mensal/execucoes': jsonResponse(200, [
        { execucaoId: 'e1', mes: anterior, origem: 'agendamento', iniciadaPor: 'agendamento', iniciadaEm: '2026-11-01T03:00:00.000Z', concluidaEm: '2026-11-01T03:05:00.000Z', situacao: 'CONCLUIDA', erro: null, totalClientes: 3, feitos: 3, emitidas: 2, jaEmitidas: 0, semFatura: 1, emAvaliacao: 0, falhas: [] },
      ]),
      'GET /api/v1/faturamento-mensal/vencidas': jsonResponse(200, { quantidade: 3, total: 1_234_56, vencimentoMaisAntigo: '2026-03-15' }),
      'GET /api/v1/repasse/situacao': jsonResponse(200, {
        simulacao: { execucaoId: 's1', situacao: 'CONCLUIDO', iniciadoEm: '2026-11-02T12:00:00.000Z', iniciadoPor: 'Ana', concluidoEm: '2026-11-02T12:01:00.000Z', erro: null },
        definitivo: null,
      }),
      'GET /api/v1/processamento/monitoramento': jsonResponse(200, { resumo: [], sefaz: [], interrompidas: { mais24h: ['SP'], mais12h: [], mais3h: ['RJ'] }, agora: '2026-11-26T06:00:00.000Z' }),
    });
    renderPages(pages, '/app');
    const faturamento = await screen.findByRole('region', { name: /Faturamento de/ });
    expect(await within(faturamento).findByText(/Concluído — iniciado em 01\/11\/2026/)).toBeTruthy();
    const vencidas = screen.getByRole('region', { name: 'Faturas vencidas' });
    expect(await within(vencidas).findByText(/3 fatura\(s\) vencida\(s\), somando R\$\s1\.234,56; a mais antiga venceu em 15\/03\/2026/)).toBeTruthy();
    const repasse = screen.getByRole('region', { name: /Repasse de/ });
    expect(await within(repasse).findByText(/Simulação: Concluído em 02\/11\/2026.*Repasse definitivo: não gerado/)).toBeTruthy();
    const cargas = screen.getByRole('region', { name: 'Cargas em alerta' });
    expect(await within(cargas).findByText(/SP \(mais de 24 h\), RJ \(mais de 3 h\)/)).toBeTruthy();
    expect(api.of('GET', '/api/v1/faturamento-mensal/execucoes')[0]!.query.get('mes')).toBe(anterior);
    expect(api.of('GET', '/api/v1/repasse/situacao')[0]!.query.get('mes')).toBe(anterior);
  });

  it('the administrator: a failing service shows its error in its own card, the others still shown', async () => {
    signInAs(['sefaz_admin'], { uf: 'BA' });
    stubApi({
      ...projecao,
      'GET /api/v1/clientes/all': jsonResponse(200, []),
      'GET /api/v1/faturamento-mensal/execucoes': jsonResponse(200, []),
      'GET /api/v1/faturamento-mensal/vencidas': jsonResponse(200, { quantidade: 0, total: 0, vencimentoMaisAntigo: null }),
      'GET /api/v1/repasse/situacao': jsonResponse(500, { error: 'erroInterno' }),
      'GET /api/v1/processamento/monitoramento': jsonResponse(200, { resumo: [], sefaz: [], interrompidas: { mais24h: [], mais12h: [], mais3h: [] }, agora: '2026-11-26T06:00:00.000Z' }),
    });
    renderPages(pages, '/app');
    const repasse = await screen.findByRole('region', { name: /Repasse de/ });
    expect(await within(repasse).findByText(MESSAGES.servicoIndisponivel)).toBeTruthy();
    expect(within(repasse).getByRole('button', { name: 'Tentar novamente' })).toBeTruthy();
    expect(await screen.findByText('Nenhuma carga interrompida.')).toBeTruthy();
    expect(await screen.findByText(/Não executado/)).toBeTruthy();
    expect(await screen.findByText(/Nenhuma fatura vencida/)).toBeTruthy();
  });
});
