import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { message } from '@plac/shared/messages';
import { getSession, saveFilter } from '../../lib/session';
import { mesAtualMais, mesIso } from '../../lib/calendar';
import { jsonResponse, renderApp, signIn } from '../../test/render';
import { faturaResumo } from '../../test/faturas';

interface Sent {
  method: string;
  path: string;
  query: URLSearchParams;
}

function stub(answer: (s: Sent) => Response) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const s = { method: init.method ?? 'GET', path: url.pathname, query: url.searchParams };
      sent.push(s);
      return answer(s);
    }),
  );
  return sent;
}

const warnings = () => [...document.querySelectorAll('.p-toast-message-warn .p-toast-detail')].map((e) => e.textContent);

const FATURA = faturaResumo();

const DETALHE = {
  id: '202605-c-1',
  cliente: { cnpj: '11222333000181', razaoSocial: 'Banco Demo S.A.' },
  mes: 5,
  ano: 2026,
  situacao: 'A',
  valorServicos: 103456,
  valorAssinatura: 20000,
  valorTotal: 123456,
  dae: null,
  pagamento: null,
  pagamentosParciais: [],
  valorRecebido: 0,
  saldoDevedor: 123456,
  valorExcedente: 0,
  acrescimoSobreSaldo: 0,
  recebimentos: [],
  itens: [
    { idModuloServico: 1, descricao: 'Consulta Fat-e por Composição de Dados Completa', uf: 29, sgUf: 'BA', requisicoes: 1000, valorUnitario: 50, valorConsumo: 5000 },
    { idModuloServico: 1, descricao: 'Consulta Fat-e por Composição de Dados Completa', uf: 35, sgUf: 'SP', requisicoes: 2000, valorUnitario: 50, valorConsumo: 10000 },
    { idModuloServico: 2, descricao: 'Consulta Fat-e', uf: 31, sgUf: 'MG', requisicoes: 1234, valorUnitario: 72_261, valorConsumo: 88_456 },
  ],
};

describe('consultar-fatura', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('admin: searches the previous month by default, all clients, shows the rows and saves the filter', async () => {
    signIn(['sefaz_admin']);
    const sent = stub((s) =>
      s.path === '/api/v1/cliente/get-all-cliente'
        ? jsonResponse(200, [{ id: 'c-1', cnpj: '11222333000181', razao_social: 'Banco Demo S.A.', tipo_cliente: 'ESF', situacao: 'A' }])
        : jsonResponse(200, { items: [FATURA] }),
    );
    renderApp('/app/fatura/consultarFatura');
    const table = await screen.findByRole('table', { name: 'Faturas' });
    expect(await within(table).findByText('Banco Demo S.A.')).toBeTruthy();
    expect(within(table).getByText('05/2026')).toBeTruthy();
    expect(within(table).getByText('Em Aberto')).toBeTruthy();
    expect(within(table).getByText(/1\.234,56/)).toBeTruthy();
    const lista = sent.find((s) => s.path === '/api/v1/fatura')!;
    const anterior = mesIso(mesAtualMais(-1));
    expect(lista.query.get('dataInicio')).toBe(anterior);
    expect(lista.query.get('dataFim')).toBe(anterior);
    expect(lista.query.get('cnpj')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    await waitFor(() => expect(getSession().filters.fatura).toMatchObject({ mesInicio: anterior, mesFim: anterior, cliente: '*' }));
  });

  it('a client user: the client is fixed, the cnpj never sent and the saved filter comes back', async () => {
    signIn(['cliente'], { clienteId: 'c-1', cnpj: '11222333000181' });
    const mes = mesIso(mesAtualMais(-3));
    saveFilter('fatura', { cliente: '*', mesInicio: mes, mesFim: mes, situacao: 'P' });
    const sent = stub(() => jsonResponse(200, { items: [] }));
    renderApp('/app/fatura/consultarFatura');
    // The empty table shows its message before the list is asked for: wait for the request itself.
    await waitFor(() => expect(sent.length).toBeGreaterThan(0));
    expect(await screen.findByText('Nenhum registro encontrado')).toBeTruthy();
    expect(sent.every((s) => s.path === '/api/v1/fatura' && s.query.get('cnpj') === null && s.query.get('situacao') === 'P' && s.query.get('dataInicio') === mes)).toBe(true);
    expect((screen.getByLabelText('Mês Inicial') as HTMLInputElement).value).toBe(mes.split('-').reverse().join('/'));
  });

  it('a saved start after the end is not searched, and Pesquisar says why', async () => {
    signIn(['cliente'], { clienteId: 'c-1' });
    saveFilter('fatura', { mesInicio: mesIso(mesAtualMais(0)), mesFim: mesIso(mesAtualMais(-2)) });
    const sent = stub(() => jsonResponse(200, { items: [] }));
    renderApp('/app/fatura/consultarFatura');
    await userEvent.click(await screen.findByRole('button', { name: 'Pesquisar' }));
    await waitFor(() => expect(warnings()).toContain('Data Início maior que Data Fim.'));
    expect(sent).toHaveLength(0);
  });

  it('an open invoice paid short shows "Pago parcialmente" with each amount and day', async () => {
    signIn(['sefaz_admin']);
    const parcial = faturaResumo({ pagamentosParciais: [{ valorPago: 1_000_00, dataPagamento: '2026-11-30' }] });
    const outra = faturaResumo({ id: '202605-c-2', cliente: { razaoSocial: 'Outro Banco S.A.', cnpj: '11444777000161' } });
    stub((s) => (s.path === '/api/v1/cliente/get-all-cliente' ? jsonResponse(200, []) : jsonResponse(200, { items: [parcial, outra] })));
    renderApp('/app/fatura/consultarFatura');
    const table = await screen.findByRole('table', { name: 'Faturas' });
    const linha = (nome: string) => within(table).getByRole('row', { name: new RegExp(nome) });
    await waitFor(() => expect(linha('Banco Demo S.A.').textContent).toContain('Pago parcialmente'));
    expect(linha('Banco Demo S.A.').textContent).toMatch(/Pago parcialmenteR\$\s1\.000,00 em 30\/11\/2026/);
    // Still open: the DAE can be printed again.
    expect(within(linha('Banco Demo S.A.')).getByRole('button', { name: /Imprimir DAE/ })).toBeTruthy();
    expect(linha('Outro Banco S.A.').textContent).toContain('Em Aberto');
    expect(linha('Outro Banco S.A.').textContent).not.toContain('Pago parcialmente');
  });

  it('the row action opens the detail', async () => {
    signIn(['sefaz_admin']);
    const sent = stub((s) =>
      s.path === '/api/v1/cliente/get-all-cliente' ? jsonResponse(200, []) : s.path === '/api/v1/fatura' ? jsonResponse(200, { items: [FATURA] }) : jsonResponse(200, DETALHE),
    );
    renderApp('/app/fatura/consultarFatura');
    await userEvent.click(await screen.findByRole('button', { name: 'Detalhar fatura 05/2026 de Banco Demo S.A.' }));
    expect(await screen.findByRole('heading', { name: 'Detalhe da Fatura' })).toBeTruthy();
    await waitFor(() => expect(sent.some((s) => s.path === '/api/v1/fatura/202605-c-1')).toBe(true));
  });
});

/** A saved file's text, the UTF-8 byte-order mark kept (FileReader's readAsText hides it). */
const textoSalvo = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new TextDecoder('utf-8', { ignoreBOM: true }).decode(new Uint8Array(reader.result as ArrayBuffer)));
    reader.readAsArrayBuffer(blob);
  });

describe('consultar-fatura: Exportar CSV', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('exports every page of the search, not only the one on screen, as the pt-BR CSV with the list\'s titles', async () => {
    signIn(['sefaz_admin']);
    const saved: { blob: Blob; name: string }[] = [];
    const sent = stub((s) => {
      if (s.path === '/api/v1/cliente/get-all-cliente') return jsonResponse(200, []);
      if (s.query.get('perPage') !== '100') return jsonResponse(200, { items: [FATURA], nextCursor: 'tela-2' });
      return s.query.get('cursor') === 'p2'
        ? jsonResponse(200, {
            items: [
              faturaResumo({ id: 'b', cliente: { razaoSocial: '=CMD("calc")', cnpj: '11444777000161' }, valorTotal: 5, situacao: 'P' }),
              faturaResumo({ id: 'c', valorTotal: 100_000_000_00, pagamentosParciais: [{ valorPago: 100, dataPagamento: '2026-06-10' }] }),
            ],
          })
        : jsonResponse(200, { items: [FATURA], nextCursor: 'p2' });
    });
    const createObjectURL = vi.fn((blob: Blob) => (saved.push({ blob, name: '' }), 'blob:x'));
    vi.stubGlobal('URL', Object.assign(class extends URL {}, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.at(-1)!.name = this.download;
    });
    renderApp('/app/fatura/consultarFatura');
    const table = await screen.findByRole('table', { name: 'Faturas' });
    await within(table).findByText('Banco Demo S.A.');
    await userEvent.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    click.mockRestore();

    const exportadas = sent.filter((s) => s.path === '/api/v1/fatura' && s.query.get('perPage') === '100');
    expect(exportadas.map((s) => s.query.get('cursor'))).toEqual([null, 'p2']);
    const anterior = mesIso(mesAtualMais(-1));
    expect(exportadas[0]!.query.get('dataInicio')).toBe(anterior);
    expect(saved[0]!.name).toBe(`faturas_${anterior}_${anterior}.csv`);
    expect(saved[0]!.blob.type).toBe('text/csv;charset=utf-8');
    expect(await textoSalvo(saved[0]!.blob)).toBe(
      '\uFEFF' +
        [
          'Mês/Ano;Razão Social;CNPJ;Valor Total;Situação',
          '05/2026;Banco Demo S.A.;11.222.333/0001-81;1.234,56;Em Aberto',
          `05/2026;"'=CMD(""calc"")";11.444.777/0001-61;0,05;Pago`,
          '05/2026;Banco Demo S.A.;11.222.333/0001-81;100.000.000,00;Pago parcialmente (R$ 1,00 em 10/06/2026)',
        ].join('\r\n'),
    );
  });

  it('refuses more than 10.000 invoices, saving nothing', async () => {
    signIn(['sefaz_admin']);
    stub((s) => (s.path === '/api/v1/cliente/get-all-cliente' ? jsonResponse(200, []) : jsonResponse(200, { items: [FATURA], nextCursor: 'mais', total: 10_001 })));
    const createObjectURL = vi.fn(() => 'blob:x');
    vi.stubGlobal('URL', Object.assign(class extends URL {}, { createObjectURL, revokeObjectURL: vi.fn() }));
    renderApp('/app/fatura/consultarFatura');
    await within(await screen.findByRole('table', { name: 'Faturas' })).findByText('Banco Demo S.A.');
    await userEvent.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(warnings()).toContain(message('exportacaoLimite', { max: '10.000' })));
    expect(createObjectURL).not.toHaveBeenCalled();
  });
});

describe('detalhe-fatura', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the client, the summary by service and UF with truncation, suffix, 3-decimal unit values and totals, the consumption by service, and prints', async () => {
    signIn(['cliente'], { clienteId: 'c-1' });
    stub((s) => (s.path === '/api/v1/fatura' ? jsonResponse(200, { items: [] }) : jsonResponse(200, DETALHE)));
    const print = vi.fn();
    vi.stubGlobal('print', print);
    renderApp('/app/fatura/detalheFatura?id=202605-c-1');
    const resumo = await screen.findByRole('region', { name: 'Resumo por Serviço e UF' });
    expect(screen.getByText('11.222.333/0001-81')).toBeTruthy();
    expect(screen.getByText('05/2026')).toBeTruthy();
    const linhas = within(resumo).getAllByRole('row').map((r) => [...r.querySelectorAll('th,td')].map((c) => c.textContent?.replace(/\s/g, ' ')));
    expect(linhas[1]).toEqual(['Consulta Fat-e por Composição de Dados', 'BA', '1.000', expect.stringMatching(/0,050$/), expect.stringMatching(/R\$ 50,00$/)]);
    expect(linhas[2]?.[1]).toBe('SP (UFs não signatárias)');
    expect(linhas[3]?.slice(0, 4)).toEqual(['Consulta Fat-e', 'MG (UFs não signatárias)', '1.234', expect.stringMatching(/72,261$/)]);
    expect(within(resumo).getByText(/1\.234,56/)).toBeTruthy();
    const consumo = screen.getByRole('region', { name: 'Consumo' });
    const porServico = within(consumo).getAllByRole('row').map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent?.replace(/\s/g, ' ')));
    expect(porServico[1]).toEqual(['Consulta Fat-e por Composição de Dados', '3.000', expect.stringMatching(/R\$ 150,00$/)]);
    expect(screen.queryByText(/Pago parcialmente/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Imprimir' }));
    expect(print).toHaveBeenCalled();
    await userEvent.click(screen.getAllByRole('button', { name: 'Voltar' })[0]!);
    expect(await screen.findByRole('heading', { name: 'Consultar Fatura' })).toBeTruthy();
  });

  it('an invoice paid short says so under the client, each payment with its day', async () => {
    signIn(['cliente'], { clienteId: 'c-1' });
    const pagamentosParciais = [
      { valorPago: 500_00, dataPagamento: '2026-11-27' },
      { valorPago: 250_50, dataPagamento: '2026-11-30' },
    ];
    stub((s) => (s.path === '/api/v1/fatura' ? jsonResponse(200, { items: [] }) : jsonResponse(200, { ...DETALHE, pagamentosParciais })));
    renderApp('/app/fatura/detalheFatura?id=202605-c-1');
    const cliente = await screen.findByRole('region', { name: 'Cliente' });
    const situacao = within(cliente).getByRole('table', { name: 'Situação da fatura' });
    const celulas = [...within(situacao).getAllByRole('row')[1]!.querySelectorAll('td')].map((c) => c.textContent?.replace(/\s/g, ' '));
    expect(celulas[0]).toBe('Pago parcialmente' + 'R$ 500,00 em 27/11/2026' + 'R$ 250,50 em 30/11/2026');
  });

  it('the payments received: each with its bank, file and how it was applied; the surcharge on the balance and the balance owed (issue 37)', async () => {
    signIn(['cliente'], { clienteId: 'c-1' });
    const recebimento = { banco: '001', nomeBanco: 'BANCO DO BRASIL', valorExcedente: 0 };
    const detalhe = {
      ...DETALHE,
      pagamentosParciais: [{ valorPago: 510_00, dataPagamento: '2026-06-20' }],
      valorRecebido: 500_00,
      saldoDevedor: 734_56,
      acrescimoSobreSaldo: 12_34,
      recebimentos: [{ ...recebimento, dataPagamento: '2026-06-20', nomeArquivo: 'retorno-1.ret', valorPago: 510_00, valorAcrescimo: 10_00, valorAmortizado: 500_00 }],
    };
    stub((s) => (s.path === '/api/v1/fatura' ? jsonResponse(200, { items: [] }) : jsonResponse(200, detalhe)));
    renderApp('/app/fatura/detalheFatura?id=202605-c-1');
    const secao = await screen.findByRole('region', { name: 'Pagamentos recebidos' });
    const [, linha] = within(secao).getAllByRole('row');
    expect([...linha!.querySelectorAll('td')].map((c) => c.textContent?.replace(/\s/g, ' '))).toEqual([
      '20/06/2026',
      '001 BANCO DO BRASIL',
      'retorno-1.ret',
      'R$ 510,00',
      'R$ 10,00',
      'R$ 500,00',
      'R$ 0,00',
    ]);
    const saldo = within(secao).getByRole('table', { name: 'Saldo da fatura' });
    const pares = within(saldo).getAllByRole('row').map((r) => [r.querySelector('th')?.textContent, r.querySelector('td')?.textContent?.replace(/\s/g, ' ')]);
    expect(pares).toEqual([
      ['Valor faturado', 'R$ 1.234,56'],
      ['Total amortizado', 'R$ 500,00'],
      ['Acréscimo sobre o saldo (pagamento hoje)', 'R$ 12,34'],
      ['Saldo devedor', 'R$ 734,56'],
    ]);
  });

  /** The row of the status table: Situação, Vencimento, Número do DAE, Pagamento. */
  async function situacaoDa(detalhe: object) {
    signIn(['cliente'], { clienteId: 'c-1' });
    stub((s) => (s.path === '/api/v1/fatura' ? jsonResponse(200, { items: [] }) : jsonResponse(200, { ...DETALHE, ...detalhe })));
    renderApp('/app/fatura/detalheFatura?id=202605-c-1');
    const tabela = await screen.findByRole('table', { name: 'Situação da fatura' });
    return [...within(tabela).getAllByRole('row')[1]!.querySelectorAll('td')].map((c) => c.textContent?.replace(/\s/g, ' '));
  }

  it('an open invoice without a DAE: its status in words and the default due date (the 15th of the next month)', async () => {
    expect(await situacaoDa({})).toEqual(['Em Aberto', '15/06/2026', 'Não gerado', 'Não pago']);
  });

  it('the archived evidence (issue 41): before the archive the catalogue says when; once archived, the CSV is built from the archive and downloaded', async () => {
    signIn(['cliente'], { clienteId: 'c-1' });
    stub((s) => (s.path === '/api/v1/fatura' ? jsonResponse(200, { items: [] }) : jsonResponse(200, { ...DETALHE, arquivo: null })));
    const { unmount } = renderApp('/app/fatura/detalheFatura?id=202605-c-1');
    const antes = await screen.findByRole('region', { name: 'Evidências arquivadas' });
    expect(within(antes).getByText(message('evidenciaNaoArquivada'))).toBeTruthy();
    expect(within(antes).queryByRole('button')).toBeNull();
    unmount();

    const salvos: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(class extends URL {}, { createObjectURL: (b: Blob) => (salvos.push(b), 'blob:x'), revokeObjectURL: () => undefined }));
    const job = { id: 'evid-1', estado: 'CONCLUIDO', linhas: 16, total: 16, nomeArquivo: 'evidencias_2026-05.csv', url: 'http://localhost/download/evidencias.csv' };
    const sent = stub((s) => {
      if (s.path === '/api/v1/fatura') return jsonResponse(200, { items: [] });
      if (s.path.endsWith('/evidencia')) return jsonResponse(202, job);
      if (s.path === '/download/evidencias.csv') return new Response('\uFEFFlinha;1\r\n', { status: 200 });
      return jsonResponse(200, { ...DETALHE, arquivo: { arquivadoEm: '2026-06-05T06:10:00.000Z', requisicoes: 4234 } });
    });
    renderApp('/app/fatura/detalheFatura?id=202605-c-1');
    const depois = await screen.findByRole('region', { name: 'Evidências arquivadas' });
    expect(within(depois).getByText(/Arquivadas em 05\/06\/2026.*4\.234 requisição\(ões\) cobrada\(s\)/)).toBeTruthy();
    await userEvent.click(within(depois).getByRole('button', { name: 'Baixar evidências (CSV)' }));
    await waitFor(() => expect(salvos).toHaveLength(1));
    expect(sent.filter((x) => x.path === '/api/v1/fatura/202605-c-1/evidencia')).toHaveLength(1);
  });

  it('a paid invoice: the DAE paid, its due date, and the day and amount paid', async () => {
    expect(await situacaoDa({ situacao: 'P', dae: { numero: 4321, dtVencimento: '2026-06-19' }, pagamento: { dataPagamento: '2026-06-22', valorPago: 1_250_10 } })).toEqual([
      'Pago',
      '19/06/2026',
      '4321',
      'R$ 1.250,10 em 22/06/2026',
    ]);
  });
});
