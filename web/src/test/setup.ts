import { cleanup, configure } from '@testing-library/react';
import type * as ChartJs from 'chart.js';
import { afterEach, beforeEach, vi } from 'vitest';
import { closeAllDialogs } from '../lib/dialogs';
import { resetSession } from '../lib/session';
import { subscribeToasts } from '../lib/toast';
import { charts } from './fake-chart';

// jsdom has no canvas: every chart is drawn into a recorder (fake-chart.ts). Mocked here, once, and
// not in the files that read it: the component tests share their modules (isolate: false in
// web/vite.config.ts), so a file's own vi.mock would come after another file had loaded chart.js.
vi.mock('chart.js', async (importOriginal) => {
  const original = await importOriginal<typeof ChartJs>();
  const { FakeChart } = await import('./fake-chart');
  return { ...original, Chart: FakeChart };
});
// The real ALTCHA widget needs Web Crypto workers: in every component test its loader defines nothing,
// and the registration forms' widget is an inert element the tests drive by its events.
vi.mock('../components/altchaLoader', () => ({}));

// findBy…/waitFor wait up to 5 s, not Testing Library's 1 s: on a 2-core machine busy with another
// process (a benchmark, a second runner) a screen's first render took 1.1-1.3 s and two tests failed
// waiting for what was on its way. A test that waits for something that never comes still fails.
configure({ asyncUtilTimeout: 5_000 });

// jsdom has no scrolling; ScrollToTop calls it on every navigation.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;

// Object URLs: jsdom has none, and Node's refuse jsdom's Blobs. Every test starts with this inert pair
// (PrimeReact's FileUpload makes one for each file picked; downloads make one for their Blob); a test
// that reads the Blobs spies on them (vi.spyOn), and the spy is undone after it. Set again before each
// test, so a test that replaced them cannot leave its own to the next file (the modules are shared).
const semObjectUrl = { createObjectURL: (_blob: Blob) => 'blob:teste', revokeObjectURL: (_url: string) => undefined };
beforeEach(() => {
  Object.assign(URL, semObjectUrl);
});

// Vitest globals are off, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  closeAllDialogs();
  resetSession();
  // Drop toasts queued without a host (e.g. a logout in a test that rendered none) so none leaks on.
  subscribeToasts(() => {})();
  sessionStorage.clear();
  charts.length = 0;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});
