import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PageShell } from '../../test/shell';
import { jsonResponse, signInAdmin, stubApi } from '../../test/users';
import AutorizacaoPage from './AutorizacaoPage';
import ClienteDegustacaoListPage from './ClienteDegustacaoListPage';
import ConsultaPage from './ConsultaPage';
import { clearTrialSession, getTrialSession, setTrialSession } from './session';

/** The trial authorisation and look-up screens: the trial session, its header, and the way back to autorizacao. */

const CHAVE = '2926118418211700012355001000000001100000017';
const CHAVE_44 = CHAVE + '0';
const SESSAO = { email: 'a@b.com', token: 'trial-token', razao_social: 'Factoring Teste', expira_em: new Date(Date.now() + 3600_000).toISOString() };

function renderTrial(path: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: <PageShell />,
        children: [
          { path: 'degustacao/autorizacao', element: <AutorizacaoPage /> },
          { path: 'degustacao/consulta', element: <ConsultaPage /> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => clearTrialSession());
afterEach(() => vi.unstubAllGlobals());

describe('trial screens', () => {
  it('authorises by e-mail + token, says so, and the look-up sends the trial token in its own header', async () => {
    const api = stubApi({
      'POST /api/v1/cliente-teste/validate-token': jsonResponse(200, { message: 'Usuário autorizado para testes', cliente: SESSAO }),
      'GET /api/v1/degustacao/obter-chavesNFe': jsonResponse(200, [{ chave: CHAVE_44, emissao: '2026-09-01T11:00:00.000Z', emitente: 'Transportes Atlântico ME', valorNota: 12345 }]),
    });
    const router = renderTrial('/degustacao/autorizacao');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('E-mail'), 'a@b.com');
    await user.type(screen.getByLabelText('Token'), 'ABCD2345');
    await user.click(screen.getByRole('button', { name: 'Autorizar' }));
    expect(await screen.findByText('Usuário autorizado para testes')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/degustacao/consulta'));
    expect(await screen.findByRole('button', { name: `Consultar a chave ${CHAVE_44}` })).toBeTruthy();
    const call = api.fetchMock.mock.calls.find(([url]) => String(url).includes('obter-chavesNFe'))!;
    const headers = new Headers(call[1]?.headers);
    expect(headers.get('x-plac-degustacao')).toBe('trial-token');
    expect(headers.get('authorization')).toBeNull();
    expect(api.of('POST', '/api/v1/cliente-teste/validate-token')[0]!.body).toEqual({ email: 'a@b.com', token: 'ABCD2345' });
  });

  it('sends to autorizacao without a trial session', async () => {
    stubApi({});
    const router = renderTrial('/degustacao/consulta');
    await waitFor(() => expect(router.state.location.pathname).toBe('/degustacao/autorizacao'));
  });

  it('requires the key, and a refused trial token ends the trial session and returns to autorizacao', async () => {
    setTrialSession(SESSAO);
    stubApi({
      'GET /api/v1/degustacao/obter-chavesNFe': jsonResponse(200, []),
      [`GET /api/v1/degustacao/consultar-fatura/${CHAVE_44}`]: jsonResponse(401, {
        error: 'degustacaoDesativado',
        message: 'O acesso para testes deste cadastro foi desativado.',
      }),
    });
    const router = renderTrial('/degustacao/consulta');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Consultar' }));
    expect((await screen.findAllByText('O campo Chave de Acesso é obrigatório.')).length).toBeGreaterThan(0);
    await user.type(screen.getByLabelText('Chave de Acesso'), `x${CHAVE_44}9`);
    expect((screen.getByLabelText('Chave de Acesso') as HTMLInputElement).value).toBe(CHAVE_44);
    await user.click(screen.getByRole('button', { name: 'Consultar' }));
    expect(await screen.findByText('O acesso para testes deste cadastro foi desativado.')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/degustacao/autorizacao'));
    expect(getTrialSession()).toBeNull();
  });
});

describe('cliente-degustacao-list', () => {
  const cliente = (n: number) => ({
    id: `t-${n}`,
    cnpj: '11222333000181',
    razao_social: `Factoring ${n}`,
    nome_responsavel: 'Ana',
    email: `t${n}@exemplo.com.br`,
    telefone: '71999990000',
    situacao: 'ATIVO',
    created_at: '2026-11-30T12:00:00.000Z',
    updated_at: '2026-11-30T12:00:00.000Z',
    nome_usuario: null,
  });

  it('pages on the server by cursor: the next page sends the cursor, the previous one asks again without it', async () => {
    signInAdmin();
    const api = stubApi({
      'GET /api/v1/cliente-teste/clientes': (call) =>
        call.query.get('cursor') === 'c-2' ? jsonResponse(200, { items: [cliente(2)] }) : jsonResponse(200, { items: [cliente(1)], nextCursor: 'c-2' }),
    });
    const router = createMemoryRouter([{ path: '/', element: <PageShell />, children: [{ index: true, element: <ClienteDegustacaoListPage /> }] }]);
    render(<RouterProvider router={router} />);
    expect(await screen.findByText('Factoring 1')).toBeTruthy();
    expect(Object.fromEntries(api.calls[0]!.query)).toEqual({ perPage: '25' });
    await userEvent.click(screen.getByRole('button', { name: 'Próxima' }));
    expect(await screen.findByText('Factoring 2')).toBeTruthy();
    expect(Object.fromEntries(api.calls.at(-1)!.query)).toEqual({ perPage: '25', cursor: 'c-2' });
    expect(screen.getByRole('button', { name: 'Próxima' }).hasAttribute('disabled')).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Anterior' }));
    expect(await screen.findByText('Factoring 1')).toBeTruthy();
  });
});
