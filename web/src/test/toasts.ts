import { afterEach, beforeEach } from 'vitest';
import { subscribeToasts, type ToastMessage } from '../lib/toast';

/**
 * The toasts the screens raise during each test of the file, in order: the list is emptied and
 * subscribed before each test and unsubscribed after it, so one test never sees another's toasts.
 * `before` runs first in each beforeEach (e.g. forgetting the mTLS address the previous test learnt).
 */
export function recordToasts(before?: () => void): ToastMessage[] {
  const toasts: ToastMessage[] = [];
  let unsubscribe = () => {};
  beforeEach(() => {
    before?.();
    toasts.length = 0;
    unsubscribe = subscribeToasts((m) => toasts.push(m));
  });
  afterEach(() => unsubscribe());
  return toasts;
}
