import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CLIENTES, jsonResponse, makeUser, pageOf, pickOption, renderUsers, ROLE_LIST, signInAdmin, stubApi } from '../../test/users';

const BASE = {
  'GET /api/v1/roles': jsonResponse(200, ROLE_LIST),
  'GET /api/v1/cliente/get-all-cliente': jsonResponse(200, CLIENTES),
  'GET /api/v1/users': jsonResponse(200, pageOf([])),
};

/** The input of a field by its label, with or without the required mark. */
const input = (label: string) => screen.getByLabelText(new RegExp(`^${label}\\s*\\*?$`)) as HTMLInputElement;
/** 'Cliente' is also a type and a permission: the client field is the one marked required. */
const clienteInput = () => screen.getByLabelText(/^Cliente\s*\*$/);
const checkbox = (label: string) => screen.getByRole('checkbox', { name: label }) as HTMLInputElement;

async function fillPerson(cpf = '52998224725') {
  await userEvent.type(input('Nome'), 'Carlos Dias');
  await userEvent.type(input('E-mail'), 'carlos@sefaz.ba.gov.br');
  await userEvent.type(input('CPF'), cpf);
}

describe('user-form', { timeout: 20_000 }, () => {
  it('creates a Sefaz user: posts name, e-mail, CPF digits, type, permissions and UF, then back to the list', async () => {
    signInAdmin();
    const api = stubApi({ ...BASE, 'POST /api/v1/users': jsonResponse(201, makeUser({ id: 'u-99' })) });
    const { router } = renderUsers('/app/user/new');
    expect(await screen.findByRole('heading', { name: 'Novo Usuário' })).toBeTruthy();

    await fillPerson();
    expect(input('CPF').value).toBe('529.982.247-25');
    await userEvent.type(input('Telefone'), '(71) 3115-0000');
    await userEvent.click(screen.getByRole('radio', { name: 'Sefaz' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Gestor' }));
    await pickOption(input('UF'), 'BA - Bahia');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));

    expect(await screen.findByText('Registro salvo com sucesso.')).toBeTruthy();
    expect(api.of('POST', '/api/v1/users').map((c) => c.body)).toEqual([
      {
        name: 'Carlos Dias',
        email: 'carlos@sefaz.ba.gov.br',
        cpf: '52998224725',
        telefone: '(71) 3115-0000',
        tipo_usuario: 'S',
        roles: ['sefaz_gestor'],
        uf: 'BA',
      },
    ]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/user'));
  });

  it('creates a client user with its client; a client Em Avaliação announces the avaliacao role', async () => {
    signInAdmin();
    const api = stubApi({ ...BASE, 'POST /api/v1/users': jsonResponse(201, makeUser({ id: 'u-98', tipo_usuario: 'C' })) });
    renderUsers('/app/user/new');
    await fillPerson();
    await userEvent.click(screen.getByRole('radio', { name: 'Cliente' }));

    const roles = screen.getByRole('group', { name: /Permissões/ });
    await within(roles).findByRole('checkbox', { name: 'Cliente Web' });
    // Only the client roles, and not the one the server gives by itself.
    expect(within(roles).getAllByRole('checkbox').map((c) => c.getAttribute('id'))).toEqual([
      'role-cliente', 'role-cliente_web', 'role-cliente_monitoramento', 'role-cliente_imf',
    ]);
    expect(screen.queryByLabelText(/^UF/)).toBeNull();

    await userEvent.click(checkbox('Cliente Web'));
    await pickOption(clienteInput(), 'Banco Alfa S.A. — 11.222.333/0001-81');
    expect(screen.queryByRole('note')).toBeNull();
    await pickOption(clienteInput(), 'Fomento Beta Ltda — 45.997.418/0001-53');
    expect(screen.getByRole('note').textContent).toBe(
      'Este cliente está Em Avaliação: ao salvar, o usuário receberá a permissão Em Avaliação.',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await screen.findByText('Registro salvo com sucesso.');
    expect(api.of('POST', '/api/v1/users')[0]?.body).toEqual({
      name: 'Carlos Dias',
      email: 'carlos@sefaz.ba.gov.br',
      cpf: '52998224725',
      tipo_usuario: 'C',
      roles: ['cliente_web'],
      cliente_id: 'c-2',
    });
  });

  it('clears the permissions when the type changes', async () => {
    signInAdmin();
    stubApi(BASE);
    renderUsers('/app/user/new');
    await screen.findByRole('heading', { name: 'Novo Usuário' });

    await userEvent.click(screen.getByRole('radio', { name: 'Sefaz' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Administrador Plac' }));
    await userEvent.click(checkbox('Gestor'));
    expect(checkbox('Administrador Plac').checked).toBe(true);

    await userEvent.click(screen.getByRole('radio', { name: 'Cliente' }));
    expect(screen.queryByRole('checkbox', { name: 'Administrador Plac' })).toBeNull();
    expect(screen.getAllByRole('checkbox').filter((c) => (c as HTMLInputElement).checked)).toEqual([]);

    await userEvent.click(screen.getByRole('radio', { name: 'Sefaz' }));
    expect(checkbox('Administrador Plac').checked).toBe(false);
    expect(checkbox('Gestor').checked).toBe(false);
  });

  it('shows the status selector only when editing', async () => {
    signInAdmin();
    stubApi({ ...BASE, 'GET /api/v1/users/u-10': jsonResponse(200, makeUser()) });
    const { unmount } = renderUsers('/app/user/new');
    await screen.findByRole('heading', { name: 'Novo Usuário' });
    expect(screen.queryByLabelText(/^Situação/)).toBeNull();
    unmount();

    renderUsers('/app/user/u-10');
    await screen.findByRole('heading', { name: 'Editar Usuário' });
    expect(input('Situação')).toBeTruthy();
  });

  it('edits: CPF shown but disabled, audit data read-only, and the update sends situacao without CPF', async () => {
    signInAdmin();
    const api = stubApi({
      ...BASE,
      'GET /api/v1/users/u-10': jsonResponse(200, makeUser({ telefone: '71999990000' })),
      'PUT /api/v1/users/u-10': jsonResponse(200, makeUser()),
    });
    const { router } = renderUsers('/app/user/u-10');
    await screen.findByRole('heading', { name: 'Editar Usuário' });

    await waitFor(() => expect(input('CPF').value).toBe('529.982.247-25'));
    expect(input('CPF').disabled).toBe(true);
    expect(input('Nome').value).toBe('Ana Lima');
    expect(checkbox('Gestor').checked).toBe(true);
    // Created and updated in America/Bahia (UTC-3).
    const audit = (term: string) => screen.getByText(term).nextElementSibling?.textContent;
    expect(audit('Criado em')).toBe('10/03/2026 10:05');
    expect(audit('Atualizado em')).toBe('02/04/2026 17:30');
    expect(audit('Atualizado por')).toBe('Maria Souza');

    await pickOption(input('Situação'), 'Inativo');
    await userEvent.clear(input('Nome'));
    await userEvent.type(input('Nome'), 'Ana Lima Souza');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));

    await screen.findByText('Registro salvo com sucesso.');
    expect(api.of('PUT', '/api/v1/users/u-10')[0]?.body).toEqual({
      name: 'Ana Lima Souza',
      email: 'ana@sefaz.ba.gov.br',
      telefone: '71999990000',
      tipo_usuario: 'S',
      roles: ['sefaz_gestor'],
      uf: 'BA',
      situacao: 'I',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/user'));
  });

  it("says 'O campo CPF é inválido.' on blur and does not send an invalid CPF", async () => {
    signInAdmin();
    const api = stubApi(BASE);
    renderUsers('/app/user/new');
    await screen.findByRole('heading', { name: 'Novo Usuário' });
    await fillPerson('52998224724');
    await userEvent.tab();
    expect(await screen.findByText('O campo CPF é inválido.')).toBeTruthy();
    expect(input('CPF').getAttribute('aria-describedby')).toBe('cpf-error');
    expect(document.getElementById('cpf-error')?.textContent).toBe('O campo CPF é inválido.');

    await userEvent.click(screen.getByRole('radio', { name: 'Sefaz' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Gestor' }));
    await pickOption(input('UF'), 'BA - Bahia');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(screen.getByText('O campo CPF é inválido.')).toBeTruthy();
    expect(api.of('POST', '/api/v1/users')).toHaveLength(0);
  });

  it('checks the required fields before calling the server', async () => {
    signInAdmin();
    const api = stubApi(BASE);
    renderUsers('/app/user/new');
    await screen.findByRole('heading', { name: 'Novo Usuário' });
    await userEvent.type(input('Nome'), 'Carlos Dias');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));

    expect(await screen.findByText('Todos os campos obrigatórios devem ser preenchidos.')).toBeTruthy();
    expect(document.getElementById('email-error')?.textContent).toBe('O campo E-mail é obrigatório.');
    expect(document.getElementById('cpf-error')?.textContent).toBe('O campo CPF é obrigatório.');
    expect(document.getElementById('tipo_usuario-error')?.textContent).toBe('O campo Tipo é obrigatório.');
    expect(document.getElementById('name-error')).toBeNull();
    expect(api.of('POST', '/api/v1/users')).toHaveLength(0);
  });

  it("shows the server's field errors beside the fields (400)", async () => {
    signInAdmin();
    stubApi({
      ...BASE,
      'POST /api/v1/users': jsonResponse(400, {
        errors: { email: ['Já existe um usuário com este e-mail.'], roles: ['Selecione ao menos uma permissão.'] },
      }),
    });
    const { router } = renderUsers('/app/user/new');
    await screen.findByRole('heading', { name: 'Novo Usuário' });
    await fillPerson();
    await userEvent.click(screen.getByRole('radio', { name: 'Sefaz' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Gestor' }));
    await pickOption(input('UF'), 'BA - Bahia');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));

    await waitFor(() => expect(document.getElementById('email-error')?.textContent).toBe('Já existe um usuário com este e-mail.'));
    expect(document.getElementById('roles-error')?.textContent).toBe('Selecione ao menos uma permissão.');
    expect(input('E-mail').className).toContain('p-invalid');
    // The same messages, one per line, in the error toast of the API client.
    expect(screen.getByText(/Já existe um usuário com este e-mail\.\s+Selecione ao menos uma permissão\./)).toBeTruthy();
    expect(screen.queryByText('Registro salvo com sucesso.')).toBeNull();
    expect(router.state.location.pathname).toBe('/app/user/new');
  });

  it("'Voltar' returns to the list without saving", async () => {
    signInAdmin();
    const api = stubApi(BASE);
    const { router } = renderUsers('/app/user/new');
    await userEvent.click(await screen.findByRole('button', { name: 'Voltar' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/user'));
    expect(api.calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });
});
