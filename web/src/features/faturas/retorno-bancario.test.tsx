import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderApp, signIn } from '../../test/render';

const RELATORIO = {
  importacaoId: 'a'.repeat(64),
  nomeArquivo: 'retorno-001.ret',
  importadoEm: '2026-11-23T15:00:00.000Z',
  importadoPor: 'Carlos Admin',
  banco: '001',
  nomeBanco: 'BANCO DO BRASIL',
  nsa: 42,
  dataGeracao: '2026-11-22',
  registros: 4,
  valorTotal: 1_769_90,
  pagas: 1,
  jaPagas: 0,
  naoEncontradas: 0,
  inconsistentes: 1,
  situacao: 'CONCLUIDA',
  totalPagamentos: 2,
  processadas: 2,
  jaImportado: false,
};
const LINHAS = {
  items: [
    { linha: 2, codigoBarras: '8'.padEnd(44, '1'), dataPagamento: '2026-11-20', valorRecebido: 1_019_90, situacao: 'PAGA', faturaId: '202609-c-1', cliente: 'Banco Demo S.A.', valorAcrescimo: 19_90 },
    { linha: 3, codigoBarras: '8'.padEnd(44, '2'), dataPagamento: '2026-11-20', valorRecebido: 750_00, situacao: 'INCONSISTENTE', faturaId: '202609-c-2', cliente: 'Fomento', motivo: 'Pago a menor: devido R$ 900,00.' },
  ],
};

/** The URLs of the line pages the screen asked for. */
let paginas: string[] = [];
let andamentos = 0;

describe('retorno-bancario', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  function stub(resposta: () => Response) {
    const posts: { nomeArquivo: string; conteudo: string }[] = [];
    paginas = [];
    andamentos = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string, init: RequestInit = {}) => {
        if (init.method === 'POST') {
          posts.push(JSON.parse(String(init.body)) as { nomeArquivo: string; conteudo: string });
          return resposta();
        }
        // The report's lines, a page at a time (a file may hold thousands of payments).
        if (String(input).includes('/linhas')) {
          paginas.push(String(input));
          return jsonResponse(200, LINHAS);
        }
        // The import's progress while its job runs: done at the second look.
        if (/\/retornos\/[0-9a-f]{64}$/.test(String(input))) {
          andamentos += 1;
          return jsonResponse(200, andamentos < 2 ? { ...RELATORIO, situacao: 'PROCESSANDO', processadas: 1, pagas: 0, inconsistentes: 0 } : RELATORIO);
        }
        return jsonResponse(200, []);
      }),
    );
    return posts;
  }

  async function enviar(nome: string, texto = 'A2...') {
    signIn(['sefaz_admin']);
    renderApp('/app/fatura/retornoBancario');
    await screen.findByRole('heading', { name: 'Retorno Bancário' }, { timeout: 10_000 });
    const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
    await userEvent.upload(input, new File([texto], nome, { type: 'text/plain' }), { applyAccept: false });
  }

  it("sends the file's text and shows the report line by line", async () => {
    const posts = stub(() => jsonResponse(200, RELATORIO));
    await enviar('retorno-001.ret', 'A2 conteudo');
    await waitFor(() => expect(posts).toEqual([{ nomeArquivo: 'retorno-001.ret', conteudo: 'A2 conteudo' }]));
    expect(await screen.findByText('Arquivo de retorno importado: 1 fatura(s) paga(s).')).toBeTruthy();
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Linhas do arquivo de retorno' })).getAllByRole('row')).toHaveLength(3));
    expect(paginas[0]).toContain(`/api/v1/faturamento-mensal/retornos/${'a'.repeat(64)}/linhas?perPage=50`);
    const linhas = within(screen.getByRole('table', { name: 'Linhas do arquivo de retorno' })).getAllByRole('row');
    expect(linhas[1]!.textContent).toContain('Paga');
    expect(linhas[1]!.textContent).toContain('R$ 19,90');
    expect(linhas[2]!.textContent).toContain('Pago a menor: devido R$ 900,00.');
  });

  it('follows a big file imported by its job (202), then shows its report', async () => {
    stub(() => jsonResponse(202, { ...RELATORIO, situacao: 'PROCESSANDO', processadas: 0, pagas: 0, inconsistentes: 0 }));
    await enviar('retorno-grande.ret');
    expect(await screen.findByText('Importando os pagamentos do arquivo: 0 de 2.')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Andamento da importação' })).toBeTruthy();
    // No line is asked for while the job runs; when it ends, the report and its lines.
    expect(paginas).toEqual([]);
    expect(await screen.findByText('Arquivo de retorno importado: 1 fatura(s) paga(s).', {}, { timeout: 8_000 })).toBeTruthy();
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Linhas do arquivo de retorno' })).getAllByRole('row')).toHaveLength(3));
  });

  it('says when the file had been imported before', async () => {
    stub(() => jsonResponse(200, { ...RELATORIO, jaImportado: true }));
    await enviar('copia.ret');
    expect(await screen.findByText('Este arquivo de retorno já foi importado em 23/11/2026 12:00; nada foi alterado.')).toBeTruthy();
  });

  it('refuses another extension without calling the server', async () => {
    const posts = stub(() => jsonResponse(200, RELATORIO));
    await enviar('retorno.pdf');
    expect(await screen.findByText('Só são permitidos arquivos de retorno com extensão .ret ou .txt.')).toBeTruthy();
    expect(posts).toEqual([]);
  });
});
