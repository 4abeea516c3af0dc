/**
 * Test helpers (imported only by tests): a fetch stub that routes by method and URL and records every
 * request, and the users the login contracts answer with.
 */
import { vi } from 'vitest';
import type { SessionUser } from '../lib/session';

export interface RecordedCall {
  method: string;
  url: string;
  init: RequestInit;
  headers: Headers;
  /** The body parsed as JSON when it is text, else as sent. */
  body: unknown;
}

export type Handler = (call: RecordedCall) => Response | Error | undefined | Promise<Response | Error | undefined>;

/** Stubs fetch; an unexpected request fails the test loudly. Returns the list of requests, live. */
export function stubApi(handler: Handler): RecordedCall[] {
  const calls: RecordedCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const text = typeof init.body === 'string' ? init.body : undefined;
      const call: RecordedCall = {
        method: init.method ?? 'GET',
        url: String(input),
        init,
        headers: new Headers(init.headers),
        body: text === undefined ? init.body : JSON.parse(text),
      };
      calls.push(call);
      const result = await handler(call);
      if (result === undefined) throw new Error(`unexpected request ${call.method} ${call.url}`);
      if (result instanceof Error) throw result;
      return result;
    }),
  );
  return calls;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export const MTLS_BASE = 'https://localhost:3443';

/** GET /api/v1/config as the local twin answers it. */
export function configResponse(mtlsBaseUrl = MTLS_BASE): Response {
  return json(200, { version: '2.10.0', mtlsBaseUrl });
}

type LoginUser = Required<Pick<SessionUser, 'image' | 'prazoSemCertificado' | 'podeAlterarSenha' | 'email'>> & SessionUser;

export function loginUser(extra: Partial<LoginUser> = {}): LoginUser {
  return {
    userId: 'u-7',
    name: 'Ana Lima',
    email: 'ana@empresa.com.br',
    tipo: 'C',
    roles: ['cliente'],
    clienteId: 'c-3',
    image: null,
    prazoSemCertificado: null,
    podeAlterarSenha: false,
    ...extra,
  };
}

/** The calls as 'METHOD url', for comparing sequences. */
export function requestLines(calls: readonly RecordedCall[]): string[] {
  return calls.map((c) => `${c.method} ${c.url}`);
}

/** The messages shown beside a field (FormField gives them the id `${input id}-error`), or null. */
export function fieldMessage(input: HTMLElement): string | null {
  return document.getElementById(`${input.id}-error`)?.textContent ?? null;
}
