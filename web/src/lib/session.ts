import { useSyncExternalStore } from 'react';
import { isRole, type Principal } from '@plac/shared/access';
import { formatCnpj } from '@plac/shared/domain/cnpj-regras';
import { SHELL_MESSAGES } from '@plac/shared/shell-messages';
import { closeAllDialogs } from './dialogs';
import { navigateTo } from './navigation';
import { toast } from './toast';

/**
 * The session state: current user, token, the saved client, user and
 * invoice filters, and the report-processing flag. It lives in sessionStorage so that a reload keeps
 * the user signed in but a closed tab does not.
 */

/**
 * The signed-in user: the principal plus what the login answers (auth contract's sessionUserSchema).
 * The extra fields are optional so that a session stored before they existed still loads.
 */
export type SessionUser = Principal & {
  email?: string;
  /** Issuers: the CNPJ of the certificate; clients: the company's CNPJ. */
  cnpj?: string;
  /** Client users: the company's razão social. */
  razaoSocial?: string;
  /** Presigned URL of the avatar (valid a few minutes), or null without one. */
  image?: string | null;
  /** Client users: last day (YYYY-MM-DD) on which a password login is allowed. */
  prazoSemCertificado?: string | null;
  /** The profile offers the password fields. */
  podeAlterarSenha?: boolean;
  /** A Sefaz user's password login without the second factor: only the profile, to enrol it (issue 42). */
  segundoFatorObrigatorio?: boolean;
};

/** Filters a list page saves to restore them when the user comes back (shapes are the pages'). */
export interface SavedFilters {
  cliente?: Record<string, unknown>;
  user?: Record<string, unknown>;
  fatura?: Record<string, unknown>;
  /** imprimir-dae (prepaid DAEs). */
  daePrepago?: Record<string, unknown>;
}

export type FilterName = keyof SavedFilters;

/** The consumption report running in the background: the banner shows the client and elapsed time. */
export interface ReportProcessing {
  clienteNome: string;
  /** Epoch milliseconds. */
  startedAt: number;
  /** The job's real progress (lines written of the month's total), once the server has answered. */
  linhas?: number;
  total?: number;
}

export interface SessionState {
  user: SessionUser | null;
  token: string | null;
  filters: SavedFilters;
  reportProcessing: ReportProcessing | null;
}

/** 'user': the logout button; 'inactivity': a token_ error from the API. */
export type LogoutReason = 'user' | 'inactivity';

export const SESSION_STORAGE_KEY = 'plac-fate.session';
export const ISSUER_LOGIN_PATH = '/emissor/login';

const EMPTY: SessionState = { user: null, token: null, filters: {}, reportProcessing: null };

function isSessionUser(value: unknown): value is SessionUser {
  if (typeof value !== 'object' || value === null) return false;
  const u = value as Record<string, unknown>;
  return (
    typeof u.userId === 'string' &&
    typeof u.name === 'string' &&
    (u.tipo === 'S' || u.tipo === 'C') &&
    Array.isArray(u.roles) &&
    u.roles.every(isRole)
  );
}

/** Reads the stored session; anything malformed counts as signed out rather than crashing the app. */
function load(): SessionState {
  try {
    const raw = globalThis.sessionStorage?.getItem(SESSION_STORAGE_KEY);
    if (!raw) return EMPTY;
    const data = JSON.parse(raw) as Partial<SessionState>;
    const user = isSessionUser(data.user) ? data.user : null;
    const token = user && typeof data.token === 'string' ? data.token : null;
    return {
      user: token ? user : null,
      token,
      filters: typeof data.filters === 'object' && data.filters !== null ? data.filters : {},
      reportProcessing: data.reportProcessing ?? null,
    };
  } catch {
    return EMPTY;
  }
}

let state: SessionState = load();
const listeners = new Set<() => void>();

function save(next: SessionState): void {
  state = next;
  try {
    if (next === EMPTY) globalThis.sessionStorage?.removeItem(SESSION_STORAGE_KEY);
    else globalThis.sessionStorage?.setItem(SESSION_STORAGE_KEY, JSON.stringify(next));
  } catch {
    // Storage full or blocked (private mode): the session still works for this page's life.
  }
  for (const listener of listeners) listener();
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The current session, outside React (loaders, the API client). */
export function getSession(): SessionState {
  return state;
}

/** The current session; re-renders when it changes. */
export function useSession(): SessionState {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

/** Stores the user and token after a successful login. */
export function login(user: SessionUser, token: string): void {
  save({ ...EMPTY, user, token });
}

/** Replaces the signed-in user's data (after a profile save), keeping token, filters and the rest. */
export function updateUser(user: SessionUser): void {
  if (!state.user) return;
  save({ ...state, user });
}

/** Replaces the token, e.g. with the refreshed one from the x-plac-token response header. */
export function setToken(token: string): void {
  if (!state.user || token === state.token) return;
  save({ ...state, token });
}

export function saveFilter<K extends FilterName>(name: K, value: SavedFilters[K] | undefined): void {
  const filters = { ...state.filters };
  if (value === undefined) delete filters[name];
  else filters[name] = value;
  save({ ...state, filters });
}

export function setReportProcessing(value: ReportProcessing | null): void {
  save({ ...state, reportProcessing: value });
}

/** Clears everything without toast or navigation: for tests and for recovering from a bad store. */
export function resetSession(): void {
  save(EMPTY);
}

export interface LogoutOptions {
  /** Where to go instead of the default (e.g. the success-message page after the consent wizard). */
  to?: string;
}

/**
 * Ends the session: clears user, token and the saved filters, closes open dialogs,
 * tells the user why, and leaves the authenticated area: issuers to their own login, everyone else to
 * '/'. After a token failure the user always goes to '/' with the inactivity message.
 */
export function logout(reason: LogoutReason = 'user', options: LogoutOptions = {}): void {
  const wasIssuer = state.user?.roles.includes('emissor') ?? false;
  // Clear first: the guards of the destination must already see nobody signed in.
  save(EMPTY);
  closeAllDialogs();
  if (reason === 'inactivity') toast.warn(SHELL_MESSAGES.inatividade);
  else toast.success(SHELL_MESSAGES.sessaoEncerrada);
  const home = reason === 'user' && wasIssuer ? ISSUER_LOGIN_PATH : '/';
  navigateTo(options.to ?? home, { replace: true });
}

/**
 * The signed-in user, for pages of the authenticated area (the layout renders them only with a user).
 * Throws elsewhere, so a page mounted in the wrong place fails loudly.
 */
export function useCurrentUser(): SessionUser {
  const { user } = useSession();
  if (!user) throw new Error('useCurrentUser fora da área autenticada');
  return user;
}

/**
 * A client user's own company as the pages name it: its razão social (kept in the session since
 * login), or its CNPJ for a session signed in before the name was kept.
 */
export function nomeDoClienteDoUsuario(user: SessionUser): string {
  if (user.razaoSocial) return user.razaoSocial;
  return user.cnpj ? formatCnpj(user.cnpj) : (user.clienteId ?? '');
}
