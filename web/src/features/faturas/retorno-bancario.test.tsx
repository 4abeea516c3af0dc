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
  linhas: [
    { linha: 2, codigoBarras: '8'.padEnd(44, '1'), dataPagamento: '2026-11-20', valorRecebido: 1_019_90, situacao: 'PAGA', faturaId: '202609-c-1', cliente: 'Banco Demo S.A.', valorAcrescimo: 19_90 },
    { linha: 3, codigoBarras: '8'.padEnd(44, '2'), dataPagamento: '2026-11-20', valorRecebido: 750_00, situacao: 'INCONSISTENTE', faturaId: '202609-c-2', cliente: 'Fomento', motivo: 'Pago a menor: devido R$ 900,00.' },
  ],
  jaImportado: false,
};

describe('retorno-bancario', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  function stub(resposta: () => Response) {
    const posts: { nomeArquivo: string; conteudo: string }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_input: string, init: RequestInit = {}) => {
        if (init.method === 'POST') {
          posts.push(JSON.parse(String(init.body)) as { nomeArquivo: string; conteudo: string });
          return resposta();
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
    const linhas = within(screen.getByRole('table', { name: 'Linhas do arquivo de retorno' })).getAllByRole('row');
    expect(linhas[1]!.textContent).toContain('Paga');
    expect(linhas[1]!.textContent).toContain('R$ 19,90');
    expect(linhas[2]!.textContent).toContain('Pago a menor: devido R$ 900,00.');
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
