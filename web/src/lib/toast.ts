/**
 * The toast bus. Code outside React (the API client, logout) and components alike publish here; the
 * one ToastHost of the app shell shows the messages with PrimeReact's Toast. Keeping the bus free of
 * PrimeReact keeps the entry chunk small, and messages published before the host mounts (e.g. while the
 * shell chunk is still loading) are queued, not lost.
 */

/** Toasts stay 8000 ms. */
export const TOAST_LIFE_MS = 8000;

export type ToastSeverity = 'success' | 'info' | 'warn' | 'error';

export interface ToastMessage {
  severity: ToastSeverity;
  summary: string;
  detail: string;
}

type Listener = (message: ToastMessage) => void;

const listeners = new Set<Listener>();
const clearListeners = new Set<() => void>();
const pending: ToastMessage[] = [];

const SUMMARIES: Record<ToastSeverity, string> = {
  success: 'Sucesso',
  info: 'Informação',
  warn: 'Atenção',
  error: 'Erro',
};

export function showToast(severity: ToastSeverity, detail: string, summary = SUMMARIES[severity]): void {
  const message = { severity, summary, detail };
  if (listeners.size === 0) {
    pending.push(message);
    return;
  }
  for (const listener of listeners) listener(message);
}

export const toast = {
  success: (detail: string, summary?: string) => showToast('success', detail, summary),
  info: (detail: string, summary?: string) => showToast('info', detail, summary),
  warn: (detail: string, summary?: string) => showToast('warn', detail, summary),
  error: (detail: string, summary?: string) => showToast('error', detail, summary),
};

/** Receives every message from now on, after the queued ones. Returns the unsubscribe function. */
export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  for (const message of pending.splice(0)) listener(message);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Removes every toast on screen and every queued one: a successful login starts afresh, without the
 * failure of an earlier attempt staying on the dashboard.
 */
export function clearToasts(): void {
  pending.length = 0;
  for (const listener of clearListeners) listener();
}

/** Called on clearToasts(). Returns the unsubscribe function. */
export function subscribeToastClear(listener: () => void): () => void {
  clearListeners.add(listener);
  return () => {
    clearListeners.delete(listener);
  };
}
