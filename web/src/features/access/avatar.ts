import { MESSAGES, message } from '@plac/shared/messages';

/** The avatar is a png or jpeg of at most 3 MB. */
export const AVATAR_MAX_MB = 3;
const MB = 1024 * 1024;
export const AVATAR_MAX_BYTES = AVATAR_MAX_MB * MB;
export const AVATAR_TYPES = ['image/png', 'image/jpeg'] as const;
export type AvatarType = (typeof AVATAR_TYPES)[number];

const SIGNATURES: readonly { type: AvatarType; bytes: readonly number[] }[] = [
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
];

/** The image type by its first bytes (files are typed by content, never by name or declared type), or null. */
export function sniffImageType(head: Uint8Array): AvatarType | null {
  for (const { type, bytes } of SIGNATURES) {
    if (bytes.every((byte, i) => head[i] === byte)) return type;
  }
  return null;
}

/**
 * A size in MB the pt-BR way ('4,2'), with as many decimals as it takes (up to 3) not to look like the
 * 3 MB limit itself when it is just above it.
 */
export function formatMegabytes(bytes: number): string {
  const mb = bytes / MB;
  let digits = 1;
  while (digits < 3 && Math.round(mb * 10 ** digits) / 10 ** digits <= AVATAR_MAX_MB) digits++;
  return mb.toLocaleString('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: digits });
}

function read(blob: Blob, how: 'readAsArrayBuffer' | 'readAsDataURL'): Promise<FileReader['result']> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error ?? new Error('leitura do arquivo falhou'));
    reader[how](blob);
  });
}

export type AvatarCheck = { ok: true; dataUrl: string } | { ok: false; message: string };

/**
 * Checks a picked avatar before it is sent (the server checks again): png or jpeg by declared type and
 * by content, at most 3 MB. Gives the data URL that updateProfile takes, typed by the content.
 */
export async function readAvatar(file: File): Promise<AvatarCheck> {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return { ok: false, message: MESSAGES.imagemTipoInvalido };
  if (file.size > AVATAR_MAX_BYTES) {
    return { ok: false, message: message('imagemGrandeDemais', { size: formatMegabytes(file.size) }) };
  }
  const head = new Uint8Array((await read(file.slice(0, 8), 'readAsArrayBuffer')) as ArrayBuffer);
  const type = sniffImageType(head);
  if (!type) return { ok: false, message: MESSAGES.imagemTipoInvalido };
  const dataUrl = String(await read(file, 'readAsDataURL'));
  return { ok: true, dataUrl: `data:${type};base64,${dataUrl.slice(dataUrl.indexOf(',') + 1)}` };
}

/** Up to two initials of a name, for the avatar without a picture ('Maria da Silva Souza' → 'MS'). */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter((w) => w.length > 2 || /^[A-ZÀ-Ý]/.test(w));
  const picked = words.length > 1 ? [words[0]!, words[words.length - 1]!] : words;
  return picked.map((w) => w[0]!.toUpperCase()).join('');
}
