import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getSession, saveFilter } from '../../lib/session';
import { jsonResponse, makeUser, pageOf, pickOption, renderUsers, signInAdmin, stubApi } from '../../test/users';

const LIST = 'GET /api/v1/users';

function queryOf(call: { query: URLSearchParams } | undefined) {
  return Object.fromEntries(call?.query ?? []);
}

describe('user-list', { timeout: 20_000 }, () => {
  it('lists the users with name, e-mail, type, formatted CPF and UF', async () => {
    signInAdmin();
    const api = stubApi({
      [LIST]: jsonResponse(200, pageOf([
        makeUser(),
        makeUser({ id: 'u-11', name: 'Bruno Reis', email: 'bruno@alfa.com.br', cpf: '11144477735', tipo_usuario: 'C', uf: null }),
      ])),
    });
    renderUsers('/app/user');

    const row = (await screen.findByText('Ana Lima')).closest('tr')!;
    expect([...row.querySelectorAll('td')].slice(0, 5).map((td) => td.textContent)).toEqual([
      'Ana Lima', 'ana@sefaz.ba.gov.br', 'Sefaz', '529.982.247-25', 'BA',
    ]);
    expect(within(row).getByRole('button', { name: 'Editar' })).toBeTruthy();
    expect([...document.querySelectorAll('thead th')].map((th) => th.textContent)).toEqual([
      'Nome', 'E-mail', 'Tipo', 'CPF/CNPJ', 'UF', 'Ações',
    ]);
    const other = screen.getByText('Bruno Reis').closest('tr')!;
    expect(within(other).getByText('Cliente')).toBeTruthy();
    expect(within(other).getByText('111.444.777-35')).toBeTruthy();
    // First load: no filter, first page of 25; no next page to ask for.
    expect(queryOf(api.of('GET', '/api/v1/users')[0])).toEqual({ perPage: '25' });
    expect(screen.getByRole('button', { name: 'Próxima' }).hasAttribute('disabled')).toBe(true);
  });

  it("shows 'Nenhum registro encontrado' when nothing matches", async () => {
    signInAdmin();
    stubApi({ [LIST]: jsonResponse(200, pageOf([])) });
    renderUsers('/app/user');
    expect(await screen.findByText('Nenhum registro encontrado')).toBeTruthy();
  });

  it('sends the filters as the query, saves them in the session and restores them on return', async () => {
    signInAdmin();
    const api = stubApi({ [LIST]: jsonResponse(200, pageOf([makeUser()])) });
    const { router, unmount } = renderUsers('/app/user');
    await screen.findByText('Ana Lima');

    await userEvent.type(screen.getByLabelText('Nome'), 'Ana');
    await userEvent.type(screen.getByLabelText('E-mail'), 'sefaz.ba');
    await pickOption(screen.getByLabelText('Situação'), 'Inativo');
    await pickOption(screen.getByLabelText('Tipo'), 'Sefaz');
    await userEvent.click(screen.getByRole('button', { name: 'Pesquisar' }));

    const expected = { name: 'Ana', email: 'sefaz.ba', situacao: 'I', tipo: 'S', perPage: '25' };
    await waitFor(() => expect(queryOf(api.of('GET', '/api/v1/users').at(-1))).toEqual(expected));
    expect(getSession().filters.user).toMatchObject({ name: 'Ana', email: 'sefaz.ba', situacao: 'I', tipo: 'S', size: 25 });

    // Away and back: the filter comes back in the fields and in the request.
    await router.navigate('/app');
    unmount();
    const before = api.calls.length;
    renderUsers('/app/user');
    await screen.findByText('Ana Lima');
    expect((screen.getByLabelText('Nome') as HTMLInputElement).value).toBe('Ana');
    expect((screen.getByLabelText('E-mail') as HTMLInputElement).value).toBe('sefaz.ba');
    expect(queryOf(api.calls[before])).toEqual(expected);
  });

  it('restores a saved filter with CPF and page size, and sends the CPF digits', async () => {
    signInAdmin();
    saveFilter('user', { cpf: '52998224725', name: '', email: '', situacao: 'A', tipo: 'C', size: 10 });
    const api = stubApi({ [LIST]: jsonResponse(200, pageOf([makeUser()])) });
    renderUsers('/app/user');
    await screen.findByText('Ana Lima');
    expect(queryOf(api.calls[0])).toEqual({ cpf: '52998224725', situacao: 'A', tipo: 'C', perPage: '10' });
    await waitFor(() => expect((screen.getByLabelText('CPF') as HTMLInputElement).value).toBe('529.982.247-25'));
  });

  it('pages on the server by cursor: the next page sends the cursor, the previous one asks again without it, a page size starts over and is kept', async () => {
    signInAdmin();
    const api = stubApi({
      [LIST]: (call) => {
        const page = call.query.get('cursor') === 'c-2' ? 2 : 1;
        return jsonResponse(200, pageOf([makeUser({ id: `u-${page}`, name: `Usuário da página ${page}` })], page === 1 ? 'c-2' : undefined));
      },
    });
    renderUsers('/app/user');
    await screen.findByText('Usuário da página 1');
    await userEvent.click(screen.getByRole('button', { name: 'Próxima' }));
    expect(await screen.findByText('Usuário da página 2')).toBeTruthy();
    expect(queryOf(api.calls.at(-1))).toEqual({ cursor: 'c-2', perPage: '25' });
    expect(screen.getByText('Página 2')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Próxima' }).hasAttribute('disabled')).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Anterior' }));
    expect(await screen.findByText('Usuário da página 1')).toBeTruthy();

    await pickOption(screen.getByLabelText('Registros por página'), '50');
    await waitFor(() => expect(queryOf(api.calls.at(-1))).toEqual({ perPage: '50' }));
    await waitFor(() => expect(getSession().filters.user).toMatchObject({ size: 50 }));
  });

  it("'Limpar' empties the fields, forgets the saved filter and lists everything again", async () => {
    signInAdmin();
    saveFilter('user', { cpf: '', name: 'Ana', email: '', situacao: null, tipo: null, size: 50 });
    const api = stubApi({ [LIST]: jsonResponse(200, pageOf([makeUser()])) });
    renderUsers('/app/user');
    await screen.findByText('Ana Lima');
    await userEvent.click(screen.getByRole('button', { name: 'Limpar' }));
    await waitFor(() => expect(queryOf(api.calls.at(-1))).toEqual({ perPage: '25' }));
    expect((screen.getByLabelText('Nome') as HTMLInputElement).value).toBe('');
    expect(getSession().filters.user).toBeUndefined();
  });

  it('opens the form: the pencil with the id, the add button with new', async () => {
    signInAdmin();
    stubApi({
      [LIST]: jsonResponse(200, pageOf([makeUser()])),
      'GET /api/v1/users/u-10': jsonResponse(200, makeUser()),
      'GET /api/v1/roles': jsonResponse(200, []),
    });
    const { router } = renderUsers('/app/user');
    await screen.findByText('Ana Lima');
    await userEvent.click(screen.getByRole('button', { name: 'Editar' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/user/u-10'));
    await router.navigate('/app/user');
    await userEvent.click(await screen.findByRole('button', { name: 'Adicionar' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/user/new'));
  });

  it('removes after confirmation, says so and reloads the list', async () => {
    signInAdmin();
    let removed = false;
    const api = stubApi({
      [LIST]: () => jsonResponse(200, removed ? pageOf([]) : pageOf([makeUser()])),
      'DELETE /api/v1/users/u-10': () => {
        removed = true;
        return jsonResponse(200, { message: 'ok' });
      },
    });
    renderUsers('/app/user');
    await screen.findByText('Ana Lima');

    await userEvent.click(screen.getByRole('button', { name: 'Remover' }));
    expect(await screen.findByText('Deseja realmente remover o usuário?')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Não' }));
    await waitFor(() => expect(screen.queryByText('Deseja realmente remover o usuário?')).toBeNull());
    expect(api.of('DELETE', '/api/v1/users/u-10')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Remover' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Sim' }));
    expect(await screen.findByText('Remoção realizada com sucesso.')).toBeTruthy();
    expect(api.of('DELETE', '/api/v1/users/u-10')).toHaveLength(1);
    expect(await screen.findByText('Nenhum registro encontrado')).toBeTruthy();
  });

  it("shows the server's refusal to remove one's own user as a toast", async () => {
    signInAdmin();
    stubApi({
      [LIST]: jsonResponse(200, pageOf([makeUser({ id: 'u-1' })])),
      'DELETE /api/v1/users/u-1': jsonResponse(409, { error: 'removerProprioUsuario' }),
    });
    renderUsers('/app/user');
    await screen.findByText('Ana Lima');
    await userEvent.click(screen.getByRole('button', { name: 'Remover' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Sim' }));
    expect(await screen.findByText('Você não pode remover seu próprio usuário')).toBeTruthy();
    expect(screen.queryByText('Remoção realizada com sucesso.')).toBeNull();
  });
});
