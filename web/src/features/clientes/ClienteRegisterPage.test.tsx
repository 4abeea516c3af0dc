import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { cnpjCheckDigits } from '@plac/shared/domain';
import { describe, expect, it } from 'vitest';
import { captchaReady, solveCaptcha } from '../../test/captcha';
import { field, jsonResponse, optionsOf, pickOption, renderClientes, stubApi } from '../../test/clientes';

const REGISTER = 'POST /api/v1/cliente';
const CIDADES = 'GET /api/v1/dominio/cidades/BA/Salv';
const ALNUM_BASE = '12ABC34501DE';
const ALNUM_CNPJ = `${ALNUM_BASE}${cnpjCheckDigits(ALNUM_BASE)}`;

async function openForm() {
  const view = renderClientes('/cliente/new');
  await screen.findByRole('heading', { name: 'Cadastro de Cliente' });
  await captchaReady();
  return view;
}

async function fillAll(cnpj = '11222333000181') {
  await userEvent.type(field('CNPJ'), cnpj);
  await pickOption(field('Tipo de Cliente'), 'IMF');
  await userEvent.type(field('Razão Social'), 'Banco Alfa S.A.');
  await userEvent.type(field('Logradouro'), 'Avenida Sete de Setembro');
  await userEvent.type(field('Número'), '100');
  await userEvent.type(field('Bairro'), 'Centro');
  await pickOption(field('UF'), 'BA - Bahia');
  await userEvent.type(field('Cidade'), 'Salv');
  await userEvent.click(await screen.findByText('Salvador', {}, { timeout: 3000 }));
  await userEvent.type(field('CEP'), '40060001');
  await userEvent.type(field('Telefone'), '71988887777');
  await userEvent.type(field('Nome do Responsável'), 'Ana Lima');
  await userEvent.type(field('E-mail'), 'contato@alfa.com.br');
  await userEvent.type(field('Confirmação de e-mail'), 'contato@alfa.com.br');
}

describe('client registration /cliente/new', { timeout: 30_000 }, () => {
  it('registers: sends the normalized fields and the captcha payload, then shows the success page', async () => {
    const api = stubApi({
      [CIDADES]: jsonResponse(200, [{ codigo: 2927408, nome: 'Salvador' }]),
      [REGISTER]: jsonResponse(201, { message: 'Cadastro realizado.' }),
    });
    const { router } = await openForm();
    await fillAll();
    expect(field('CNPJ').value).toBe('11.222.333/0001-81');
    expect(field('Telefone').value).toBe('(71) 98888-7777');
    expect(field('CEP').value).toBe('40.060-001');
    solveCaptcha();
    await userEvent.click(screen.getByRole('button', { name: 'Cadastrar' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/cliente/cadastroRealizado'));
    expect(await screen.findByRole('heading', { name: 'Cadastro realizado' })).toBeTruthy();
    expect(screen.getByText(/e-mail confirmando o seu acesso/)).toBeTruthy();
    expect(api.of('POST', '/api/v1/cliente').map((c) => c.body)).toEqual([
      {
        cnpj: '11222333000181',
        razao_social: 'Banco Alfa S.A.',
        logradouro: 'Avenida Sete de Setembro',
        numero: '100',
        bairro: 'Centro',
        uf: 'BA',
        cidade: 'Salvador',
        cep: '40060001',
        telefone: '71988887777',
        nome_responsavel: 'Ana Lima',
        email: 'contato@alfa.com.br',
        confirmacao_email: 'contato@alfa.com.br',
        tipo_cliente: 'IMF',
        recaptcha: 'cGF5bG9hZA==',
      },
    ]);
    // The city search waited for 3 characters.
    expect(api.calls.filter((c) => c.path.startsWith('/api/v1/dominio/cidades')).map((c) => c.path)).toEqual([
      '/api/v1/dominio/cidades/BA/Salv',
    ]);
  });

  it('refuses an empty form with the generic toast and the required messages', async () => {
    const api = stubApi({});
    await openForm();
    await userEvent.click(screen.getByRole('button', { name: 'Cadastrar' }));
    expect(await screen.findByText('Todos os campos obrigatórios devem ser preenchidos.')).toBeTruthy();
    expect(screen.getByText('O campo Razão Social é obrigatório.')).toBeTruthy();
    expect(screen.getByText('O campo Captcha é obrigatório.')).toBeTruthy();
    expect(screen.queryByText('O campo Complemento é obrigatório.')).toBeNull();
    expect(api.calls).toHaveLength(0);
  });

  it('checks the CNPJ on blur, accepting the alphanumeric CNPJ in upper case', async () => {
    stubApi({});
    await openForm();
    const cnpj = field('CNPJ');
    await userEvent.type(cnpj, '11222333000182');
    await userEvent.tab();
    expect(await screen.findByText('O Cnpj informado é inválido.')).toBeTruthy();

    await userEvent.clear(cnpj);
    await userEvent.type(cnpj, ALNUM_CNPJ.toLowerCase());
    expect(cnpj.value).toBe(`12.ABC.345/01DE-${ALNUM_CNPJ.slice(12)}`);
    await userEvent.tab();
    expect(screen.queryByText('O Cnpj informado é inválido.')).toBeNull();
  });

  it('says when the e-mail confirmation does not match and does not send', async () => {
    const api = stubApi({ [CIDADES]: jsonResponse(200, [{ codigo: 2927408, nome: 'Salvador' }]) });
    await openForm();
    await fillAll();
    await userEvent.clear(field('Confirmação de e-mail'));
    await userEvent.type(field('Confirmação de e-mail'), 'outro@alfa.com.br');
    await userEvent.tab();
    expect(await screen.findByText('A confirmação do e-mail não confere.')).toBeTruthy();
    solveCaptcha();
    await userEvent.click(screen.getByRole('button', { name: 'Cadastrar' }));
    expect(api.of('POST', '/api/v1/cliente')).toHaveLength(0);
  });

  it('offers only the types ESF and IMF; changing the UF clears the city', async () => {
    stubApi({ [CIDADES]: jsonResponse(200, [{ codigo: 2927408, nome: 'Salvador' }]) });
    await openForm();
    expect(await optionsOf(field('Tipo de Cliente'))).toEqual(['ESF', 'IMF']);
    await pickOption(field('UF'), 'BA - Bahia');
    await userEvent.type(field('Cidade'), 'Salv');
    await userEvent.click(await screen.findByText('Salvador', {}, { timeout: 3000 }));
    expect(field('Cidade').value).toBe('Salvador');
    await pickOption(field('UF'), 'SE - Sergipe');
    expect(field('Cidade').value).toBe('');
  });

  it('shows a refusal of the server and asks for the captcha again', async () => {
    const api = stubApi({
      [CIDADES]: jsonResponse(200, [{ codigo: 2927408, nome: 'Salvador' }]),
      [REGISTER]: jsonResponse(422, { errors: { email: ['E-mail inválido.'] } }),
    });
    const { router } = await openForm();
    await fillAll();
    solveCaptcha();
    await userEvent.click(screen.getByRole('button', { name: 'Cadastrar' }));
    // Beside the field, and in the toast.
    await waitFor(() => expect(screen.getAllByText('E-mail inválido.').length).toBeGreaterThanOrEqual(2));
    expect(router.state.location.pathname).toBe('/cliente/new');

    // The spent payload is dropped: the captcha is required again.
    await userEvent.click(screen.getByRole('button', { name: 'Cadastrar' }));
    expect(await screen.findByText('O campo Captcha é obrigatório.')).toBeTruthy();
    expect(api.of('POST', '/api/v1/cliente')).toHaveLength(1);
  });
});
