import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, nsu15, pickOption, renderPage, SEFAZ, signInAs, stubApi } from '../../test/cargas';

const PATH = '/app/processamento/loteProcessamento';
const SEFAZ_LIST = 'GET /api/v1/processamento/sefaz';
const LOTE = 'POST /api/v1/processamento/lote';

const CHAVE = '29260512345678000195550010000001231000001234';

function resultado(overrides: Record<string, unknown> = {}) {
  return {
    sefaz: { cuf: 29, sigla: 'BA', nome: 'Bahia' },
    fluxo: 'nfe',
    ultNSU: nsu15(10),
    nsuFin: nsu15(60),
    cStat: '138',
    xMotivo: 'Documento(s) localizado(s)',
    maxNSU: nsu15(300),
    contagem: { fate: 1, eventos: 0, resumos: 0, erros: 0, ignorados: 0, repetidos: 49 },
    documentos: [{ nsu: nsu15(11), schema: 'procFate_1.00.xsd', resultado: 'fate', chave: CHAVE }],
    ...overrides,
  };
}

const warnings = () => [...document.querySelectorAll('.p-toast-message-warn .p-toast-detail')].map((e) => e.textContent);

async function fill(inicio: string, fim: string) {
  const start = screen.getByLabelText('NSU Início');
  const end = screen.getByLabelText('NSU Fim');
  await userEvent.clear(start);
  if (inicio) await userEvent.type(start, inicio);
  await userEvent.clear(end);
  if (fim) await userEvent.type(end, fim);
}

const importar = () => userEvent.click(screen.getByRole('button', { name: 'Importar Lote' }));

describe('lote-processamento', { timeout: 20_000 }, () => {
  it('shows the usage instructions word for word', async () => {
    signInAs(['sefaz_admin']);
    stubApi({ [SEFAZ_LIST]: jsonResponse(200, SEFAZ) });
    renderPage(PATH);
    const items = (await screen.findByText('O NSU Início é o número anterior ao desejado.')).closest('ul')!.querySelectorAll('li');
    expect([...items].map((li) => li.textContent)).toEqual([
      'O NSU Início é o número anterior ao desejado.',
      'O NSU Fim é o último desejado.',
      'A faixa máxima é de 50 NSUs.',
      'O NSU Fim deve ser diferente do NSU Início.',
    ]);
  });

  it('checks the form before calling, each rule with its catalogue text as a warning', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({ [SEFAZ_LIST]: jsonResponse(200, SEFAZ) });
    renderPage(PATH);
    await screen.findByText('O NSU Fim é o último desejado.');

    // No Sefaz.
    await fill('10', '20');
    await importar();
    await waitFor(() => expect(warnings()).toContain('É necessário escolher uma Sefaz'));

    await pickOption(screen.getByLabelText('Sefaz'), 'BA - Bahia');
    // No start (letters are not taken).
    await fill('abc', '20');
    expect(screen.getByLabelText<HTMLInputElement>('NSU Início').value).toBe('');
    await importar();
    await waitFor(() => expect(warnings()).toContain('Os campos NSU Início e NSU Fim devem ser preenchidos'));

    // End not after the start.
    await fill('20', '20');
    await importar();
    await waitFor(() => expect(warnings()).toContain('O NSU Fim não pode ser menor ou igual ao NSU Início'));
    await fill('20', '5');
    await importar();
    expect(warnings().filter((w) => w === 'O NSU Fim não pode ser menor ou igual ao NSU Início')).toHaveLength(2);

    // More than 50.
    await fill('20', '71');
    await importar();
    await waitFor(() => expect(warnings()).toContain('A faixa máxima de importação é de 50 NSUs.'));

    expect(api.of('POST', '/api/v1/processamento/lote')).toEqual([]);
  });

  it('an empty end is the start plus 50, filled in; the answer is a JSON tree with the count', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({ [SEFAZ_LIST]: jsonResponse(200, SEFAZ), [LOTE]: jsonResponse(200, resultado()) });
    renderPage(PATH);
    await pickOption(await screen.findByLabelText('Sefaz'), 'BA - Bahia');
    await fill('10', '');
    await importar();

    await waitFor(() => expect(api.of('POST', '/api/v1/processamento/lote')).toHaveLength(1));
    expect(api.of('POST', '/api/v1/processamento/lote')[0]!.body).toEqual({ sefaz: '29', fluxo: 'nfe', ultNSU: '10', nsuFin: '60' });
    expect(screen.getByLabelText<HTMLInputElement>('NSU Fim').value).toBe('60');

    const tree = await screen.findByRole('tree', { name: 'Resultado da importação' });
    expect(screen.getByText('Fat-e novas: 1 · Eventos: 0 · Resumos: 0 · Erros: 0 · Ignorados: 0 · Já gravados: 49')).toBeTruthy();
    // The root and the document list are open; each document opens on demand.
    expect(within(tree).getByText('resultado: {…}')).toBeTruthy();
    expect(within(tree).getByText('cStat: 138')).toBeTruthy();
    expect(within(tree).getByText('documentos: [1]')).toBeTruthy();
    const documento = within(tree).getByRole('treeitem', { name: '0: {…}' });
    expect(documento.getAttribute('aria-expanded')).toBe('false');
    expect(within(tree).queryByText(`chave: ${CHAVE}`)).toBeNull();
    // Toggles named after what they do; an open item is named by its content (its children show inside it).
    expect(within(tree).getByRole('button', { name: 'Recolher resultado: {…}' })).toBeTruthy();
    expect(within(tree).getByText('resultado: {…}').closest('[role="treeitem"]')!.hasAttribute('aria-label')).toBe(false);
    await userEvent.click(within(tree).getByRole('button', { name: 'Expandir 0: {…}' }));
    expect(await within(tree).findByText(`chave: ${CHAVE}`)).toBeTruthy();
    expect(documento.getAttribute('aria-expanded')).toBe('true');
    expect(within(tree).getByText('resultado: fate')).toBeTruthy();
    expect(within(tree).getByText(`nsu: ${nsu15(11)}`)).toBeTruthy();
  });

  it('imports from the transport stream (CT-e) when chosen, and shows the answer as it is', async () => {
    signInAs(['sefaz_admin']);
    const cte = resultado({
      fluxo: 'cte',
      ultNSU: nsu15(0),
      nsuFin: nsu15(3),
      contagem: { fate: 3, eventos: 0, resumos: 0, erros: 0, ignorados: 0, repetidos: 0 },
      documentos: [1, 2, 3].map((n) => ({ nsu: nsu15(n), schema: 'procCTe_v4.00.xsd', resultado: 'fate', chave: CHAVE })),
    });
    const api = stubApi({ [SEFAZ_LIST]: jsonResponse(200, SEFAZ), [LOTE]: jsonResponse(200, cte) });
    renderPage(PATH);
    const documentos = (await screen.findByLabelText('Documentos')).closest('.p-dropdown')!;
    expect(documentos.textContent).toContain('Mercadorias (NF-e)');
    await pickOption(await screen.findByLabelText('Sefaz'), 'BA - Bahia');
    await pickOption(screen.getByLabelText('Documentos'), 'Transporte (CT-e)');
    expect(documentos.textContent).toContain('Transporte (CT-e)');
    await fill('0', '3');
    await importar();

    await waitFor(() => expect(api.of('POST', '/api/v1/processamento/lote')).toHaveLength(1));
    expect(api.of('POST', '/api/v1/processamento/lote')[0]!.body).toEqual({ sefaz: '29', fluxo: 'cte', ultNSU: '0', nsuFin: '3' });
    const tree = await screen.findByRole('tree', { name: 'Resultado da importação' });
    expect(screen.getByText(/^BA - Bahia · Transporte \(CT-e\) · NSU 0 a 3 · 138/)).toBeTruthy();
    expect(within(tree).getByText('fluxo: cte')).toBeTruthy();
    expect(within(tree).getByText('documentos: [3]')).toBeTruthy();
  });

  it('a manager sees the list with the own UF chosen and fixed', async () => {
    signInAs(['sefaz_gestor'], { uf: 'BA' });
    const api = stubApi({ [SEFAZ_LIST]: jsonResponse(200, SEFAZ), [LOTE]: jsonResponse(200, resultado()) });
    renderPage(PATH);
    const dropdown = (await screen.findByLabelText('Sefaz')).closest('.p-dropdown')!;
    await waitFor(() => expect(dropdown.textContent).toContain('BA - Bahia'));
    expect(dropdown.classList.contains('p-disabled')).toBe(true);
    await fill('0', '5');
    await importar();
    await waitFor(() => expect(api.of('POST', '/api/v1/processamento/lote')[0]?.body).toEqual({ sefaz: '29', fluxo: 'nfe', ultNSU: '0', nsuFin: '5' }));
  });

  it("shows the server's refusal with the standard error toast", async () => {
    signInAs(['sefaz_admin']);
    stubApi({ [SEFAZ_LIST]: jsonResponse(200, SEFAZ), [LOTE]: jsonResponse(503, { error: 'sefazIndisponivel' }) });
    renderPage(PATH);
    await pickOption(await screen.findByLabelText('Sefaz'), 'RR - Roraima');
    await fill('0', '5');
    await importar();
    await waitFor(() =>
      expect([...document.querySelectorAll('.p-toast-message-error .p-toast-detail')].map((e) => e.textContent)).toContain(
        'A Sefaz não respondeu à consulta. Tente novamente em alguns minutos.',
      ),
    );
    expect(screen.queryByRole('tree')).toBeNull();
  });
});
