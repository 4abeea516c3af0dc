import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@plac/shared/messages';
import { describe, expect, it, vi } from 'vitest';
import { renderPages, signInAs } from '../../test/page-kit';
import { jsonResponse, stubApi } from '../../test/api-stub';
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
      'GET /api/v1/pagamento-servico': jsonResponse(200, { linhas: [linha('BA', 'Pago - Distribuído', 600_01), linha('RO', 'Pago - Distribuído', 400_00)], totaisUf: [{ uf: 'BA', total: 600_01 }, { uf: 'RO', total: 400_00 }], totaisSefaz: [{ uf: 'BA', nome: 'SEFAZ BA', total: 420_01 }], beneficiados: [{ nome: 'FATEC', tipo: 'PARTICIPANTE', total: 250_00 }, { nome: 'Resíduo', tipo: 'RESIDUO', total: 330_00 }], totalFatec: 580_00, totalRepassado: 1_000_01, totalGeral: 1_000_01 }),
      'GET /api/v1/repasse/definitivo': jsonResponse(200, false),
      'GET /api/v1/repasse/situacao': jsonResponse(200, { simulacao: null, definitivo: null }),
      'GET /api/v1/repasse/execucoes': jsonResponse(200, []),
      'GET /api/v1/repasse/previsao.csv': csv('\uFEFFUF;CNPJ\r\n'),
      'POST /api/v1/repasse/definitivo': jsonResponse(202, { execucaoId: 'x', situacao: 'EM_ANDAMENTO' }),
    });
    renderPages(pages, '/app/consulta/pagamentoServico');
    await userEvent.click(await screen.findByRole('button', { name: 'Pesquisar' }));
    const table = await screen.findByRole('table', { name: 'Pagamentos' });
    expect(await within(table).findAllByText('Pago - Distribuído')).toHaveLength(2);
    // The gross per UF, and what SEFAZ BA receives (not BA's gross); each other beneficiary; the surcharge rule stated.
    const linhaDe = (rotulo: string) => within(table).getByText(rotulo, { exact: true }).closest('tr')!.textContent;
    expect(linhaDe('Total bruto BA')).toContain('R$ 600,01');
    expect(linhaDe('Total SEFAZ BA')).toContain('R$ 420,01');
    expect(linhaDe('Repasse a FATEC')).toContain('R$ 250,00');
    expect(linhaDe('Total FATEC')).toContain('R$ 580,00');
    expect(linhaDe('Total repassado')).toContain('R$ 1.000,01');
    expect(screen.getByTestId('regra-totais').textContent).toContain('o acréscimo por atraso não é repartido');
    // The CNPJ with its mask.
    expect(within(table).getAllByText('Banco Alfa S.A. (11.222.333/0001-81)')).toHaveLength(2);
    expect(within(table).getByText('Total FATEC')).toBeTruthy();
    expect(within(table).getByText('Total Geral')).toBeTruthy();
    const q = api.of('GET', '/api/v1/pagamento-servico')[0]!.query;
    expect(q.get('uf')).toBeNull();
    expect(q.get('de')).toBe(q.get('ate'));

    await userEvent.click(screen.getByRole('button', { name: 'Previsão de Repasse' }));
    const dialog = await screen.findByRole('dialog', { name: 'Previsão de Repasse' });
    // Before the definitive run, the figures are split under the group in force today, and the dialog says so.
    expect(within(dialog).getByTestId('grupo-do-repasse').textContent).toContain('com o grupo de rateio vigente hoje');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Baixar Previsão' }));
    expect(await screen.findByText(MESSAGES.semPrevisaoRateio)).toBeTruthy();
    await within(dialog).findByRole('button', { name: 'Gerar Simulação' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Gerar Rateio' }));
    expect(await screen.findByText(MESSAGES.confirmarRepasseDefinitivo)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Sim' }));
    await waitFor(() => expect(api.of('POST', '/api/v1/repasse/definitivo')).toHaveLength(1));
  });

  it('the repasse dialog: requested, running, then concluded by polling; statuses in words with time; the history; the definitive files', async () => {
    signInAs(['sefaz_admin'], { uf: 'BA' });
    // 0: no definitive run; 1: running; 2: concluded. The request is answered when the test says so.
    let fase = 0;
    let responder: (r: Response) => void = () => undefined;
    const simulacao = { execucaoId: 'sim-1', situacao: 'FALHA', iniciadoEm: '2026-06-01T12:00:00.000Z', iniciadoPor: 'Ana', concluidoEm: '2026-06-01T12:01:00.000Z', erro: 'Erro: x' };
    const definitivo = () => (fase === 0 ? null : { execucaoId: 'def-1', situacao: fase === 1 ? 'EM_ANDAMENTO' : 'CONCLUIDO', iniciadoEm: '2026-06-01T13:05:00.000Z', iniciadoPor: 'Ana', concluidoEm: fase === 2 ? '2026-06-01T13:07:00.000Z' : null, erro: null });
    const execucao = (e: NonNullable<ReturnType<typeof definitivo>> | typeof simulacao, tipo: string, totais: boolean) => ({ ...e, tipo, faturas: totais ? 2 : null, total: totais ? 1_750_01 : null, ordens: totais ? 3 : null });
    const api = stubApi({
      'GET /api/v1/repasse/definitivo': () => jsonResponse(200, fase > 0),
      'GET /api/v1/repasse/situacao': () => jsonResponse(200, { simulacao, definitivo: definitivo() }),
      'GET /api/v1/repasse/execucoes': () => jsonResponse(200, [...(fase > 0 ? [execucao(definitivo()!, 'DEFINITIVO', fase === 2)] : []), execucao(simulacao, 'SIMULACAO', false)]),
      // A pending answer (the stub awaits what the answer returns, though its type says Response).
      'POST /api/v1/repasse/definitivo': (() => new Promise<Response>((r) => (responder = r))) as unknown as () => Response,
      'GET /api/v1/repasse/ordens.csv': csv('\uFEFFBeneficiado;Banco\r\nSEFAZ BA;001\r\n'),
      'GET /api/v1/repasse/definitivo.csv': csv('\uFEFFUF;Beneficiado\r\nBA;SEFAZ BA\r\n'),
      'GET /api/v1/pagamento-servico/clientes': jsonResponse(200, []),
      'GET /api/v1/pagamento-servico': jsonResponse(200, { linhas: [], totaisUf: [], totaisSefaz: null, beneficiados: null, totalFatec: null, totalRepassado: null, totalGeral: null }),
    });
    const saved: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(class extends URL {}, { createObjectURL: (b: Blob) => (saved.push(b), 'blob:x'), revokeObjectURL: () => undefined }));
    renderPages(pages, '/app/consulta/pagamentoServico');
    await userEvent.click(await screen.findByRole('button', { name: 'Previsão de Repasse' }));
    const dialog = await screen.findByRole('dialog', { name: 'Previsão de Repasse' });
    // Status in words with date and time in America/Bahia (UTC-3), never the code.
    expect(await within(dialog).findByText(/Simulação: Falhou em 01\/06\/2026 09:01\. Repasse definitivo: não gerado\./)).toBeTruthy();
    const historico = within(dialog).getByRole('table', { name: 'Execuções do repasse' });
    expect(await within(historico).findByText('Falhou')).toBeTruthy();
    expect(within(dialog).queryByText(/FALHA|CONCLUIDO|EM_ANDAMENTO/)).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Baixar Ordens de Transferência' })).toBeNull();

    // The click: 'Solicitado' at once, and polling while the request is unanswered.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Gerar Rateio' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Sim' }));
    expect(await within(dialog).findByText(/Repasse definitivo: Solicitado\./)).toBeTruthy();
    expect(within(historico).getByText('Solicitado')).toBeTruthy();
    const antes = api.of('GET', '/api/v1/repasse/situacao').length;
    await waitFor(() => expect(api.of('GET', '/api/v1/repasse/situacao').length).toBeGreaterThan(antes), { timeout: 3000 });
    expect(within(dialog).getByText(/Repasse definitivo: Solicitado\./)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Gerar Rateio' })).toHaveProperty('disabled', true);

    // Answered and running, then concluded: seen by polling alone.
    fase = 1;
    responder(jsonResponse(202, { execucaoId: 'def-1', situacao: 'EM_ANDAMENTO' }));
    expect(await within(dialog).findByText(/Repasse definitivo: Em andamento desde 01\/06\/2026 10:05\./, undefined, { timeout: 3000 })).toBeTruthy();
    expect(await within(historico).findByText('Em andamento', undefined, { timeout: 3000 })).toBeTruthy();
    fase = 2;
    expect(await within(dialog).findByText(/Repasse definitivo: Concluído em 01\/06\/2026 10:07\./, undefined, { timeout: 3000 })).toBeTruthy();
    const linhaDefinitivo = (await within(historico).findByText('Definitivo')).closest('tr')!;
    await waitFor(() => expect(linhaDefinitivo.textContent).toContain('R$ 1.750,01'), { timeout: 3000 });
    expect(linhaDefinitivo.textContent).toContain('Concluído');
    expect(linhaDefinitivo.textContent).toContain('Ana');
    expect(linhaDefinitivo.textContent).toContain('01/06/2026 10:05');
    // Concluded: polling stops.
    const depois = api.of('GET', '/api/v1/repasse/situacao').length;
    await new Promise((r) => setTimeout(r, 1500));
    expect(api.of('GET', '/api/v1/repasse/situacao').length).toBe(depois);

    // The definitive files.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Baixar Ordens de Transferência' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    const texto = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.readAsText(saved[0]!);
    });
    expect(texto).toContain('SEFAZ BA;001');
    // Concluded: the month is read as distributed, with the group the run recorded (issue 37 item 2).
    expect(within(dialog).getByTestId('grupo-do-repasse').textContent).toContain('são os distribuídos, com o grupo de rateio gravado no repasse');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Baixar Rateio Definitivo' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(api.of('GET', '/api/v1/repasse/definitivo.csv')[0]!.query.get('mes')).toBeTruthy();
  });

  it('one row per invoice and UF: two UF rows of one invoice raise no duplicate-key error', async () => {
    signInAs(['sefaz_admin'], { uf: 'BA' });
    const erros = vi.spyOn(console, 'error');
    stubApi({
      'GET /api/v1/pagamento-servico/clientes': jsonResponse(200, []),
      'GET /api/v1/pagamento-servico': jsonResponse(200, { linhas: [linha('BA', 'Pago', 600_01), linha('RO', 'Pago', 400_00)], totaisUf: [], totaisSefaz: null, beneficiados: null, totalFatec: null, totalRepassado: null, totalGeral: null }),
    });
    renderPages(pages, '/app/consulta/pagamentoServico');
    await userEvent.click(await screen.findByRole('button', { name: 'Pesquisar' }));
    const table = await screen.findByRole('table', { name: 'Pagamentos' });
    expect(await within(table).findAllByText('Pago')).toHaveLength(2);
    expect(erros.mock.calls.filter((c) => c.some((a) => String(a).includes('same key')))).toEqual([]);
    erros.mockRestore();
  });

  it('Exportar CSV: every row of the search, not only the page on screen, as the pt-BR CSV with the list\'s titles', async () => {
    signInAs(['sefaz_admin'], { uf: 'BA' });
    const saved: Blob[] = [];
    const names: string[] = [];
    vi.stubGlobal('URL', Object.assign(class extends URL {}, { createObjectURL: (b: Blob) => (saved.push(b), 'blob:x'), revokeObjectURL: () => undefined }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const muitas = Array.from({ length: 11 }, (_, i) => ({ ...linha('BA', 'Pago - Distribuído', 100), consumoId: `c${i}` }));
    let buscas = 0;
    const ultima = { ...linha('', 'Em Aberto', 1_234_567_89), consumoId: 'x', razaoSocial: '@Banco', cnpj: '11444777000161', valorAcrescimo: 5, totalRequisicoes: 1_234_567, dataRetornoBanco: null };
    const todas = [...muitas, ultima];
    const api = stubApi({
      'GET /api/v1/pagamento-servico/clientes': jsonResponse(200, []),
      // The search on arrival finds nothing; the one clicked, the rows, 10 a page (cursor = where the page starts).
      'GET /api/v1/pagamento-servico': ({ query }) => {
        const inicio = Number(query.get('cursor') ?? 0);
        const fim = inicio + 10;
        const linhas = buscas++ === 0 ? [] : todas.slice(inicio, fim);
        return jsonResponse(200, { linhas, ...(buscas > 1 && fim < todas.length ? { nextCursor: String(fim) } : {}), totaisUf: [], totaisSefaz: null, beneficiados: null, totalFatec: null, totalRepassado: null, totalGeral: null });
      },
    });
    renderPages(pages, '/app/consulta/pagamentoServico');
    await waitFor(() => expect(buscas).toBe(1));
    expect((await screen.findByRole('button', { name: 'Exportar CSV' })).hasAttribute('disabled')).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    const table = await screen.findByRole('table', { name: 'Pagamentos' });
    // The screen's page: 10 of the 12 rows; 'Próxima' asks the server for the rest with the cursor.
    const paginacao = screen.getByRole('navigation', { name: 'Paginação dos pagamentos' });
    await waitFor(() => expect(within(table).getAllByText('Pago - Distribuído')).toHaveLength(10));
    await userEvent.click(within(paginacao).getByRole('button', { name: 'Próxima' }));
    await waitFor(() => expect(within(table).getAllByText('Pago - Distribuído')).toHaveLength(1));
    expect(within(table).getByText('Em Aberto')).toBeTruthy();
    expect(api.of('GET', '/api/v1/pagamento-servico').at(-1)!.query.get('cursor')).toBe('10');
    await userEvent.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    click.mockRestore();
    expect(names[0]).toMatch(/^pagamentos-servicos_\d{4}-\d{2}_\d{4}-\d{2}\.csv$/);
    const bytes = await new Promise<Uint8Array>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
      reader.readAsArrayBuffer(saved[0]!);
    });
    const texto = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    const linhas = texto.split('\r\n');
    expect(linhas).toHaveLength(13);
    expect(linhas[0]).toBe('\uFEFFUF;Mês de referência;Cliente;Valor dos serviços;Valor da assinatura;Valor do acréscimo;Total;Total de requisições;Situação;Data do retorno bancário');
    expect(linhas[1]).toBe('BA;05/2026;Banco Alfa S.A. (11222333000181);1,00;0,00;0,00;1,00;100;Pago - Distribuído;10/06/2026');
    expect(linhas[12]).toBe(";05/2026;'@Banco (11444777000161);1.234.567,89;0,00;0,05;1.234.567,89;1.234.567;Em Aberto;");
    vi.unstubAllGlobals();
  });

  it('a manager: the UF fixed, no totals of the admin, no repasse dialog', async () => {
    signInAs(['sefaz_gestor'], { uf: 'BA' });
    const api = stubApi({
      'GET /api/v1/pagamento-servico/clientes': jsonResponse(200, []),
      'GET /api/v1/pagamento-servico': jsonResponse(200, { linhas: [linha('BA', 'Pago', 600_01)], totaisUf: [{ uf: 'BA', total: 600_01 }], totaisSefaz: [{ uf: 'BA', nome: 'SEFAZ BA', total: 420_01 }], beneficiados: null, totalFatec: null, totalRepassado: null, totalGeral: null }),
    });
    renderPages(pages, '/app/consulta/pagamentoServico');
    expect(screen.queryByRole('button', { name: 'Previsão de Repasse' })).toBeNull();
    // Searched on arrival, without a click on Pesquisar.
    const table = await screen.findByRole('table', { name: 'Pagamentos' });
    await within(table).findByText('Total SEFAZ BA');
    expect(api.of('GET', '/api/v1/pagamento-servico')).toHaveLength(1);
    expect(within(table).queryByText('Total FATEC')).toBeNull();
    expect(within(table).getByText('Total SEFAZ BA').closest('tr')!.textContent).toContain('R$ 420,01');
    expect(api.of('GET', '/api/v1/pagamento-servico')[0]!.query.get('uf')).toBe('BA');
  });

  it('a client user: its own company fixed, no Sefaz totals of the admin, no repasse dialog', async () => {
    signInAs(['cliente'], { clienteId: 'c1' });
    const api = stubApi({
      'GET /api/v1/pagamento-servico/clientes': jsonResponse(200, [{ id: 'c1', razaoSocial: 'Banco Alfa S.A.', cnpj: '11222333000181' }]),
      'GET /api/v1/pagamento-servico': jsonResponse(200, { linhas: [linha('BA', 'Pago - Distribuído', 600_01)], totaisUf: [{ uf: 'BA', total: 600_01 }], totaisSefaz: null, beneficiados: null, totalFatec: null, totalRepassado: null, totalGeral: 600_01 }),
    });
    renderPages(pages, '/app/consulta/pagamentoServico');
    expect(screen.queryByRole('button', { name: 'Previsão de Repasse' })).toBeNull();
    expect(screen.getByLabelText('Cliente').closest('.p-dropdown')!.classList.contains('p-disabled')).toBe(true);
    // The UF selector shows its value ('Todos'), never blank.
    expect(screen.getByLabelText('UF').closest('.p-dropdown')!.querySelector('.p-dropdown-label')!.textContent).toBe('Todos');
    await userEvent.click(await screen.findByRole('button', { name: 'Pesquisar' }));
    const table = await screen.findByRole('table', { name: 'Pagamentos' });
    expect(await within(table).findByText('Pago - Distribuído')).toBeTruthy();
    expect(within(table).queryByText('Total FATEC')).toBeNull();
    expect(within(table).queryByText(/Total SEFAZ/)).toBeNull();
    expect(screen.queryByTestId('regra-totais')).toBeNull();
    // The client's grand total.
    const geral = within(table).getByText('Total Geral').closest('tr')!;
    expect(geral.textContent).toContain('R$ 600,01');
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
        ufs: [{ uf: 'BA', itens: [{ descricao: 'Consulta Fat-e por Chave de Acesso', requisicoes: 4000, valorUnitario: 150, valor: 9_15 }], valorServicos: 9_15, valorAssinatura: 227_49, valorAcrescimo: 0, total: 236_64 }],
        sumarizado: [{ descricao: 'Consulta Fat-e por Chave de Acesso', requisicoes: 4000, valor: 600_00 }],
      }),
    });
    renderPages(pages, '/app/consulta/pagamentoServico/detalhe/202605-c1/BA');
    const t = await screen.findByRole('table', { name: 'Itens da UF BA' });
    expect(within(t).getByText('R$ 0,15')).toBeTruthy();
    // The UF's total is the list row's: services plus its part of the subscription (issue 28: 'Total BA: R$ 9,15' against R$ 236,64).
    const rodape = screen.getByText(/Total BA:/).textContent!;
    expect(rodape).toContain('Serviços: R$ 9,15');
    expect(rodape).toContain('Assinatura (parte da UF): R$ 227,49');
    expect(rodape).toContain('Total BA: R$ 236,64');
    expect(screen.getByText('Consumo Sumarizado')).toBeTruthy();
  });
});
