/**
 * The error document's XML, downloaded exactly as the Sefaz delivered it: the base64 is decoded
 * straight to bytes (never through a JavaScript string, which would re-encode anything that is not
 * ASCII), and the bytes are saved under the server's file name.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUES = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;
// The URL-safe alphabet too, so that either form decodes.
VALUES['-'.charCodeAt(0)] = 62;
VALUES['_'.charCodeAt(0)] = 63;

/** Base64 (padding and whitespace optional) to bytes; throws on any other character. */
export function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(Math.floor((base64.length * 3) / 4) + 3);
  let length = 0;
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < base64.length; i++) {
    const code = base64.charCodeAt(i);
    if (code === 61 /* = */) break;
    if (code === 32 || code === 9 || code === 10 || code === 13) continue;
    const value = code < 128 ? VALUES[code]! : -1;
    if (value < 0) throw new Error('conteúdo base64 inválido');
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[length++] = (buffer >> bits) & 0xff;
    }
  }
  return out.slice(0, length);
}

/** Saves the bytes as a download named `fileName` (Blob + object URL + <a download>). */
export function saveBytes(fileName: string, bytes: Uint8Array<ArrayBuffer>, type: string): void {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The browser has started the download by then.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadXml(file: { nomeArquivo: string; conteudoBase64: string }): void {
  saveBytes(file.nomeArquivo, base64ToBytes(file.conteudoBase64), 'application/xml');
}
