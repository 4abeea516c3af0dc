import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * A ZIP archive written as a stream whose state fits in a few numbers, so that a job can write it over
 * many separate Lambda invocations (relatorio-job.ts) with memory that does not grow with the archive:
 * - each entry's data is raw DEFLATE written piece by piece: every piece is compressed on its own and
 *   ended with a sync flush (non-final blocks, byte-aligned, no reference to earlier pieces), so the
 *   pieces concatenate into one valid DEFLATE stream, closed by an empty final block;
 * - the CRC-32 is carried from piece to piece (zlib.crc32's running value);
 * - sizes and CRC go in a data descriptor after the data (general purpose flag bit 3), since they are
 *   known only at the end; the central directory at the end lists every entry with its offset.
 *
 * ZIP64 (APPNOTE 6.3.x, 4.3.9, 4.4.1.4, 4.5.3), where the 32-bit fields do not hold the figures:
 * - an entry that may pass 4 GiB is opened as ZIP64 (`abrirEntrada`'s `zip64`: the caller decides
 *   before its first byte, since its local header is written first): the local header carries the
 *   ZIP64 extended information extra field (0x0001, both sizes, 0 until known, the 32-bit ones
 *   0xFFFFFFFF), its data descriptor has 8-byte sizes, and its central record has the 64-bit sizes
 *   and offset in that extra field. An entry not opened so that passes 4 GiB is refused (an error,
 *   never a corrupt archive);
 * - an entry whose local header is past 4 GiB gets the same extra field in its central record (the
 *   offset only lives there), whatever it was opened as;
 * - past 65,535 entries, or a central directory past 4 GiB or starting past it, the end has the zip64
 *   end of central directory record and its locator before the classic end record, whose fields then
 *   say 0xFFFF / 0xFFFFFFFF.
 * Both can be forced (tests, and readers that should see the ZIP64 structures on a small file).
 */

/** One entry being written or written: what its data descriptor and central record need. */
export interface EntradaZip {
  nome: string;
  /** Offset of its local header in the archive. */
  offset: number;
  crc: number;
  /** Bytes of compressed data. */
  comprimido: number;
  /** Bytes of the CSV. */
  tamanho: number;
  /** Opened as ZIP64: the extra field in its local header, 8-byte sizes in its data descriptor. */
  zip64?: boolean;
}

const LIMITE = 0xffffffff;
const LIMITE_16 = 0xffff;
/** Bit 3: sizes and CRC in the data descriptor; bit 11: the name is UTF-8. */
const FLAGS = 0x0808;
/** Version needed to extract: 2.0 (DEFLATE), 4.5 (ZIP64). */
const VERSAO = 20;
const VERSAO_ZIP64 = 45;
/** The ZIP64 extended information extra field's header id. */
const EXTRA_ZIP64 = 0x0001;

function dosDateTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

/** A ZIP64 extended information extra field holding these 8-byte values, in the order the spec lists them. */
function extraZip64(valores: number[]): Buffer {
  const b = Buffer.alloc(4 + 8 * valores.length);
  b.writeUInt16LE(EXTRA_ZIP64, 0);
  b.writeUInt16LE(8 * valores.length, 2);
  valores.forEach((v, i) => b.writeBigUInt64LE(BigInt(v), 4 + 8 * i));
  return b;
}

/**
 * The local file header of a new entry at `offset`; the entry's state starts empty. `zip64`: the entry
 * may pass 4 GiB (its sizes then go in 64-bit fields), or the caller forces ZIP64 (tests).
 */
export function abrirEntrada(nome: string, offset: number, agora: Date, opcoes: { zip64?: boolean } = {}): { bytes: Buffer; entrada: EntradaZip } {
  const zip64 = opcoes.zip64 === true;
  const name = Buffer.from(nome, 'utf8');
  const extra = zip64 ? extraZip64([0, 0]) : Buffer.alloc(0);
  const { time, date } = dosDateTime(agora);
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(zip64 ? VERSAO_ZIP64 : VERSAO, 4);
  h.writeUInt16LE(FLAGS, 6);
  h.writeUInt16LE(8, 8);
  h.writeUInt16LE(time, 10);
  h.writeUInt16LE(date, 12);
  // CRC 0 and sizes 0 here: they follow the data (bit 3); a ZIP64 entry's 32-bit sizes point to its extra field.
  if (zip64) {
    h.writeUInt32LE(LIMITE, 18);
    h.writeUInt32LE(LIMITE, 22);
  }
  h.writeUInt16LE(name.length, 26);
  h.writeUInt16LE(extra.length, 28);
  return { bytes: Buffer.concat([h, name, extra]), entrada: { nome, offset, crc: 0, comprimido: 0, tamanho: 0, ...(zip64 ? { zip64 } : {}) } };
}

/** A piece of the entry's data: its compressed bytes; the entry's CRC and sizes move forward. */
export function escreverNaEntrada(entrada: EntradaZip, texto: string): Buffer {
  if (texto.length === 0) return Buffer.alloc(0);
  const bytes = Buffer.from(texto, 'utf8');
  const comprimido = deflateRawSync(bytes, { level: 6, finishFlush: constants.Z_SYNC_FLUSH });
  entrada.crc = crc32(bytes, entrada.crc);
  entrada.tamanho += bytes.length;
  entrada.comprimido += comprimido.length;
  // Refused rather than written with sizes its descriptor cannot hold (the caller opens such an entry as ZIP64).
  if (!entrada.zip64 && (entrada.tamanho >= LIMITE || entrada.comprimido >= LIMITE)) throw new Error(`zip entry ${entrada.nome} is past 4 GiB and was not opened as ZIP64`);
  return comprimido;
}

/** An empty final DEFLATE block: every entry's data ends with it (made once: a zlib stream costs its setup). */
const BLOCO_FINAL = deflateRawSync(Buffer.alloc(0), { finishFlush: constants.Z_FINISH });

/** The end of the entry's data (an empty final block) and its data descriptor (8-byte sizes for ZIP64). */
export function fecharEntrada(entrada: EntradaZip): Buffer {
  const fim = BLOCO_FINAL;
  entrada.comprimido += fim.length;
  if (!entrada.zip64 && entrada.comprimido >= LIMITE) throw new Error(`zip entry ${entrada.nome} is past 4 GiB and was not opened as ZIP64`);
  const d = Buffer.alloc(entrada.zip64 ? 24 : 16);
  d.writeUInt32LE(0x08074b50, 0);
  d.writeUInt32LE(entrada.crc >>> 0, 4);
  if (entrada.zip64) {
    d.writeBigUInt64LE(BigInt(entrada.comprimido), 8);
    d.writeBigUInt64LE(BigInt(entrada.tamanho), 16);
  } else {
    d.writeUInt32LE(entrada.comprimido, 8);
    d.writeUInt32LE(entrada.tamanho, 12);
  }
  return Buffer.concat([fim, d]);
}

/** Bytes an entry takes from its local header to its data descriptor, included. */
export function tamanhoDaEntrada(e: EntradaZip): number {
  return 30 + Buffer.byteLength(e.nome, 'utf8') + (e.zip64 ? 20 : 0) + e.comprimido + (e.zip64 ? 24 : 16);
}

/**
 * The central directory and its end record, for the entries written from offset 0 to `offset`. An
 * entry's record is ZIP64 (its sizes and offset in the extra field) when it was opened so or its offset
 * is past 4 GiB; the end is ZIP64 when the count, the directory's size or its offset need it, or `zip64`.
 */
export function diretorioCentral(entradas: readonly EntradaZip[], offset: number, agora: Date, opcoes: { zip64?: boolean } = {}): Buffer {
  const { time, date } = dosDateTime(agora);
  const registros = entradas.map((e) => {
    const name = Buffer.from(e.nome, 'utf8');
    const zip64 = e.zip64 === true || e.offset >= LIMITE || e.tamanho >= LIMITE || e.comprimido >= LIMITE;
    // Uncompressed size, compressed size, local header offset: the order of APPNOTE 4.5.3.
    const extra = zip64 ? extraZip64([e.tamanho, e.comprimido, e.offset]) : Buffer.alloc(0);
    const r = Buffer.alloc(46);
    r.writeUInt32LE(0x02014b50, 0);
    // Made by: MS-DOS attributes (upper byte 0), the version of the spec the archive follows.
    r.writeUInt16LE(zip64 ? VERSAO_ZIP64 : VERSAO, 4);
    r.writeUInt16LE(zip64 ? VERSAO_ZIP64 : VERSAO, 6);
    r.writeUInt16LE(FLAGS, 8);
    r.writeUInt16LE(8, 10);
    r.writeUInt16LE(time, 12);
    r.writeUInt16LE(date, 14);
    r.writeUInt32LE(e.crc >>> 0, 16);
    r.writeUInt32LE(zip64 ? LIMITE : e.comprimido, 20);
    r.writeUInt32LE(zip64 ? LIMITE : e.tamanho, 24);
    r.writeUInt16LE(name.length, 28);
    r.writeUInt16LE(extra.length, 30);
    r.writeUInt32LE(zip64 ? LIMITE : e.offset, 42);
    return Buffer.concat([r, name, extra]);
  });
  const central = Buffer.concat(registros);
  const partes: Buffer[] = [central];
  const zip64 = opcoes.zip64 === true || entradas.length >= LIMITE_16 || central.length >= LIMITE || offset >= LIMITE;
  if (zip64) {
    // The zip64 end of central directory record (4.3.14), at offset + the directory's size.
    const r = Buffer.alloc(56);
    r.writeUInt32LE(0x06064b50, 0);
    r.writeBigUInt64LE(44n, 4);
    r.writeUInt16LE(VERSAO_ZIP64, 12);
    r.writeUInt16LE(VERSAO_ZIP64, 14);
    // This disk and the directory's disk: 0 (one file).
    r.writeBigUInt64LE(BigInt(entradas.length), 24);
    r.writeBigUInt64LE(BigInt(entradas.length), 32);
    r.writeBigUInt64LE(BigInt(central.length), 40);
    r.writeBigUInt64LE(BigInt(offset), 48);
    // Its locator (4.3.15): where the record is, on disk 0 of 1.
    const l = Buffer.alloc(20);
    l.writeUInt32LE(0x07064b50, 0);
    l.writeBigUInt64LE(BigInt(offset + central.length), 8);
    l.writeUInt32LE(1, 16);
    partes.push(r, l);
  }
  const fim = Buffer.alloc(22);
  fim.writeUInt32LE(0x06054b50, 0);
  // With the zip64 record, the classic fields say "see there" (-1), as readers expect of a ZIP64 end.
  fim.writeUInt16LE(zip64 ? LIMITE_16 : entradas.length, 8);
  fim.writeUInt16LE(zip64 ? LIMITE_16 : entradas.length, 10);
  fim.writeUInt32LE(zip64 ? LIMITE : central.length, 12);
  fim.writeUInt32LE(zip64 ? LIMITE : offset, 16);
  partes.push(fim);
  return Buffer.concat(partes);
}
