import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { closeAllDialogs } from '../lib/dialogs';
import { resetSession } from '../lib/session';
import { subscribeToasts } from '../lib/toast';

// jsdom has no scrolling; ScrollToTop calls it on every navigation.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;

// Vitest globals are off, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  closeAllDialogs();
  resetSession();
  // Drop toasts queued without a host (e.g. a logout in a test that rendered none) so none leaks on.
  subscribeToasts(() => {})();
  sessionStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});
