import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@plac/shared/messages';
import { describe, expect, it } from 'vitest';
import { renderPages, signInAs } from '../../test/page-kit';
import { jsonResponse, stubApi } from '../users/testing';
import PagamentoServicoDetalhePage from './PagamentoServicoDetalhePage';
import PagamentoServicoPage from './PagamentoServicoPage';

const linha = (uf: string, situacaoTexto: string, total: number) => ({
  consumoId: '202605-c1',
  uf,
  mesReferencia: '2026-05',
  razaoSocial: 'Banco Alfa S.A.',
  cnpj: '11222333000181',
  valorServicos: total,
  valorAssinatura: 0,
  valorAcrescimo: 0,
  valorTotal: total,
  totalRequisicoes: 100,
  situacao: 'P',
  situacaoRateio: 'DISTRIBUIDO',
  situacaoTexto,
  dataRetornoBanco: '2026-06-10',
});
const pages = { 'consulta-pagamento-servico': <PagamentoServicoPage />, 'consulta-pagamento-servico-detalhe': <PagamentoServicoDetalhePage /> };
const csv = (text: string) => new Response(text, { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' } });

describe('consulta-pagamento-servico', { timeout: 30_000 }, () => {
  it('the admin: rows with the repasse status text, the per-Sefaz, FATEC and grand totals; the repasse dialog', async () => {
    signInAs(['sefaz_admin'], { uf: 'BA' });
    const api = stubApi({
      'GET /api/v1/pagamento-servico/clientes': jsonResponse(200, [{ id: 'c1', cnpj: '11222333000181', razaoSocial: 'Banco Alfa S.A.' }]),
      'GET /api/v1/pagamento-servico': jsonResponse(200, { linhas: [linha('BA', 'Pago - Distribuído', 600_01), linha('RO', 'Pago - Distribuído', 400_00)], totaisUf: [{ uf: 'BA', total: 600_01 }, { uf: 'RO', total: 400_00 }], totalFatec: 250_00, totalGeral: 1_000_01 }),
      'GET /api/v1/repasse/definitivo': jsonResponse(200, false),
      'GET /api/v1/repasse/situacao': jsonResponse(200, { simulacao: null, definitivo: null }),
      'GET /api/v1/repasse/previsao.csv': csv('\uFEFFUF;CNPJ\r\n'),
      'POST /api/v1/repasse/definitivo': jsonResponse(202, { execucaoId: 'x', situacao: 'EM_ANDAMENTO' }),
    });
    renderPages(pages, '/app/consulta/pagamentoServico');
    await userEvent.click(await screen.findByRole('button', { name: 'Pesquisar' }));
    const table = await screen.findByRole('table', { name: 'Pagamentos' });
    expect(await within(table).findAllByText('Pago - Distribuído')).toHaveLength(2);
    expect(within(table).getByText('Total SEFAZ BA')).toBeTruthy();
    expect(within(table).getByText('Total FATEC')).toBeTruthy();
    expect(within(table).getByText('Total Geral')).toBeTruthy();
    const q = api.of('GET', '/api/v1/pagamento-servico')[0]!.query;
    expect(q.get('uf')).toBeNull();
    expect(q.get('de')).toBe(q.get('ate'));

    await userEvent.click(screen.getByRole('button', { name: 'Previsão de Repasse' }));
    const dialog = await screen.findByRole('dialog', { name: 'Previsão de Repasse' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Baixar Previsão' }));
    expect(await screen.findByText(MESSAGES.semPrevisaoRateio)).toBeTruthy();
    await within(dialog).findByRole('button', { name: 'Gerar Simulação' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Gerar Rateio' }));
    expect(await screen.findByText(MESSAGES.confirmarRepasseDefinitivo)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Sim' }));
    await waitFor(() => expect(api.of('POST', '/api/v1/repasse/definitivo')).toHaveLength(1));
  });

  it('a manager: the UF fixed, no totals of the admin, no repasse dialog', async () => {
    signInAs(['sefaz_gestor'], { uf: 'BA' });
    const api = stubApi({
      'GET /api/v1/pagamento-servico/clientes': jsonResponse(200, []),
      'GET /api/v1/pagamento-servico': jsonResponse(200, { linhas: [linha('BA', 'Pago', 600_01)], totaisUf: [{ uf: 'BA', total: 600_01 }], totalFatec: null, totalGeral: null }),
    });
    renderPages(pages, '/app/consulta/pagamentoServico');
    expect(screen.queryByRole('button', { name: 'Previsão de Repasse' })).toBeNull();
    await userEvent.click(await screen.findByRole('button', { name: 'Pesquisar' }));
    const table = await screen.findByRole('table', { name: 'Pagamentos' });
    await within(table).findByText('Total SEFAZ BA');
    expect(within(table).queryByText('Total FATEC')).toBeNull();
    expect(api.of('GET', '/api/v1/pagamento-servico')[0]!.query.get('uf')).toBe('BA');
  });

  it('a client user: its own company fixed, no Sefaz totals of the admin, no repasse dialog', async () => {
    signInAs(['cliente'], { clienteId: 'c1' });
    const api = stubApi({
      'GET /api/v1/pagamento-servico/clientes': jsonResponse(200, [{ id: 'c1', razaoSocial: 'Banco Alfa S.A.', cnpj: '11222333000181' }]),
      'GET /api/v1/pagamento-servico': jsonResponse(200, { linhas: [linha('BA', 'Pago - Distribuído', 600_01)], totaisUf: [{ uf: 'BA', total: 600_01 }], totalFatec: null, totalGeral: null }),
    });
    renderPages(pages, '/app/consulta/pagamentoServico');
    expect(screen.queryByRole('button', { name: 'Previsão de Repasse' })).toBeNull();
    expect(screen.getByLabelText('Cliente').closest('.p-dropdown')!.classList.contains('p-disabled')).toBe(true);
    await userEvent.click(await screen.findByRole('button', { name: 'Pesquisar' }));
    const table = await screen.findByRole('table', { name: 'Pagamentos' });
    expect(await within(table).findByText('Pago - Distribuído')).toBeTruthy();
    expect(within(table).queryByText('Total FATEC')).toBeNull();
    expect(api.of('GET', '/api/v1/pagamento-servico')[0]!.query.get('idCliente')).toBe('c1');
  });

  it('the detail: lines per UF with totals, unit values with 2 decimals, Consumo Sumarizado for the admin', async () => {
    signInAs(['sefaz_admin'], { uf: 'BA' });
    stubApi({
      'GET /api/v1/pagamento-servico/202605-c1/BA': jsonResponse(200, {
        consumoId: '202605-c1',
        ufConsumo: 'BA',
        cliente: { cnpj: '11222333000181', razaoSocial: 'Banco Alfa S.A.' },
        mesReferencia: '2026-05',
        situacaoTexto: 'Pago - Distribuído',
        ufs: [{ uf: 'BA', itens: [{ descricao: 'Consulta Fat-e por Chave de Acesso', requisicoes: 4000, valorUnitario: 150, valor: 600_00 }], total: 600_00 }],
        sumarizado: [{ descricao: 'Consulta Fat-e por Chave de Acesso', requisicoes: 4000, valor: 600_00 }],
      }),
    });
    renderPages(pages, '/app/consulta/pagamentoServico/detalhe/202605-c1/BA');
    const t = await screen.findByRole('table', { name: 'Itens da UF BA' });
    expect(within(t).getByText('R$ 0,15')).toBeTruthy();
    expect(screen.getByText(/Total BA/)).toBeTruthy();
    expect(screen.getByText('Consumo Sumarizado')).toBeTruthy();
  });
});
