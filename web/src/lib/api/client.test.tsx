import { render, screen } from '@testing-library/react';
import { auth, dominio, platform } from '@plac/shared/contracts';
import { MESSAGES } from '@plac/shared/messages';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FieldError } from '../../components/FieldError';
import { jsonResponse, signIn } from '../../test/render';
import { openDialogCount, useRegisterDialog } from '../dialogs';
import { setNavigator } from '../navigation';
import { getSession, saveFilter } from '../session';
import { subscribeToasts, type ToastMessage } from '../toast';
import { CERTIFICATE_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from './client';
import { ApiError, callApi, callApiWithStatus, resetMtlsBaseUrl, toQueryString } from './index';

let toasts: ToastMessage[];
let navigations: string[];
let unsubscribe: () => void;
let unbind: () => void;

beforeEach(() => {
  toasts = [];
  navigations = [];
  unsubscribe = subscribeToasts((m) => toasts.push(m));
  unbind = setNavigator((to) => navigations.push(to));
});

afterEach(() => {
  unsubscribe();
  unbind();
});

/** fetch answering the given responses in order; anything that is not a Response is thrown. */
function stubFetch(...responses: (Response | Error | DOMException)[]) {
  const fetchMock = vi.fn(async () => {
    const next = responses.shift();
    if (!next) throw new Error('unexpected fetch');
    if (!(next instanceof Response)) throw next;
    return next;
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function requestOf(fetchMock: ReturnType<typeof stubFetch>, call = 0) {
  const [url, init] = fetchMock.mock.calls[call] as unknown as [string, RequestInit];
  return { url, init, headers: new Headers(init.headers) };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('the call should have failed');
}

describe('callApi: requests', () => {
  it('fills the path, sends the bearer token and parses the answer against the contract', async () => {
    signIn(['sefaz_admin'], {}, 'tok-a');
    const fetchMock = stubFetch(jsonResponse(200, [{ codigo: 2927408, nome: 'Salvador' }]));
    const cities = await callApi(dominio.cidades, { params: { uf: 'BA', text: 'salv ador' } });
    expect(cities).toEqual([{ codigo: 2927408, nome: 'Salvador' }]);
    const { url, init, headers } = requestOf(fetchMock);
    expect(url).toBe('/api/v1/dominio/cidades/BA/salv%20ador');
    expect(init.method).toBe('GET');
    expect(headers.get('authorization')).toBe('Bearer tok-a');
    expect(init.body).toBeUndefined();
  });

  it('sends no Authorization header without a session', async () => {
    const fetchMock = stubFetch(jsonResponse(200, ['BA', 'SE']));
    await callApi(dominio.ufs);
    expect(requestOf(fetchMock).headers.has('authorization')).toBe(false);
  });

  it('reads text for an HTML contract', async () => {
    stubFetch(new Response('<h1>API</h1>', { status: 200, headers: { 'content-type': 'text/html' } }));
    expect(await callApi(platform.docs)).toBe('<h1>API</h1>');
  });

  it('gives the success status (the login type check answers 209 or 210)', async () => {
    stubFetch(jsonResponse(209, ['BA']));
    const result = await callApiWithStatus(dominio.ufs);
    expect(result.status).toBe(209);
  });

  it('serialises queries: empty values left out, arrays repeated, dates as YYYY-MM-DD', () => {
    expect(toQueryString({ a: 'x y', b: undefined, c: '', d: null, e: [1, 2], f: new Date(2025, 0, 31), g: false })).toBe(
      '?a=x+y&e=1&e=2&f=2025-01-31&g=false',
    );
    expect(toQueryString({})).toBe('');
  });
});

describe('callApi: refreshed token', () => {
  it('replaces the stored token with the one from x-plac-token and uses it next', async () => {
    signIn(['cliente'], {}, 'old-token');
    const fetchMock = stubFetch(
      jsonResponse(200, ['BA'], { 'x-plac-token': 'new-token' }),
      jsonResponse(200, ['SE']),
    );
    await callApi(dominio.ufs);
    expect(getSession().token).toBe('new-token');
    expect(JSON.parse(sessionStorage.getItem('plac-fate.session') ?? '{}').token).toBe('new-token');
    await callApi(dominio.ufs);
    expect(requestOf(fetchMock, 0).headers.get('authorization')).toBe('Bearer old-token');
    expect(requestOf(fetchMock, 1).headers.get('authorization')).toBe('Bearer new-token');
  });

  it('keeps the token when the header is absent', async () => {
    signIn(['cliente'], {}, 'same-token');
    stubFetch(jsonResponse(200, ['BA']));
    await callApi(dominio.ufs);
    expect(getSession().token).toBe('same-token');
  });
});

describe('callApi: error handling', () => {
  it('joins all field messages with line breaks in one toast and exposes them per field', async () => {
    stubFetch(jsonResponse(422, { errors: { email: ['E-mail inválido.'], password: ['Senha curta.', 'Senha sem número.'] } }));
    const error = await failure(callApi(dominio.ufs));
    expect(toasts).toEqual([
      { severity: 'error', summary: 'Erro', detail: 'E-mail inválido.\nSenha curta.\nSenha sem número.' },
    ]);
    expect(error.status).toBe(422);
    expect(error.fieldErrors).toEqual({ email: ['E-mail inválido.'], password: ['Senha curta.', 'Senha sem número.'] });

    render(<FieldError error={error} field="password" id="password-error" />);
    expect(screen.getByRole('alert').textContent).toBe('Senha curta.Senha sem número.');
  });

  it('says a sentence once when a field breaks several rules with it (the weak password)', async () => {
    const fraca = 'A senha deve ter de 8 a 20 caracteres, com letras e números.';
    stubFetch(jsonResponse(422, { errors: { password: [fraca, fraca], password_confirmation: [fraca] } }));
    const error = await failure(callApi(dominio.ufs));
    expect(toasts.map((t) => t.detail)).toEqual([fraca]);
    expect(error.fieldErrors).toEqual({ password: [fraca], password_confirmation: [fraca] });
  });

  it('a 409 with error, message and errors: the catalogue text in the toast, the field messages beside the field', async () => {
    const duplicado = 'Já existe um recurso com essas informações.';
    stubFetch(jsonResponse(409, { error: 'recursoDuplicado', message: duplicado, errors: { cpf: [duplicado] } }));
    const error = await failure(callApi(dominio.ufs));
    expect(toasts.map((t) => t.detail)).toEqual([duplicado]);
    expect(error.error).toBe('recursoDuplicado');
    expect(error.fieldErrors).toEqual({ cpf: [duplicado] });
    render(<FieldError error={error} field="cpf" id="cpf-error" />);
    expect(screen.getByRole('alert').textContent).toBe(duplicado);
  });

  it('translates a catalogue key in one toast', async () => {
    stubFetch(jsonResponse(404, { error: 'recursoNaoEncontrado', message: 'texto do servidor' }));
    const error = await failure(callApi(dominio.ufs));
    expect(toasts.map((t) => t.detail)).toEqual(['Recurso não encontrado']);
    expect(error.error).toBe('recursoNaoEncontrado');
    expect(error.message).toBe('Recurso não encontrado');
  });

  it('uses the message for an unknown key, and the value itself when there is none', async () => {
    stubFetch(jsonResponse(400, { error: 'chave_nova', message: 'Mensagem do servidor.' }), jsonResponse(401, { error: 'Credenciais Inválidas' }));
    await failure(callApi(dominio.ufs));
    await failure(callApi(dominio.ufs));
    expect(toasts.map((t) => t.detail)).toEqual(['Mensagem do servidor.', 'Credenciais Inválidas']);
  });

  it("treats API Gateway's own 401 (no token sent) as token_absent and ends the session", async () => {
    signIn(['sefaz_admin']);
    stubFetch(jsonResponse(401, { message: 'Unauthorized' }));
    const error = await failure(callApi(dominio.ufs));
    expect(error.error).toBe('token_absent');
    expect(getSession().user).toBeNull();
    expect(navigations).toEqual(['/']);
  });

  it("on token_expired clears the session, closes dialogs, goes to '/' and shows the inactivity message", async () => {
    signIn(['sefaz_admin'], {}, 'expired');
    saveFilter('user', { nome: 'Ana' });
    const hide = vi.fn();
    function OpenDialog() {
      useRegisterDialog(true, hide);
      return null;
    }
    render(<OpenDialog />);
    expect(openDialogCount()).toBe(1);

    stubFetch(jsonResponse(401, { error: 'token_expired', message: 'Sua sessão expirou.' }));
    const error = await failure(callApi(dominio.ufs));

    expect(error.isTokenError).toBe(true);
    expect(getSession()).toMatchObject({ user: null, token: null, filters: {} });
    expect(sessionStorage.getItem('plac-fate.session')).toBeNull();
    expect(hide).toHaveBeenCalledTimes(1);
    expect(navigations).toEqual(['/']);
    expect(toasts.map((t) => t.detail)).toEqual([
      'Você foi deslogado do sistema por inatividade. Favor entrar no sistema novamente.',
    ]);
  });

  it('logs out once when several calls fail with a token error together', async () => {
    signIn(['cliente']);
    stubFetch(jsonResponse(401, { error: 'token_expired' }), jsonResponse(401, { error: 'token_invalid' }));
    await Promise.allSettled([callApi(dominio.ufs), callApi(dominio.ufs)]);
    expect(toasts).toHaveLength(1);
    expect(navigations).toEqual(['/']);
  });

  it('ends the session on a token error even when the caller handles errors itself', async () => {
    signIn(['cliente']);
    stubFetch(jsonResponse(401, { error: 'token_invalid' }));
    await failure(callApi(dominio.ufs, { notify: false }));
    expect(getSession().user).toBeNull();
    expect(toasts.map((t) => t.detail)).toEqual([MESSAGES.inatividade]);
  });

  it('shows nothing for other errors when notify is false', async () => {
    stubFetch(jsonResponse(410, { error: 'recursoNaoEncontrado' }));
    const error = await failure(callApi(dominio.ufs, { notify: false }));
    expect(error.status).toBe(410);
    expect(toasts).toEqual([]);
  });

  it("says 'Serviço indisponível' on a network failure", async () => {
    stubFetch(new TypeError('Failed to fetch'));
    const error = await failure(callApi(dominio.ufs));
    expect(error.status).toBe(0);
    expect(toasts.map((t) => t.detail)).toEqual(['Serviço indisponível']);
  });

  it("says 'Serviço indisponível' on a 5xx without a body or with a non-JSON body", async () => {
    stubFetch(new Response(null, { status: 502 }), new Response('Bad gateway', { status: 503, headers: { 'content-type': 'text/plain' } }));
    await failure(callApi(dominio.ufs));
    await failure(callApi(dominio.ufs));
    expect(toasts.map((t) => t.detail)).toEqual(['Serviço indisponível', 'Serviço indisponível']);
  });

  it('treats an HTML error as unavailable', async () => {
    const open = vi.fn();
    vi.stubGlobal('open', open);
    stubFetch(new Response('<h1>erro</h1>', { status: 500, headers: { 'content-type': 'text/html' } }));
    await failure(callApi(dominio.ufs));
    expect(open).not.toHaveBeenCalled();
    expect(toasts.map((t) => t.detail)).toEqual(['Serviço indisponível']);
  });

  it('refuses an answer outside the contract', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch(jsonResponse(200, [{ nome: 'sem código' }]));
    const error = await failure(callApi(dominio.ufsCompletas));
    expect(error.message).toBe(MESSAGES.erroInterno);
    expect(toasts.map((t) => t.detail)).toEqual([MESSAGES.erroInterno]);
  });

  it("says 'Serviço indisponível' when no answer comes within the timeout, and aborts the request", async () => {
    vi.useFakeTimers();
    try {
      let seen: AbortSignal | undefined;
      vi.stubGlobal(
        'fetch',
        vi.fn(
          (_url: string, init: RequestInit) =>
            new Promise<Response>((_resolve, reject) => {
              seen = init.signal ?? undefined;
              init.signal?.addEventListener('abort', () => reject(new DOMException('tempo esgotado', 'TimeoutError')));
            }),
        ),
      );
      const pending = failure(callApi(dominio.ufs));
      await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS + 1);
      const error = await pending;
      expect(seen?.aborted).toBe(true);
      expect(error.status).toBe(0);
      expect(toasts.map((t) => t.detail)).toEqual(['Serviço indisponível']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives a certificate login the user’s time to choose the certificate: not cut at 30 s', async () => {
    vi.useFakeTimers();
    try {
      resetMtlsBaseUrl();
      let aborted = false;
      vi.stubGlobal(
        'fetch',
        vi.fn((url: string, init: RequestInit) =>
          url === '/api/v1/config'
            ? Promise.resolve(jsonResponse(200, { version: '1', mtlsBaseUrl: 'https://localhost:3443' }))
            : new Promise<Response>((_resolve, reject) => {
                init.signal?.addEventListener('abort', () => {
                  aborted = true;
                  reject(new DOMException('tempo esgotado', 'TimeoutError'));
                });
              }),
        ),
      );
      const pending = failure(callApi(auth.loginCertificadoCliente, { body: { email: 'ana@empresa.com.br' }, notify: false }));
      await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS * 2);
      expect(aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(CERTIFICATE_TIMEOUT_MS);
      expect(aborted).toBe(true);
      expect((await pending).status).toBe(0);
    } finally {
      vi.useRealTimers();
      resetMtlsBaseUrl();
    }
  });

  it("shows 'Serviço indisponível' for a 500 named erroInterno (a 5xx is the service failing, not the user)", async () => {
    stubFetch(jsonResponse(500, { error: 'erroInterno' }));
    await failure(callApi(dominio.ufs));
    expect(toasts.map((t) => t.detail)).toEqual(['Serviço indisponível']);
  });

  it('lets a cancelled request reject without a toast', async () => {
    const controller = new AbortController();
    controller.abort();
    stubFetch(new DOMException('aborted', 'AbortError'));
    await expect(callApi(dominio.ufs, { signal: controller.signal })).rejects.toThrow('aborted');
    expect(toasts).toEqual([]);
  });
});
