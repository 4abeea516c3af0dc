import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, vi } from 'vitest';

/**
 * The screens' tests talk to a fake API behind fetch, and pick PrimeReact options as a user does:
 * what every feature's tests share (its own kit, src/test/<feature>.tsx, builds on this).
 */

/** A Response as fetch would give it (as test/render's, which pulls in the whole route table). */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

export interface ApiCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

type Answer = Response | ((call: ApiCall) => Response);

/**
 * fetch answering by `METHOD /path` (query left out); every request is recorded. A request without an
 * answer fails the test with a 599 so that it cannot pass unnoticed.
 */
export function stubApi(answers: Record<string, Answer>) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const call = { method, path: url.pathname, query: url.searchParams, body };
    calls.push(call);
    const answer = answers[`${method} ${url.pathname}`];
    if (!answer) return jsonResponse(599, { error: `sem resposta para ${method} ${url.pathname}` });
    return typeof answer === 'function' ? answer(call) : answer.clone();
  });
  vi.stubGlobal('fetch', fetchMock);
  const of = (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path);
  return { calls, of, fetchMock };
}

/** Opens a PrimeReact Dropdown, given its input or any element inside it: its panel. */
export async function openDropdown(inside: HTMLElement): Promise<HTMLElement> {
  const dropdown = inside.closest<HTMLElement>('.p-dropdown');
  if (!dropdown) throw new Error('not inside a Dropdown');
  // One panel at a time: the last Dropdown's may still be leaving.
  await waitFor(() => expect(document.querySelector('.p-dropdown-panel')).toBeNull());
  await userEvent.click(dropdown);
  return waitFor(() => {
    const found = document.querySelector<HTMLElement>('.p-dropdown-panel');
    if (!found) throw new Error('the Dropdown did not open');
    return found;
  });
}

/** Picks an option of a PrimeReact Dropdown, given its input (by label) or any element inside it. */
export async function pickOption(inside: HTMLElement, option: string) {
  const panel = await openDropdown(inside);
  // jsdom has no layout: PrimeReact's positioning measures the panel as a hidden element and leaves
  // it display:none, so the options count as hidden although they are there.
  await userEvent.click(within(panel).getByRole('option', { name: option, hidden: true }));
}
