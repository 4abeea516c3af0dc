/**
 * Loads the ALTCHA widget for the registration page only (imported dynamically by AltchaCaptcha).
 *
 * The 'external' build, not the default one: the default starts its proof-of-work workers from blob:
 * and data: URLs, which the portal's Content-Security-Policy (script-src 'self', no worker-src)
 * refuses. Here Vite emits the workers as files of our own origin, and the widget's styles come as a
 * stylesheet of the chunk.
 */
import 'altcha/external';
import 'altcha/altcha.css';
import 'altcha/i18n/pt-br';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import ShaWorker from 'altcha/workers/sha?worker';

const SHA = ['SHA-256', 'SHA-384', 'SHA-512'];

for (const algorithm of SHA) {
  globalThis.$altcha.algorithms.set(algorithm, () => new ShaWorker());
  globalThis.$altcha.algorithms.set(`PBKDF2/${algorithm}`, () => new Pbkdf2Worker());
}

export {};
