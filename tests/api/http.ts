import { inject } from 'vitest';
import type { Principal } from '@plac/shared/access';
import { recordAnswer } from '../openapi/answers';
import { headersOf } from './session';

/** A request to the twin's gateway; answers the status, headers and parsed body. */
/** The integration twin's gateway, e.g. http://localhost:41234. */
export const twinUrl = () => inject('twin').url;

export async function call(path: string, init: RequestInit = {}) {
  const response = await fetch(inject('twin').url + path, init);
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const body: unknown = type.includes('application/json') && text ? JSON.parse(text) : text;
  recordAnswer(init.method ?? 'GET', path, response.status, type, body);
  return { status: response.status, headers: response.headers, body };
}

/** A request to the twin as `who` (a session of theirs), with a JSON body when one is given. */
export async function callAs(method: string, path: string, who: Principal, body?: unknown) {
  return call(path, {
    method,
    headers: { ...(await headersOf(who)), ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
}
