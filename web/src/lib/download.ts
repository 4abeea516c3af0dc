/**
 * Files the API answers as base64 (a contract PDF, an error document's XML) or as text (a CSV), saved by
 * the browser byte for byte: the base64 is decoded to bytes, never to text, which would re-encode anything that
 * is not ASCII. And a DAE's PDF, opened in a new tab from its presigned URL.
 */
import { message } from '@plac/shared/messages';
import { toast } from './toast';

/** Base64 to bytes: atob's "binary string" has one byte (0-255) per character; throws on non-base64. */
export function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(base64.replace(/\s+/g, '')), (c) => c.charCodeAt(0));
}

/** Saves base64 content as a file download named `fileName`. */
export function downloadBase64(fileName: string, base64: string, type: string): void {
  saveBlob(fileName, new Blob([base64ToBytes(base64)], { type }));
}

/** Saves text the API answered (a batch's CSV) as a file download named `fileName`. */
export function downloadText(fileName: string, text: string, type: string): void {
  saveBlob(fileName, new Blob([text], { type }));
}

/** Saves a Blob as a file download named `fileName` (object URL + <a download>). */
export function saveBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
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

/** Opens a DAE's PDF (a presigned URL) in a new tab; a blocked pop-up is said, not silently lost. */
export function abrirDae(url: string): void {
  const aba = window.open(url, '_blank');
  if (aba) aba.opener = null;
  else toast.warn(message('daePopupBloqueado'));
}

