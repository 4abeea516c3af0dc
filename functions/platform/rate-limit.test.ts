import { afterEach, describe, expect, it, vi } from 'vitest';
import { inConstantTime } from './rate-limit';

/** A known and an unknown e-mail must cost the caller the same time (no account discovery). */
describe('inConstantTime', () => {
  afterEach(() => vi.useRealTimers());

  async function settledAfter(work: () => Promise<unknown>): Promise<number> {
    vi.useFakeTimers();
    const started = performance.now();
    let done = false;
    const run = inConstantTime(800, work).then(
      () => (done = true),
      () => (done = true),
    );
    await vi.advanceTimersByTimeAsync(799);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await run;
    expect(done).toBe(true);
    return performance.now() - started;
  }

  it('holds a fast answer (unknown e-mail) until the time is up', async () => {
    expect(await settledAfter(async () => 'nada')).toBeGreaterThanOrEqual(800);
  });

  it('holds a slow answer (mail sent) to the same time', async () => {
    expect(await settledAfter(() => new Promise((resolve) => setTimeout(resolve, 500)))).toBeGreaterThanOrEqual(800);
  });

  it('holds a failure to the same time and still throws it', async () => {
    vi.useFakeTimers();
    const failing = inConstantTime(800, async () => Promise.reject(new Error('falhou')));
    const caught = failing.catch((error: Error) => error.message);
    await vi.advanceTimersByTimeAsync(800);
    expect(await caught).toBe('falhou');
  });
});
