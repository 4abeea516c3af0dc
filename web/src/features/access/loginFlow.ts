import type { auth, ResponseOf } from '@plac/shared/contracts';
import { message } from '@plac/shared/messages';
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { isApiError, reportApiError } from '../../lib/api';
import { userMessageOf } from '../../lib/api/errors';
import { login } from '../../lib/session';
import { clearToasts } from '../../lib/toast';

/** A login that opened a session: the session user and the bearer token (a password login may first answer the second factor's challenge). */
export type LoginResult = ResponseOf<typeof auth.loginSegundoFator>;

/**
 * Stores the session of a successful login and leaves for `to` (the dashboard unless said). The
 * toasts of earlier failed attempts (a wrong password before the certificate) are cleared: they no
 * longer apply.
 */
export function useFinishLogin(to = '/app'): (result: LoginResult) => void {
  const navigate = useNavigate();
  return useCallback(
    (result: LoginResult) => {
      clearToasts();
      login(result.user, result.token);
      void navigate(to, { replace: true });
    },
    [navigate, to],
  );
}

/**
 * Runs a certificate login sent with `notify: false`. A 410 answer clears the errors silently
 * (resolves null, nothing shown); any other failure is shown as usual (a toast) and rethrown
 * so that the form can put its field errors beside the fields.
 */
export async function certificateLogin(call: () => Promise<LoginResult>): Promise<LoginResult | null> {
  try {
    return await call();
  } catch (error) {
    if (isApiError(error)) {
      if (error.status === 410) return null;
      // Token failures were already handled by the client.
      if (!error.isTokenError) reportApiError(error);
    }
    throw error;
  }
}

export type LocalErrors = Partial<Record<string, string[]>>;

/** 'O campo {field} é obrigatório.' for each empty field; `fields` maps field name → label and value. */
export function requiredErrors(fields: Record<string, { label: string; value: string }>): LocalErrors {
  const errors: LocalErrors = {};
  for (const [name, { label, value }] of Object.entries(fields)) {
    if (value.trim() === '') errors[name] = [message('campoObrigatorio', { field: label })];
  }
  return errors;
}

export function hasErrors(errors: LocalErrors): boolean {
  return Object.values(errors).some((list) => list !== undefined && list.length > 0);
}

/**
 * The failure the login card says inline: one that got no answer (network, timeout) or a 5xx, as
 * 'Serviço indisponível' (issue 28: the card showed nothing). A refusal with field errors is shown
 * beside its fields, and the others (wrong password, blocked user) by their toast as before; null for those.
 */
export function loginUnavailable(error: unknown): string | null {
  if (error === null || error === undefined) return null;
  if (isApiError(error) && error.status !== 0 && error.status < 500) return null;
  if (isApiError(error) && error.error === 'certificadoAusente') return null;
  return userMessageOf(error);
}
