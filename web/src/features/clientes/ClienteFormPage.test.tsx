import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Cliente, Webhook } from './model';
import {
  field,
  jsonResponse,
  makeCliente,
  makeWebhook,
  optionsOf,
  pageOf,
  pickOption,
  renderClientes,
  signInAdmin,
  signInClienteUser,
  stubApi,
} from '../../test/clientes';

const GET = 'GET /api/v1/cliente/c-1';
const PUT = 'PUT /api/v1/cliente/c-1';
const PRAZO = 'GET /api/v1/parametro/prazo-autenticacao-sem-certificado';
const HOOKS = 'GET /api/v1/webhook-cliente/11222333000181';

function api(cliente: Cliente, webhooks: Webhook[] = [], extra: Record<string, Response | ((c: { body: unknown }) => Response)> = {}) {
  return stubApi({
    [GET]: jsonResponse(200, cliente),
    [PRAZO]: jsonResponse(200, { dias: 30 }),
    [HOOKS]: jsonResponse(200, webhooks),
    'GET /api/v1/cliente': jsonResponse(200, pageOf([], 0)),
    ...extra,
  });
}

async function open(path = '/app/cliente/c-1') {
  const view = renderClientes(path);
  await screen.findByRole('heading', { name: 'Dados do Cliente' });
  await waitFor(() => expect(field('Razão Social').value).not.toBe(''));
  return view;
}

async function openMonitoring() {
  await userEvent.click(screen.getByRole('tab', { name: 'Monitoramento' }));
  return screen.findByRole('region', { name: 'Configurações de monitoramento' });
}

describe("client form, tab 'Dados Pessoais'", { timeout: 30_000 }, () => {
  it('admin: shows the data, the audit in Bahia time and the expiry; saves and goes back to the list', async () => {
    signInAdmin();
    const calls = api(makeCliente(), [], { [PUT]: jsonResponse(200, makeCliente()) });
    const { router } = await open();

    expect(field('CNPJ').value).toBe('11.222.333/0001-81');
    expect(field('CNPJ').readOnly).toBe(true);
    expect(field('Telefone').value).toBe('(71) 98888-7777');
    expect(field('CEP').value).toBe('40.060-001');
    expect(field('Cidade').value).toBe('Salvador');
    expect(field('Tipo de Cliente').closest('.p-dropdown')!.classList.contains('p-disabled')).toBe(false);
    expect(field('Início do acesso sem certificado').value).toBe('01/03/2026');
    expect(field('Fim do acesso sem certificado').value).toBe('31/03/2026');
    expect(screen.getByText('10/03/2026 10:05')).toBeTruthy();
    expect(screen.getByText('02/04/2026 17:30')).toBeTruthy();
    expect(screen.getByText('Maria Souza')).toBeTruthy();

    await userEvent.clear(field('Razão Social'));
    await userEvent.type(field('Razão Social'), 'Banco Alfa Múltiplo S.A.');
    await pickOption(field('Situação'), 'Suspenso');
    await pickOption(field('Categoria'), 'Iniciativa Pública');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));

    expect(await screen.findByText('Registro salvo com sucesso.')).toBeTruthy();
    expect(calls.of('PUT', '/api/v1/cliente/c-1').map((c) => c.body)).toEqual([
      {
        razao_social: 'Banco Alfa Múltiplo S.A.',
        logradouro: 'Avenida Sete de Setembro',
        numero: '100',
        complemento: 'Sala 2',
        bairro: 'Centro',
        uf: 'BA',
        cidade: 'Salvador',
        cep: '40060001',
        telefone: '71988887777',
        nome_responsavel: 'Ana Lima',
        email: 'contato@alfa.com.br',
        tipo_cliente: 'IMF',
        situacao: 'S',
        categoria: 'PUBLICA',
        inicio_sem_certificado: '2026-03-01',
      },
    ]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/cliente'));
  });

  it('computes the expiry from the parameter when the start date changes', async () => {
    signInAdmin();
    api(makeCliente({ inicio_sem_certificado: null, prazo_sem_certificado: null }));
    await open();
    expect(field('Fim do acesso sem certificado').value).toBe('');
    // jsdom and the picker's overlay do not get along with typing key by key; the input event is what it parses.
    fireEvent.input(field('Início do acesso sem certificado'), { target: { value: '10/05/2026' } });
    await waitFor(() => expect(field('Fim do acesso sem certificado').value).toBe('09/06/2026'));
  });

  it('client user: type and status disabled, no category nor password period; saves and goes to the dashboard', async () => {
    signInClienteUser();
    const calls = api(makeCliente({ prazo_sem_certificado: null }), [], { [PUT]: jsonResponse(200, makeCliente()) });
    const { router } = await open('/app/cliente/edit/c-1');

    expect(field('Tipo de Cliente').closest('.p-dropdown')!.classList.contains('p-disabled')).toBe(true);
    expect(field('Situação').closest('.p-dropdown')!.classList.contains('p-disabled')).toBe(true);
    expect(screen.queryByLabelText('Categoria')).toBeNull();
    expect(screen.queryByLabelText('Início do acesso sem certificado')).toBeNull();
    expect(screen.queryByLabelText('Fim do acesso sem certificado')).toBeNull();
    expect(calls.of('GET', '/api/v1/parametro/prazo-autenticacao-sem-certificado')).toHaveLength(0);

    await userEvent.clear(field('Número'));
    await userEvent.type(field('Número'), '200');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await screen.findByText('Registro salvo com sucesso.');
    const body = calls.of('PUT', '/api/v1/cliente/c-1')[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ numero: '200', tipo_cliente: 'IMF' });
    expect(Object.keys(body)).not.toContain('situacao');
    expect(Object.keys(body)).not.toContain('categoria');
    expect(Object.keys(body)).not.toContain('inicio_sem_certificado');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app'));
  });

  it('offers the statuses the current one allows, and none when Cancelado', async () => {
    signInAdmin();
    api(makeCliente({ situacao: 'N' }));
    const first = await open();
    expect(await optionsOf(field('Situação'))).toEqual(['Novo', 'Desativado']);
    first.unmount();

    api(makeCliente({ situacao: 'A' }));
    const second = await open();
    expect(await optionsOf(field('Situação'))).toEqual([
      'Ativo', 'Em Avaliação', 'Cancelado', 'Desativado', 'Descredenciado', 'Novo', 'Suspenso',
    ]);
    second.unmount();

    api(makeCliente({ situacao: 'S' }));
    const third = await open();
    expect(await optionsOf(field('Situação'))).toEqual(['Ativo', 'Em Avaliação', 'Cancelado', 'Descredenciado', 'Suspenso']);
    expect(field('Situação').closest('.p-dropdown')!.classList.contains('p-disabled')).toBe(false);
    third.unmount();

    api(makeCliente({ situacao: 'C' }));
    await open();
    expect(field('Situação').closest('.p-dropdown')!.classList.contains('p-disabled')).toBe(true);
  });

  it('requires the fields, and changing the UF clears the city', async () => {
    signInAdmin();
    const calls = api(makeCliente());
    await open();
    await userEvent.clear(field('Razão Social'));
    await pickOption(field('UF'), 'SE - Sergipe');
    expect(field('Cidade').value).toBe('');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Todos os campos obrigatórios devem ser preenchidos.')).toBeTruthy();
    expect(screen.getByText('O campo Razão Social é obrigatório.')).toBeTruthy();
    expect(screen.getByText('O campo Cidade é obrigatório.')).toBeTruthy();
    expect(calls.of('PUT', '/api/v1/cliente/c-1')).toHaveLength(0);
  });
});

describe("client form, tab 'Monitoramento'", { timeout: 30_000 }, () => {
  it('lists the configurations with operation label, URL, e-mail and user', async () => {
    signInAdmin();
    api(makeCliente(), [makeWebhook(), makeWebhook({ id: 'w-2', operacaoId: 3, operacao: 'TRANSPORTE_FAT', urlWebHook: 'https://hooks.alfa.com.br/cte', emailWebHook: null, usuarioWebHook: null, senhaWebHook: '' })]);
    await open();
    const table = await openMonitoring();
    const row = (await within(table).findByText('https://hooks.alfa.com.br/cte')).closest('tr')!;
    expect([...row.querySelectorAll('td')].slice(0, 4).map((td) => td.textContent)).toEqual(['TRANSPORTE', 'https://hooks.alfa.com.br/cte', '', '']);
    const first = within(table).getByText('https://hooks.alfa.com.br/evento').closest('tr')!;
    expect([...first.querySelectorAll('td')].slice(0, 4).map((td) => td.textContent)).toEqual(['EVENTO', 'https://hooks.alfa.com.br/evento', 'ti@alfa.com.br', 'alfa']);
  });

  it('IMF sees the five kinds, less the ones configured; ESF only EVENTO', async () => {
    signInAdmin();
    api(makeCliente());
    const imf = await open();
    await openMonitoring();
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    const dialog = await screen.findByRole('dialog');
    expect((dialog as HTMLElement).style.maxWidth).toBe('500px');
    expect(await optionsOf(within(dialog).getByLabelText(/^Operação/))).toEqual([
      'EVENTO', 'SACADOR', 'EVENTO SACADOR', 'TRANSPORTE', 'EVENTO TRANSPORTE',
    ]);
    imf.unmount();

    api(makeCliente(), [makeWebhook(), makeWebhook({ id: 'w-3', operacaoId: 2, operacao: 'ESCR_EVENTO', urlWebHook: 'https://x.alfa.com.br' })]);
    const configured = await open();
    await openMonitoring();
    await screen.findByText('https://x.alfa.com.br');
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    expect(await optionsOf(within(await screen.findByRole('dialog')).getByLabelText(/^Operação/))).toEqual([
      'SACADOR', 'TRANSPORTE', 'EVENTO TRANSPORTE',
    ]);
    configured.unmount();

    api(makeCliente({ tipo_cliente: 'ESF' }));
    await open();
    await openMonitoring();
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    expect(await optionsOf(within(await screen.findByRole('dialog')).getByLabelText(/^Operação/))).toEqual(['EVENTO']);
  });

  it('applies the user/password pair rule, then creates with the password in base64', async () => {
    signInAdmin();
    let created = false;
    const calls = api(makeCliente({ tipo_cliente: 'ESF' }), [], {
      [HOOKS]: () => jsonResponse(200, created ? [makeWebhook({ clienteId: 'c-1' })] : []),
      'POST /api/v1/webhook-cliente': () => {
        created = true;
        return jsonResponse(201, makeWebhook());
      },
    });
    await open();
    await openMonitoring();
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    const dialog = await screen.findByRole('dialog');
    const inDialog = (label: string) => within(dialog).getByLabelText(new RegExp(`^${label}\\s*\\*?$`)) as HTMLInputElement;

    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Todos os campos obrigatórios devem ser preenchidos.')).toBeTruthy();

    await pickOption(inDialog('Operação'), 'EVENTO');
    await userEvent.type(inDialog('URL'), 'https://hooks.alfa.com.br/evento');
    await userEvent.type(inDialog('Usuário'), 'alfa');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Informe a senha do usuário do webhook.')).toBeTruthy();

    await userEvent.clear(inDialog('Usuário'));
    await userEvent.type(inDialog('Senha'), 'sênha1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Informe o usuário do webhook.')).toBeTruthy();
    expect(calls.of('POST', '/api/v1/webhook-cliente')).toHaveLength(0);

    await userEvent.type(inDialog('Usuário'), 'alfa');
    await userEvent.type(inDialog('E-mail'), 'ti@alfa.com.br');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Configuração de monitoramento cadastrada com sucesso.')).toBeTruthy();
    expect(calls.of('POST', '/api/v1/webhook-cliente').map((c) => c.body)).toEqual([
      {
        operacao: 'EVENTO',
        urlWebHook: 'https://hooks.alfa.com.br/evento',
        emailWebHook: 'ti@alfa.com.br',
        usuarioWebHook: 'alfa',
        senhaWebHook: 'c8OqbmhhMQ==',
        clienteId: 'c-1',
        clienteCnpj: '11222333000181',
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('https://hooks.alfa.com.br/evento')).toBeTruthy();
    // The only kind of an ESF client is taken now.
    expect(screen.getByRole('button', { name: 'Adicionar' }).hasAttribute('disabled')).toBe(true);
  });

  it('edits keeping the stored password when the field is left empty', async () => {
    signInAdmin();
    const calls = api(makeCliente(), [makeWebhook()], {
      'PUT /api/v1/webhook-cliente': jsonResponse(200, makeWebhook({ urlWebHook: 'https://hooks.alfa.com.br/v2' })),
    });
    await open();
    const table = await openMonitoring();
    await userEvent.click(await within(table).findByRole('button', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog');
    const url = within(dialog).getByLabelText(/^URL/) as HTMLInputElement;
    expect(url.value).toBe('https://hooks.alfa.com.br/evento');
    expect((within(dialog).getByLabelText(/^Senha/) as HTMLInputElement).value).toBe('');
    await userEvent.clear(url);
    await userEvent.type(url, 'https://hooks.alfa.com.br/v2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Configuração de monitoramento atualizada com sucesso.')).toBeTruthy();
    expect(calls.of('PUT', '/api/v1/webhook-cliente').map((c) => c.body)).toEqual([
      {
        id: 'w-1',
        operacao: 'EVENTO',
        urlWebHook: 'https://hooks.alfa.com.br/v2',
        emailWebHook: 'ti@alfa.com.br',
        usuarioWebHook: 'alfa',
        clienteId: 'c-1',
        clienteCnpj: '11222333000181',
      },
    ]);
  });

  it('says when creating fails', async () => {
    signInAdmin();
    api(makeCliente({ tipo_cliente: 'ESF' }), [], {
      'POST /api/v1/webhook-cliente': jsonResponse(400, { error: 'webhookUrlInvalida', message: 'Informe uma URL https pública para o webhook.' }),
    });
    await open();
    await openMonitoring();
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    const dialog = await screen.findByRole('dialog');
    await pickOption(within(dialog).getByLabelText(/^Operação/), 'EVENTO');
    await userEvent.type(within(dialog).getByLabelText(/^URL/), 'http://10.0.0.1/hook');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Erro ao cadastrar nova configuração de monitoramento.')).toBeTruthy();
    expect(within(dialog).getByText('Informe uma URL https pública para o webhook.')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('removes after confirmation, which frees the kind', async () => {
    signInAdmin();
    let removed = false;
    const calls = api(makeCliente({ tipo_cliente: 'ESF' }), [], {
      [HOOKS]: () => jsonResponse(200, removed ? [] : [makeWebhook()]),
      'DELETE /api/v1/webhook-cliente': () => {
        removed = true;
        return jsonResponse(200, { message: 'ok' });
      },
    });
    await open();
    const table = await openMonitoring();
    await within(table).findByText('https://hooks.alfa.com.br/evento');
    expect(screen.getByRole('button', { name: 'Adicionar' }).hasAttribute('disabled')).toBe(true);

    await userEvent.click(within(table).getByRole('button', { name: 'Remover' }));
    expect(await screen.findByText('Deseja remover a configuração de monitoramento?')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Sim' }));
    expect(await screen.findByText('Configuração de monitoramento removida com sucesso.')).toBeTruthy();
    expect(calls.of('DELETE', '/api/v1/webhook-cliente').map((c) => c.query.get('id'))).toEqual(['w-1']);
    await waitFor(() => expect(screen.queryByText('https://hooks.alfa.com.br/evento')).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    expect(await optionsOf(within(await screen.findByRole('dialog')).getByLabelText(/^Operação/))).toEqual(['EVENTO']);
  });
});
