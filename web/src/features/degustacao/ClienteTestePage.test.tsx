import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { captchaReady, solveCaptcha } from '../../test/captcha';
import { field, jsonResponse, stubApi } from '../../test/clientes';
import { PageShell } from '../../test/shell';
import ClienteTestePage from './ClienteTestePage';

/** The trial registration '/degustacao/cliente': the CNPJ check and the captcha it shares with the client's registration. */

const REGISTER = 'POST /api/v1/cliente-teste';

async function openForm() {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: <PageShell />,
        children: [
          { path: 'degustacao/cliente', element: <ClienteTestePage /> },
          { path: 'degustacao/cadastroTeste', element: <h1>Cadastro realizado</h1> },
        ],
      },
    ],
    { initialEntries: ['/degustacao/cliente'] },
  );
  render(<RouterProvider router={router} />);
  await screen.findByRole('heading', { name: 'Cadastro para Degustação' });
  await captchaReady();
  return router;
}

async function fillAll() {
  await userEvent.type(field('CNPJ'), '11222333000181');
  await userEvent.type(field('Razão Social'), 'Factoring Teste');
  await userEvent.type(field('Nome do Responsável'), 'Ana Lima');
  await userEvent.type(field('E-mail'), 'ana@factoring.com.br');
  await userEvent.type(field('Telefone'), '71988887777');
  await userEvent.click(document.getElementById('aceite_termo')!);
}

afterEach(() => vi.unstubAllGlobals());

describe('trial registration /degustacao/cliente', { timeout: 30_000 }, () => {
  it('checks the CNPJ on blur and again on submission, and sends nothing while it is invalid', async () => {
    const api = stubApi({});
    await openForm();
    await userEvent.type(field('CNPJ'), '11222333000182');
    await userEvent.tab();
    expect(await screen.findByText('O Cnpj informado é inválido.')).toBeTruthy();
    await userEvent.type(field('CNPJ'), '{backspace}');
    expect(screen.queryByText('O Cnpj informado é inválido.')).toBeNull();
    await userEvent.type(field('CNPJ'), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Cadastrar' }));
    expect(await screen.findByText('O Cnpj informado é inválido.')).toBeTruthy();
    expect(api.calls).toHaveLength(0);
  });

  it('registers, and after a refusal asks for the captcha again', async () => {
    const api = stubApi({ [REGISTER]: jsonResponse(422, { errors: { email: ['E-mail inválido.'] } }) });
    const router = await openForm();
    await fillAll();
    solveCaptcha();
    await userEvent.click(screen.getByRole('button', { name: 'Cadastrar' }));
    await waitFor(() => expect(screen.getAllByText('E-mail inválido.').length).toBeGreaterThanOrEqual(1));
    expect(api.of('POST', '/api/v1/cliente-teste').map((c) => c.body)).toEqual([
      {
        cnpj: '11222333000181',
        razao_social: 'Factoring Teste',
        nome_responsavel: 'Ana Lima',
        email: 'ana@factoring.com.br',
        telefone: '71988887777',
        aceite_termo: true,
        recaptcha: 'cGF5bG9hZA==',
      },
    ]);
    // The spent payload is dropped: no message until the next submission, which requires it.
    expect(screen.queryByText('O campo Captcha é obrigatório.')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Cadastrar' }));
    expect(await screen.findByText('O campo Captcha é obrigatório.')).toBeTruthy();
    expect(api.of('POST', '/api/v1/cliente-teste')).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/degustacao/cliente');
  });
});
