import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { base64ToBytes } from '../../lib/download';
import { diaBr, hojeMais } from './model';
import { jsonResponse, makeDocumentoErro, pickOption, renderPage, signInAs, stubApi } from '../../test/cargas';
import { bytesOf, typeDate } from '../../test/inputs';

const LISTA = 'GET /api/v1/documentos-erro';
const PATH = '/app/documentos-erro';

const pagina = (items: unknown[], nextCursor?: string) => ({ items, ...(nextCursor ? { nextCursor } : {}) });

/** Writes a date into a Calendar's input, replacing what it shows (the Calendar parses each input event). */
describe('documentos-erro', { timeout: 20_000 }, () => {
  it('opens on the last 30 days of every UF, searches at once and lists type, UF, exception, message and creation time', async () => {
    signInAs(['sefaz_admin'], { uf: 'BA' });
    const api = stubApi({ [LISTA]: jsonResponse(200, pagina([makeDocumentoErro()])) });
    renderPage(PATH);

    const row = (await screen.findByText('LayoutInvalido')).closest('tr')!;
    expect([...row.querySelectorAll('td')].slice(0, 5).map((td) => td.textContent)).toEqual([
      'procNFe',
      'PI',
      'LayoutInvalido',
      'A chave de acesso é inválida.',
      '10/05/2026 10:05',
    ]);
    const query = api.of('GET', '/api/v1/documentos-erro')[0]!.query;
    expect(Object.fromEntries(query)).toEqual({ dataInicio: diaBr(hojeMais(-29)), dataFim: diaBr(hojeMais(0)), perPage: '10' });
    expect(screen.getByLabelText('UF de Origem').closest('.p-dropdown')!.textContent).toContain('Todas');
    expect(screen.getByLabelText<HTMLInputElement>('Data Início').value).toBe(diaBr(hojeMais(-29)));
    expect(screen.getByLabelText<HTMLInputElement>('Data Fim').value).toBe(diaBr(hojeMais(0)));
    expect(within(row).getByRole('button', { name: /^Ver detalhe do erro/ })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: /stack/i })).toBeNull();
    expect(within(row).getByRole('button', { name: /^Baixar XML/ })).toBeTruthy();
    expect(within(row).getByRole('button', { name: /^Excluir/ })).toBeTruthy();
  });

  it('searches the UF picked, with the dates typed', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({ [LISTA]: jsonResponse(200, pagina([])) });
    renderPage(PATH);
    expect(await screen.findByText('Nenhum registro encontrado')).toBeTruthy();
    await pickOption(screen.getByLabelText('UF de Origem'), 'TO - Tocantins');
    await typeDate('Data Início', diaBr(hojeMais(-5)));
    await typeDate('Data Fim', diaBr(hojeMais(-1)));
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    await waitFor(() => expect(api.of('GET', '/api/v1/documentos-erro')).toHaveLength(2));
    expect(Object.fromEntries(api.of('GET', '/api/v1/documentos-erro')[1]!.query)).toEqual({
      UFOrigem: 'TO',
      dataInicio: diaBr(hojeMais(-5)),
      dataFim: diaBr(hojeMais(-1)),
      perPage: '10',
    });
  });

  it('requires both dates: the catalogue messages beside the fields and as toasts, and no request', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({ [LISTA]: jsonResponse(200, pagina([])) });
    renderPage(PATH);
    await screen.findByText('Nenhum registro encontrado');
    await typeDate('Data Início', '');
    await typeDate('Data Fim', '');
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));

    expect(await screen.findAllByText('O campo Data Início é obrigatório')).toHaveLength(2);
    expect(screen.getAllByText('O campo Data Fim é obrigatório')).toHaveLength(2);
    expect(document.getElementById('filtro-data-inicio-error')?.textContent).toBe('O campo Data Início é obrigatório');
    expect(screen.getByLabelText('Data Início').getAttribute('aria-describedby')).toBe('filtro-data-inicio-error');
    expect(api.of('GET', '/api/v1/documentos-erro')).toHaveLength(1);
  });

  it('refuses a start after the end and a period over 90 days, in the catalogue words', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({ [LISTA]: jsonResponse(200, pagina([])) });
    renderPage(PATH);
    await screen.findByText('Nenhum registro encontrado');

    await typeDate('Data Início', diaBr(hojeMais(-1)));
    await typeDate('Data Fim', diaBr(hojeMais(-2)));
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    expect(await screen.findByText('Data Início maior que Data Fim.')).toBeTruthy();

    await typeDate('Data Início', diaBr(hojeMais(-92)));
    await typeDate('Data Fim', diaBr(hojeMais(-1)));
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    expect(await screen.findByText('Selecione um período de, no máximo, 90 dias.')).toBeTruthy();
    expect(api.of('GET', '/api/v1/documentos-erro')).toHaveLength(1);

    // Exactly 90 days is allowed.
    await typeDate('Data Início', diaBr(hojeMais(-91)));
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    await waitFor(() => expect(api.of('GET', '/api/v1/documentos-erro')).toHaveLength(2));
  });

  it('a manager has the own UF fixed: the dropdown shows it disabled and every search asks for it', async () => {
    signInAs(['sefaz_gestor'], { uf: 'BA' });
    const api = stubApi({ [LISTA]: jsonResponse(200, pagina([])) });
    renderPage(PATH);
    await screen.findByText('Nenhum registro encontrado');
    const dropdown = screen.getByLabelText('UF de Origem').closest('.p-dropdown')!;
    expect(dropdown.classList.contains('p-disabled')).toBe(true);
    expect(dropdown.textContent).toContain('BA - Bahia');
    expect(api.of('GET', '/api/v1/documentos-erro')[0]!.query.get('UFOrigem')).toBe('BA');
  });

  it('pages by cursor: Próxima sends the nextCursor, Anterior goes back, a new search starts at page 1; never empty while loading', async () => {
    signInAs(['sefaz_admin']);
    let release: () => void = () => undefined;
    const api = stubApi({
      [LISTA]: ((call: { query: URLSearchParams }) => {
        const cursor = call.query.get('cursor');
        const answer = cursor === 'c2' ? pagina([makeDocumentoErro({ id: 'PI-000000000000002', excecao: 'Segunda' })]) : pagina([makeDocumentoErro({ excecao: 'Primeira' })], 'c2');
        // The first answer waits: the table shows the loading state, never 'Nenhum registro encontrado'.
        if (!cursor && api.of('GET', '/api/v1/documentos-erro').length === 1) return new Promise<Response>((resolve) => (release = () => resolve(jsonResponse(200, answer))));
        return jsonResponse(200, answer);
      }) as never,
    });
    renderPage(PATH);
    await waitFor(() => expect(api.of('GET', '/api/v1/documentos-erro')).toHaveLength(1));
    expect(screen.queryByText('Nenhum registro encontrado')).toBeNull();
    release();
    expect(await screen.findByText('Primeira')).toBeTruthy();
    expect(screen.getByText('Página 1')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Anterior' }).disabled).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Próxima' }));
    expect(await screen.findByText('Segunda')).toBeTruthy();
    expect(screen.getByText('Página 2')).toBeTruthy();
    expect(api.of('GET', '/api/v1/documentos-erro').at(-1)!.query.get('cursor')).toBe('c2');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Próxima' }).disabled).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Anterior' }));
    expect(await screen.findByText('Primeira')).toBeTruthy();
    expect(screen.getByText('Página 1')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Próxima' }));
    await screen.findByText('Segunda');
    await pickOption(screen.getByLabelText('UF de Origem'), 'TO - Tocantins');
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    await waitFor(() => expect(api.of('GET', '/api/v1/documentos-erro').at(-1)!.query.get('UFOrigem')).toBe('TO'));
    expect(api.of('GET', '/api/v1/documentos-erro').at(-1)!.query.get('cursor')).toBeNull();
    expect(await screen.findByText('Página 1')).toBeTruthy();
  });

  it("shows the parser's detail (message and position in the document) in a dialog, never a stack (issue 27 item 2)", async () => {
    signInAs(['sefaz_admin']);
    stubApi({ [LISTA]: jsonResponse(200, pagina([makeDocumentoErro()])) });
    renderPage(PATH);
    await userEvent.click(await screen.findByRole('button', { name: /^Ver detalhe do erro/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Detalhe do erro' });
    expect(dialog.textContent).toContain('LayoutInvalido: A chave de acesso é inválida.');
    expect(dialog.querySelector('pre')?.textContent).toBe("Closing tag 'infNFe' is expected inplace of 'NFe'. (linha 1, coluna 120)");
  });

  it('shows a dash when the document has no detail beyond its message', async () => {
    signInAs(['sefaz_admin']);
    stubApi({ [LISTA]: jsonResponse(200, pagina([makeDocumentoErro({ detalhe: '' })])) });
    renderPage(PATH);
    await userEvent.click(await screen.findByRole('button', { name: /^Ver detalhe do erro/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Detalhe do erro' });
    expect(dialog.querySelector('pre')?.textContent).toBe('—');
  });

  it('downloads the XML byte for byte under the server file name', async () => {
    signInAs(['sefaz_admin']);
    // ISO-8859-1 bytes (0xE9 'é') and a byte that is not valid UTF-8: must come out unchanged.
    const bytes = Uint8Array.from([...new TextEncoder().encode('<?xml version="1.0" encoding="ISO-8859-1"?><a>'), 0xe9, 0xff, 0x00, ...new TextEncoder().encode('</a>')]);
    const base64 = btoa(String.fromCharCode(...bytes));
    stubApi({
      [LISTA]: jsonResponse(200, pagina([makeDocumentoErro()])),
      'GET /api/v1/documentos-erro/PI-000000000000123/download': jsonResponse(200, {
        nomeArquivo: 'PI-000000000000123.xml',
        contentType: 'application/xml',
        conteudoBase64: base64,
      }),
    });
    let saved: Blob | undefined;
    const createObjectURL = vi.fn((blob: Blob) => {
      saved = blob;
      return 'blob:xml';
    });
    vi.stubGlobal('URL', Object.assign(class extends URL {}, { createObjectURL, revokeObjectURL: vi.fn() }));
    let downloadName = '';
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloadName = this.download;
    });
    renderPage(PATH);
    await userEvent.click(await screen.findByRole('button', { name: /^Baixar XML/ }));
    await waitFor(() => expect(saved).toBeDefined());
    expect(downloadName).toBe('PI-000000000000123.xml');
    expect(saved!.type).toBe('application/xml');
    expect(await bytesOf(saved!)).toEqual(bytes);
  });

  it('removes a document after Sim, says so and searches again', async () => {
    signInAs(['sefaz_admin']);
    let removido = false;
    const api = stubApi({
      [LISTA]: () => jsonResponse(200, pagina(removido ? [] : [makeDocumentoErro()])),
      'DELETE /api/v1/documentos-erro/PI-000000000000123': () => {
        removido = true;
        return jsonResponse(200, { message: 'Remoção realizada com sucesso.' });
      },
    });
    renderPage(PATH);
    await userEvent.click(await screen.findByRole('button', { name: /^Excluir/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Não' }));
    expect(api.of('DELETE', '/api/v1/documentos-erro/PI-000000000000123')).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: /^Excluir/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Sim' }));
    expect(await screen.findByText('Remoção realizada com sucesso.')).toBeTruthy();
    expect(await screen.findByText('Nenhum registro encontrado')).toBeTruthy();
    expect(api.of('GET', '/api/v1/documentos-erro').length).toBeGreaterThanOrEqual(2);
  });
});

describe('base64ToBytes', () => {
  it('decodes with and without padding, ignoring line breaks', () => {
    expect([...base64ToBytes('PD94bWw+')]).toEqual([...new TextEncoder().encode('<?xml>')]);
    expect([...base64ToBytes('YQ==')]).toEqual([97]);
    expect([...base64ToBytes('YWI')]).toEqual([97, 98]);
    expect([...base64ToBytes('YW\nJj')]).toEqual([97, 98, 99]);
    expect(() => base64ToBytes('a*b')).toThrow();
  });
});
