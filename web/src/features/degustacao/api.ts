import { degustacao, fillPath, type AnyContract, type ResponseOf } from '@plac/shared/contracts';
import { MESSAGES } from '@plac/shared/messages';
import { ApiError, errorFromResponse, networkError, reportApiError } from '../../lib/api/errors';
import { clearTrialSession, getTrialSession } from './session';

/**
 * The trial look-ups (obter-chavesNFe, consultar-fatura) carry the trial access token in their own
 * header, never the portal's bearer, which the shared client (lib/api/client.ts) always sends: so
 * they go through this small fetch of their own, with the same answer handling — checked against the
 * contract, failures as ApiError, toasted. A refused trial authorisation (401: none, expired,
 * deactivated) ends the trial session; the page then returns to autorizacao.
 */
export async function trialCall<C extends AnyContract>(
  contract: C,
  params: Record<string, string> = {},
  options: { notify?: boolean; signal?: AbortSignal } = {},
): Promise<ResponseOf<C>> {
  const session = getTrialSession();
  const headers = new Headers({ Accept: 'application/json' });
  if (session) headers.set(degustacao.DEGUSTACAO_HEADER, session.token);
  let response: Response;
  let text: string;
  try {
    response = await fetch(fillPath(contract.path, params), { method: contract.method, headers, ...(options.signal ? { signal: options.signal } : {}) });
    text = await response.text();
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const failure = networkError();
    if (options.notify !== false) reportApiError(failure);
    throw failure;
  }
  if (!response.ok) {
    const failure = errorFromResponse(response.status, response.headers, text);
    if (response.status === 401) clearTrialSession();
    if (options.notify !== false) reportApiError(failure);
    throw failure;
  }
  let data: unknown;
  try {
    data = text === '' ? undefined : JSON.parse(text);
  } catch {
    data = undefined;
  }
  const parsed = contract.response.safeParse(data);
  if (!parsed.success) throw new ApiError({ status: response.status, message: MESSAGES.erroInterno, error: 'erroInterno' });
  return parsed.data as ResponseOf<C>;
}
