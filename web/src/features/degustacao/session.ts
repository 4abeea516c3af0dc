import { useSyncExternalStore } from 'react';

/**
 * The trial session (degustação): what validate-token answered — the e-mail, the company and the trial
 * access token with its expiry. It is not the portal's session (lib/session.ts): it is kept apart, in
 * sessionStorage (the tab's life), and sent only to the trial look-ups, in DEGUSTACAO_HEADER. An
 * expired one reads as none.
 */
export interface TrialSession {
  email: string;
  token: string;
  razao_social: string;
  /** ISO instant. */
  expira_em: string;
}

const KEY = 'plac-degustacao';
const listeners = new Set<() => void>();
let cached: { raw: string | null; value: TrialSession | null } = { raw: null, value: null };

function storedText(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

function parse(raw: string | null): TrialSession | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as TrialSession | null;
    return parsed && typeof parsed.token === 'string' && typeof parsed.expira_em === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

/** The stored session, parsed once per change (the same object while unchanged, as useSyncExternalStore wants). */
function read(): TrialSession | null {
  const raw = storedText();
  if (raw !== cached.raw) cached = { raw, value: parse(raw) };
  return cached.value;
}

/** The trial session if there is one and it has not expired. */
export function getTrialSession(now = Date.now()): TrialSession | null {
  const session = read();
  return session && Date.parse(session.expira_em) > now ? session : null;
}

export function setTrialSession(session: TrialSession): void {
  sessionStorage.setItem(KEY, JSON.stringify(session));
  listeners.forEach((l) => l());
}

export function clearTrialSession(): void {
  sessionStorage.removeItem(KEY);
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useTrialSession(): TrialSession | null {
  return useSyncExternalStore(subscribe, () => getTrialSession(), () => null);
}
