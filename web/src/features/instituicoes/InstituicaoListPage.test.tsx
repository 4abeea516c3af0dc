import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, makeInstituicao, pickOption, renderPage, signInAs, stubApi } from '../../test/instituicoes';

const FILTRO = 'POST /api/v1/instituicao-financeira/filtro';

describe('instituicao-financeira', { timeout: 20_000 }, () => {
  it('requires at least one filter: the filter-error toast and no request', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({});
    renderPage('/app/consulta/instituicaoFinanceira');
    await userEvent.click(await screen.findByRole('button', { name: 'Pesquisar' }));
    expect(await screen.findByText('Informe ao menos um filtro para realizar a pesquisa.')).toBeTruthy();
    expect(api.calls).toEqual([]);
  });

  it('searches by UF and shows name, masked base CNPJ, type, UF, status and edit', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({ [FILTRO]: jsonResponse(200, { items: [makeInstituicao(), makeInstituicao({ id: 'i-2', razaoSocial: 'Fundo Beta', situacao: 'PENDENTE', tipo: null })], }) });
    renderPage('/app/consulta/instituicaoFinanceira');
    await pickOption(await screen.findByLabelText('UF'), 'BA - Bahia');
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));

    const row = (await screen.findByText('Banco Alfa S.A.')).closest('tr')!;
    expect([...row.querySelectorAll('td')].slice(0, 5).map((td) => td.textContent)).toEqual(['Banco Alfa S.A.', '33.445.566', 'ESF', 'BA', 'Ativa']);
    expect(within(row).getByRole('button', { name: 'Editar Banco Alfa S.A.' })).toBeTruthy();
    expect(within(screen.getByText('Fundo Beta').closest('tr')!).getByText('Pendente')).toBeTruthy();
    expect(api.of('POST', '/api/v1/instituicao-financeira/filtro')[0]!.body).toEqual({ uf: 'BA', perPage: 25 });
  });

  it('the institution autocomplete offers the top 5 below 3 characters and searches from 3, then filters by its CNPJ', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({
      'GET /api/v1/instituicao-financeira/top5': jsonResponse(200, [{ id: 'i-9', razaoSocial: 'Top Um', cnpj: '12345678', uf: 'BA', situacao: 'ATIVA' }]),
      'GET /api/v1/instituicao-financeira/autocomplete': jsonResponse(200, [{ id: 'i-1', razaoSocial: 'Banco Alfa S.A.', cnpj: '33445566', uf: 'BA', situacao: 'ATIVA' }]),
      [FILTRO]: jsonResponse(200, { items: [makeInstituicao()], }),
    });
    renderPage('/app/consulta/instituicaoFinanceira');
    const input = await screen.findByLabelText('Instituição Financeira');
    await userEvent.type(input, 'ba');
    await waitFor(() => expect(api.of('GET', '/api/v1/instituicao-financeira/top5').length).toBeGreaterThan(0));
    expect(api.of('GET', '/api/v1/instituicao-financeira/autocomplete')).toEqual([]);
    await userEvent.type(input, 'n');
    await waitFor(() => expect(api.of('GET', '/api/v1/instituicao-financeira/autocomplete').length).toBe(1));
    expect(api.of('GET', '/api/v1/instituicao-financeira/autocomplete')[0]!.query.get('razaoSocial')).toBe('ban');
    await userEvent.click(await screen.findByText('Banco Alfa S.A. - 33.445.566'));
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    await waitFor(() => expect(api.of('POST', '/api/v1/instituicao-financeira/filtro')[0]?.body).toEqual({ cnpjBaseEsf: '33445566', perPage: 25 }));
  });

  it('pages on the server by cursor: Próxima sends the cursor with the same filter, Anterior asks for the first page again', async () => {
    signInAs(['sefaz_admin']);
    const api = stubApi({
      [FILTRO]: (call) => {
        const segunda = (call.body as { cursor?: string }).cursor === 'c-2';
        return jsonResponse(200, { items: [makeInstituicao({ id: segunda ? 'i-2' : 'i-1', razaoSocial: segunda ? 'Banco da Página 2' : 'Banco da Página 1' })], ...(segunda ? {} : { nextCursor: 'c-2' }) });
      },
    });
    renderPage('/app/consulta/instituicaoFinanceira');
    await pickOption(await screen.findByLabelText('UF'), 'BA - Bahia');
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));
    await screen.findByText('Banco da Página 1');
    await userEvent.click(screen.getByRole('button', { name: 'Próxima' }));
    expect(await screen.findByText('Banco da Página 2')).toBeTruthy();
    expect(api.of('POST', '/api/v1/instituicao-financeira/filtro').at(-1)!.body).toEqual({ uf: 'BA', perPage: 25, cursor: 'c-2' });
    expect(screen.getByRole('button', { name: 'Próxima' }).hasAttribute('disabled')).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Anterior' }));
    expect(await screen.findByText('Banco da Página 1')).toBeTruthy();
  });
});
