import { fireEvent, waitFor } from '@testing-library/react';
import { expect } from 'vitest';

/** The public forms' ALTCHA widget, imported lazily, is in place. */
export async function captchaReady(): Promise<void> {
  await waitFor(() => expect(document.querySelector('altcha-widget')).not.toBeNull());
}

/** Solves the captcha as the widget does: verified, with its payload. */
export function solveCaptcha(payload = 'cGF5bG9hZA=='): void {
  const widget = document.querySelector('altcha-widget')!;
  fireEvent(widget, new CustomEvent('statechange', { detail: { state: 'verified' } }));
  fireEvent(widget, new CustomEvent('verified', { detail: { payload } }));
}
