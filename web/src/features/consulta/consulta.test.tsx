import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderApp, signIn } from '../../test/render';

const CHAVE = '29260512345678000195550010000001231000001234';

interface Sent {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

function stub(answer: (s: Sent) => Response) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const s = { method: init.method ?? 'GET', path: new URL(input, 'http://localhost').pathname, headers: new Headers(init.headers), body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined };
      sent.push(s);
      return answer(s);
    }),
  );
  return sent;
}

const warnings = () => [...document.querySelectorAll('.p-toast-message-warn .p-toast-detail')].map((e) => e.textContent);
const csv = (name: string, text: string) => new File([text], name, { type: 'text/csv' });

describe('CSV batch screens', { timeout: 20_000 }, () => {
  let saved: Blob[];
  beforeEach(() => {
    saved = [];
    vi.stubGlobal('URL', Object.assign(class extends URL {}, { createObjectURL: (b: Blob) => (saved.push(b), 'blob:x'), revokeObjectURL: () => undefined }));
  });
  afterEach(() => vi.unstubAllGlobals());

  async function upload(file: File | null) {
    const input = await screen.findByLabelText('Arquivo CSV');
    if (file) await userEvent.upload(input, file, { applyAccept: false });
    await userEvent.click(screen.getByRole('button', { name: 'Consultar' }));
  }

  it('refuses a missing file, another extension, a wrong header and a comma file, sending nothing', async () => {
    signIn(['cliente_web'], { clienteId: 'c-1' });
    const sent = stub(() => jsonResponse(500, {}));
    renderApp('/app/servico/consulta-fate-chave-composta');
    expect(await screen.findByText('CNPJ_EMISSOR;CNPJ_DESTINATARIO;DATA_VENCIMENTO_PARCELA;VALOR_PARCELA;NUMERO_PARCELA')).toBeTruthy();
    await upload(null);
    await upload(csv('lote.txt', 'x'));
    await upload(csv('lote.csv', 'CNPJ_DESTINATARIO;CNPJ_EMISSOR;DATA_VENCIMENTO_PARCELA;VALOR_PARCELA;NUMERO_PARCELA\r\n1;2;3;4;5'));
    await upload(csv('lote.csv', 'CNPJ_EMISSOR,CNPJ_DESTINATARIO,DATA_VENCIMENTO_PARCELA,VALOR_PARCELA,NUMERO_PARCELA\n1,2,3,4,5'));
    await upload(csv('lote.csv', 'CNPJ_EMISSOR;CNPJ_DESTINATARIO;DATA_VENCIMENTO_PARCELA;VALOR_PARCELA;NUMERO_PARCELA\n'));
    await waitFor(() =>
      expect(warnings()).toEqual([
        'É necessário selecionar um arquivo.',
        'Só são permitidos arquivos com extensão .csv.',
        'O cabeçalho do arquivo deve ser, nesta ordem: CNPJ_EMISSOR;CNPJ_DESTINATARIO;DATA_VENCIMENTO_PARCELA;VALOR_PARCELA;NUMERO_PARCELA',
        'As colunas do arquivo devem ser separadas por ponto e vírgula (;).',
        'O arquivo não contém linhas para consultar.',
      ]),
    );
    expect(sent).toHaveLength(0);
  });

  it('sends the header and the lines with an Idempotency-Key, says what was ignored and downloads the answer under the spec’s name', async () => {
    signIn(['cliente_web'], { clienteId: 'c-1' });
    const sent = stub(() => new Response('\uFEFFCHNFE;SITUACAO\r\n', { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' } }));
    renderApp('/app/servico/consulta-fate');
    const linhas = ['CHNFE', CHAVE, CHAVE, ...Array.from({ length: 50 }, (_, i) => `${CHAVE.slice(0, 40)}${String(i).padStart(4, '0')}`)];
    await upload(csv('chaves.csv', linhas.join('\r\n')));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'POST', path: '/api/v1/fatura/lote' });
    expect(sent[0]!.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect((sent[0]!.body as { listaChNfe: string[] }).listaChNfe.slice(0, 3)).toEqual(['CHNFE', CHAVE, CHAVE]);
    expect(warnings()).toEqual(['Foram consideradas apenas as 50 primeiras linhas do arquivo; as demais foram ignoradas.', 'Linhas repetidas foram ignoradas: 1.']);
    const texto = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(saved[0]!);
    });
    expect(texto).toBe('CHNFE;SITUACAO\r\n');
    // …after the UTF-8 byte-order mark (3 bytes), which FileReader hides.
    expect(saved[0]!.size).toBe(3 + texto.length);
    expect(await screen.findByText(/O resultado foi baixado em retorno-lote-consultar-fatura.csv/)).toBeTruthy();
  });

  it('the NF-e billing batch calls type 1 and names its answer b2b', async () => {
    signIn(['sefaz_admin']);
    const sent = stub(() => new Response('x', { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' } }));
    renderApp('/app/servico/consulta-faturamento-nfe');
    await upload(csv('f.csv', 'CNPJ_BASE_INST_FIN;CNPJ_EMIT;DATA_INICIO;DATA_FIM\n60701190;11222333000181;01/01/2026;30/06/2026'));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.path).toBe('/api/v1/faturamento/lote/1');
    expect(await screen.findByText(/O resultado foi baixado em retorno-lote-consultar-faturamentob2b.csv/)).toBeTruthy();
  });
});

describe('consulta-fate and the carrier report', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('requires the key, keeps only digits, and shows the document as a tree and its instalments with their assignments', async () => {
    signIn(['sefaz_admin']);
    const sent = stub(() =>
      jsonResponse(200, {
        chave: CHAVE, situacao: 'ATIVA', uf: 'BA', modelo: '55', serie: '1', numero: '123', emissao: '2026-05-10T12:00:00.000Z', protocolo: null,
        emitente: { cnpj: '12345678000195', nome: 'Emitente', uf: 'BA' }, destinatario: { documento: '11222333000181', tipo: 'CNPJ', nome: 'Dest', uf: null },
        transportador: null, valorNota: 100, fatura: { numero: null, valorOriginal: 100, desconto: 0, valorLiquido: 100 },
        duplicatas: [
          { numero: '001', vencimento: '2026-06-10', valor: 100, cessao: { cnpjCessionario: '11222333000181', dataCessao: '2026-05-20', valor: 80, registradaEm: '2026-05-20T15:00:00.000Z' } },
          { numero: '002', vencimento: '2026-07-10', valor: 250, cessao: null },
        ],
        cancelamento: null,
        evidencia: {
          manifestacao: { tpEvento: '210220', descricao: 'Desconhecimento da Operação', data: '2026-05-12T13:00:00.000Z', registradaEm: '2026-05-12T13:00:05.000Z', protocolo: '891', autor: '11222333000181', justificativa: null },
          manifestacoes: [],
          entrega: null,
          correcoes: [],
          devolucoes: [],
          valorDevolvido: 0,
          valorLiquidoAposDevolucoes: 100,
          ctes: [],
          parcelas: [],
          flags: ['DESCONHECIDA_PELO_DESTINATARIO', 'PARCELA_CEDIDA'],
          linhaDoTempo: [
            { data: '2026-05-10T12:00:00.000Z', etapa: 'EMITIDA', descricao: 'NF-e emitida' },
            { data: '2026-05-12T13:00:00.000Z', etapa: 'MANIFESTADA', descricao: 'Desconhecimento da Operação' },
          ],
        },
      }),
    );
    renderApp('/app/consulta/fate');
    await userEvent.click(await screen.findByRole('button', { name: 'Pesquisar' }));
    await waitFor(() => expect(warnings()).toEqual(['O campo Chave de Acesso é obrigatório.']));
    await userEvent.type(screen.getByLabelText('Chave de Acesso'), `ab${CHAVE}`);
    expect((screen.getByLabelText('Chave de Acesso') as HTMLInputElement).value).toBe(CHAVE);
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    const tree = await screen.findByRole('tree', { name: 'Resultado da consulta' });
    expect(within(tree).getByText(`chave: ${CHAVE}`)).toBeTruthy();
    expect(within(tree).getByText('nome: Emitente')).toBeTruthy();
    expect(sent.at(-1)!.path).toBe(`/api/v1/consulta/fate/1/${CHAVE}`);
    // The instalment table: one row each, the assignment column in words.
    const parcelas = screen.getByRole('table', { name: 'Parcelas' });
    expect(within(parcelas).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Parcela', 'Vencimento', 'Valor', 'Cessão']);
    const linhas = within(parcelas).getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell').map((c) => c.textContent?.replace(/\s/g, ' ')));
    expect(linhas).toEqual([
      ['001', '10/06/2026', 'R$ 1,00', 'Cedida em 20/05/2026 a 11.222.333/0001-81'],
      ['002', '10/07/2026', 'R$ 2,50', 'Não cedida'],
    ]);
    // The evidence: each flag with its rule, the manifestation in words, the timeline in order.
    const sinais = screen.getByRole('list', { name: 'Sinais' });
    expect(within(sinais).getByText('DESCONHECIDA_PELO_DESTINATARIO')).toBeTruthy();
    expect(within(sinais).getByText(/o destinatário diz não reconhecer a venda/)).toBeTruthy();
    expect(screen.getByText(/Desconhecimento da Operação em 12\/05\/2026 10:00/)).toBeTruthy();
    const etapas = [...document.querySelectorAll('[data-etapa]')].map((e) => e.getAttribute('data-etapa'));
    expect(etapas).toEqual(['EMITIDA', 'MANIFESTADA']);
  });

  it('lists the carrier rows with the page total and the grand total', async () => {
    signIn(['sefaz_admin']);
    const sent = stub(() =>
      jsonResponse(200, {
        linhas: [
          { cnpj: '11222333000181', nome: 'Transportes Rápidos', dhRecbto: '2026-11-02', qtdFate: 3, total: 5 },
          { cnpj: '11222333000181', nome: 'Transportes Rápidos', dhRecbto: '2026-11-03', qtdFate: 2, total: 5 },
        ],
        nextCursor: 'cursor-da-pagina-2',
        situacaoTotalGeral: 'CONCLUIDO',
        totalGeral: 9,
      }),
    );
    renderApp('/app/consulta/qtd-fate-transportadora');
    const table = await screen.findByRole('table');
    await within(table).findByText('02/11/2026');
    expect(within(table).getAllByText('11.222.333/0001-81')).toHaveLength(2);
    const totals = [...table.querySelectorAll('tfoot tr')].map((r) => r.textContent);
    expect(totals).toEqual(['Total5', 'Total Geral9']);
    // Paged on the server: the next page sends the cursor it was given.
    expect((screen.getByRole('button', { name: 'Anterior' }) as HTMLButtonElement).disabled).toBe(true);
    const pedidos = sent.length;
    await userEvent.click(screen.getByRole('button', { name: 'Próxima' }));
    await waitFor(() => expect(sent.length).toBeGreaterThan(pedidos));
    expect(sent.at(-1)!.body).toMatchObject({ cursor: 'cursor-da-pagina-2', perPage: 10 });
    expect(await screen.findByText('Página 2')).toBeTruthy();
  });
});
