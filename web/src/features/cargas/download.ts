/**
 * The error document's XML, downloaded exactly as the Sefaz delivered it: the base64 is decoded to
 * bytes (never to text, which would re-encode anything that is not ASCII), and the bytes are saved
 * under the server's file name.
 */

/**
 * Base64 to bytes. atob gives a "binary string" whose every character is one byte (0-255), so mapping
 * the char codes is exact; it throws on anything that is not base64.
 */
export function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(base64.replace(/\s+/g, '')), (c) => c.charCodeAt(0));
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
