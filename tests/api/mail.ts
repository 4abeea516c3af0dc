import { inject } from 'vitest';
import type { CapturedMail } from '../../infra/local/emulators/mail';

/** The e-mails the twin captured for an address, newest first. */
export async function mailsTo(address: string): Promise<CapturedMail[]> {
  const response = await fetch(`${inject('twin').mailUrl}/api/messages?to=${encodeURIComponent(address)}`);
  return (await response.json()) as CapturedMail[];
}

/** Waits for the first e-mail to an address whose subject contains the text. */
export async function waitForMail(address: string, subject: string, seconds = 10): Promise<CapturedMail> {
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const found = (await mailsTo(address)).find((m) => m.subject.includes(subject));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no e-mail "${subject}" to ${address} within ${seconds}s`);
}
