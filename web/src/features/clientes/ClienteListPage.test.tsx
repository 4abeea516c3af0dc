import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { getSession, saveFilter } from '../../lib/session';
import { field, jsonResponse, makeRow, pageOf, pickOption, renderClientes, signInAdmin, signInGestor, stubApi } from '../../test/clientes';

const LIST = 'GET /api/v1/cliente';

function queryOf(call: { query: URLSearchParams } | undefined) {
  return Object.fromEntries(call?.query ?? []);
}

const ROWS = [
  makeRow(),
  makeRow({ id: 'c-2', razao_social: 'Fomento Beta Ltda', cnpj: '45997418000153', tipo_cliente: 'ESF', telefone: '7133334444', situacao: 'N' }),
  makeRow({ id: 'c-3', razao_social: 'Shopping Gama', cnpj: '12ABC34501DE35', tipo_cliente: 'SHOPPING', telefone: null, situacao: 'N' }),
];

const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr')!;

describe('cliente-list', { timeout: 20_000 }, () => {
  it('lists razão social, formatted CNPJ, type, formatted telephone and the status label, sorted by razão social', async () => {
    signInAdmin();
    const api = stubApi({ [LIST]: jsonResponse(200, pageOf(ROWS, 3)) });
    renderClientes('/app/cliente');
    const row = await rowOf('Fomento Beta Ltda');
    expect([...row.querySelectorAll('td')].slice(0, 5).map((td) => td.textContent)).toEqual([
      'Fomento Beta Ltda', '45.997.418/0001-53', 'ESF', '(71) 3333-4444', 'Novo',
    ]);
    expect([...(await rowOf('Banco Alfa S.A.')).querySelectorAll('td')].slice(0, 5).map((td) => td.textContent)).toEqual([
      'Banco Alfa S.A.', '11.222.333/0001-81', 'IMF', '(71) 98888-7777', 'Ativo',
    ]);
    expect((await rowOf('Shopping Gama')).textContent).toContain('12.ABC.345/01DE-35');
    expect([...document.querySelectorAll('thead th')].map((th) => th.textContent)).toEqual([
      'Razão Social', 'CNPJ', 'Tipo', 'Telefone', 'Situação', 'Ações',
    ]);
    expect(queryOf(api.calls[0])).toEqual({ sort: 'razao_social', order: 'asc', page: '1', size: '25' });
  });

  it('saves the filters in the session and restores them on return', async () => {
    signInAdmin();
    const api = stubApi({ [LIST]: jsonResponse(200, pageOf([makeRow()], 1)) });
    const { router, unmount } = renderClientes('/app/cliente');
    await screen.findByText('Banco Alfa S.A.');

    await userEvent.type(field('CNPJ'), '11222333');
    await userEvent.type(field('Razão Social'), 'Alfa');
    await pickOption(field('Situação'), 'Em Avaliação');
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));

    const expected = { cnpj: '11222333', razao_social: 'Alfa', situacao: 'E', sort: 'razao_social', order: 'asc', page: '1', size: '25' };
    await waitFor(() => expect(queryOf(api.calls.at(-1))).toEqual(expected));
    expect(getSession().filters.cliente).toMatchObject({ cnpj: '11.222.333', razao_social: 'Alfa', situacao: 'E', page: 1, size: 25 });

    await router.navigate('/app');
    unmount();
    const before = api.calls.length;
    renderClientes('/app/cliente');
    await screen.findByText('Banco Alfa S.A.');
    expect(field('CNPJ').value).toBe('11.222.333');
    expect(field('Razão Social').value).toBe('Alfa');
    expect(queryOf(api.calls[before])).toEqual(expected);
  });

  it('restores a saved page, size and sort; sorting by a column asks the server', async () => {
    signInAdmin();
    saveFilter('cliente', { cnpj: '', razao_social: '', situacao: 'N', page: 2, size: 10, sort: 'situacao', order: 'desc' });
    const api = stubApi({ [LIST]: jsonResponse(200, pageOf([makeRow()], 30, 2, 10)) });
    renderClientes('/app/cliente');
    await screen.findByText('Banco Alfa S.A.');
    expect(queryOf(api.calls[0])).toEqual({ situacao: 'N', sort: 'situacao', order: 'desc', page: '2', size: '10' });

    await userEvent.click(screen.getByText('CNPJ', { selector: 'th *' }));
    await waitFor(() => expect(queryOf(api.calls.at(-1))).toMatchObject({ sort: 'cnpj', order: 'asc', page: '1' }));
    await userEvent.click(screen.getByText('CNPJ', { selector: 'th *' }));
    await waitFor(() => expect(queryOf(api.calls.at(-1))).toMatchObject({ sort: 'cnpj', order: 'desc' }));
  });

  it('has no contract download for SHOPPING; the download saves contrato_plac.pdf', async () => {
    signInAdmin();
    const api = stubApi({
      [LIST]: jsonResponse(200, pageOf(ROWS, 3)),
      'GET /api/v1/cliente/c-1/download-contrato': jsonResponse(200, { nome: 'contrato_plac.pdf', arquivo: btoa('%PDF-1.4') }),
    });
    // The setup's inert object URLs, watched (the spy is undone after the test).
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:contrato');
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(`${this.download} ${this.href}`);
    });
    renderClientes('/app/cliente');

    expect(within(await rowOf('Shopping Gama')).queryByRole('button', { name: 'Baixar contrato' })).toBeNull();
    expect(within(await rowOf('Fomento Beta Ltda')).getByRole('button', { name: 'Baixar contrato' })).toBeTruthy();
    await userEvent.click(within(await rowOf('Banco Alfa S.A.')).getByRole('button', { name: 'Baixar contrato' }));
    await waitFor(() => expect(clicked).toEqual(['contrato_plac.pdf blob:contrato']));
    expect(api.of('GET', '/api/v1/cliente/c-1/download-contrato')).toHaveLength(1);
    const blob = createObjectURL.mock.calls[0]![0] as Blob;
    expect(blob.type).toBe('application/pdf');
    expect(blob.size).toBe('%PDF-1.4'.length);
  });

  it('admin: edit on every row, unlock only for Novo', async () => {
    signInAdmin();
    stubApi({ [LIST]: jsonResponse(200, pageOf(ROWS, 3)) });
    const { router } = renderClientes('/app/cliente');
    const alfa = await rowOf('Banco Alfa S.A.');
    expect(within(alfa).queryByRole('button', { name: 'Liberar' })).toBeNull();
    expect(within(await rowOf('Fomento Beta Ltda')).getByRole('button', { name: 'Liberar' })).toBeTruthy();
    expect(within(await rowOf('Shopping Gama')).getByRole('button', { name: 'Liberar' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Editar' })).toHaveLength(3);
    await userEvent.click(within(alfa).getByRole('button', { name: 'Editar' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/cliente/c-1'));
  });

  it('manager: neither edit nor unlock, the contract download stays', async () => {
    signInGestor();
    stubApi({ [LIST]: jsonResponse(200, pageOf(ROWS, 3)) });
    renderClientes('/app/cliente');
    const beta = await rowOf('Fomento Beta Ltda');
    expect(within(beta).getByRole('button', { name: 'Baixar contrato' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Liberar' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Editar' })).toBeNull();
  });

  it('unlocks after a yes: PUT liberar, the server message as toast, the list reloaded', async () => {
    signInAdmin();
    let liberado = false;
    const api = stubApi({
      [LIST]: () => jsonResponse(200, pageOf(liberado ? [makeRow({ id: 'c-2', razao_social: 'Fomento Beta Ltda', situacao: 'A' })] : [ROWS[1]!], 1)),
      'PUT /api/v1/cliente/c-2/liberar': () => {
        liberado = true;
        return jsonResponse(200, { message: 'Cliente liberado com sucesso. Os usuários foram avisados por e-mail.' });
      },
    });
    renderClientes('/app/cliente');
    const beta = await rowOf('Fomento Beta Ltda');

    await userEvent.click(within(beta).getByRole('button', { name: 'Liberar' }));
    expect(await screen.findByText('Deseja liberar o cliente?')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Não' }));
    await waitFor(() => expect(screen.queryByText('Deseja liberar o cliente?')).toBeNull());
    expect(api.of('PUT', '/api/v1/cliente/c-2/liberar')).toHaveLength(0);

    await userEvent.click(within(beta).getByRole('button', { name: 'Liberar' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Sim' }));
    expect(await screen.findByText('Cliente liberado com sucesso. Os usuários foram avisados por e-mail.')).toBeTruthy();
    expect(api.of('PUT', '/api/v1/cliente/c-2/liberar')).toHaveLength(1);
    await waitFor(() => expect(within(screen.getByText('Fomento Beta Ltda').closest('tr')!).getByText('Ativo')).toBeTruthy());
    expect(screen.queryByRole('button', { name: 'Liberar' })).toBeNull();
  });
});
