import { fireEvent, screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';

/**
 * Types a date into PrimeReact's Calendar as the user's keyboard leaves it (userEvent's key-by-key
 * typing is not kept by the Calendar in jsdom: it reads the input event), and waits for it to show.
 */
export async function typeDate(label: string, text: string) {
  const input = screen.getByLabelText<HTMLInputElement>(label);
  fireEvent.input(input, { target: { value: text } });
  await waitFor(() => expect(input.value).toBe(text));
}

/** The bytes of a Blob the page made (a download), read as the browser would. */
export function bytesOf(blob: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('leitura falhou'));
    reader.readAsArrayBuffer(blob);
  });
}
