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
 * No ZIP64: an entry or the archive past 4 GiB is refused (a client-month's CSV is below 1 GB).
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
}

const LIMITE = 0xffffffff;
/** Bit 3: sizes and CRC in the data descriptor; bit 11: the name is UTF-8. */
const FLAGS = 0x0808;

function dosDateTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

/** The local file header of a new entry at `offset`; the entry's state starts empty. */
export function abrirEntrada(nome: string, offset: number, agora: Date): { bytes: Buffer; entrada: EntradaZip } {
  const name = Buffer.from(nome, 'utf8');
  const { time, date } = dosDateTime(agora);
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(FLAGS, 6);
  h.writeUInt16LE(8, 8);
  h.writeUInt16LE(time, 10);
  h.writeUInt16LE(date, 12);
  // CRC and sizes 0 here: they follow the data (bit 3).
  h.writeUInt16LE(name.length, 26);
  return { bytes: Buffer.concat([h, name]), entrada: { nome, offset, crc: 0, comprimido: 0, tamanho: 0 } };
}

/** A piece of the entry's data: its compressed bytes; the entry's CRC and sizes move forward. */
export function escreverNaEntrada(entrada: EntradaZip, texto: string): Buffer {
  if (texto.length === 0) return Buffer.alloc(0);
  const bytes = Buffer.from(texto, 'utf8');
  const comprimido = deflateRawSync(bytes, { level: 6, finishFlush: constants.Z_SYNC_FLUSH });
  entrada.crc = crc32(bytes, entrada.crc);
  entrada.tamanho += bytes.length;
  entrada.comprimido += comprimido.length;
  if (entrada.tamanho > LIMITE || entrada.comprimido > LIMITE) throw new Error(`zip entry ${entrada.nome} is past 4 GiB`);
  return comprimido;
}

/** The end of the entry's data (an empty final block) and its data descriptor. */
export function fecharEntrada(entrada: EntradaZip): Buffer {
  const fim = deflateRawSync(Buffer.alloc(0), { finishFlush: constants.Z_FINISH });
  entrada.comprimido += fim.length;
  const d = Buffer.alloc(16);
  d.writeUInt32LE(0x08074b50, 0);
  d.writeUInt32LE(entrada.crc >>> 0, 4);
  d.writeUInt32LE(entrada.comprimido, 8);
  d.writeUInt32LE(entrada.tamanho, 12);
  return Buffer.concat([fim, d]);
}

/** Bytes an entry takes from its local header to its data descriptor, included. */
export function tamanhoDaEntrada(e: EntradaZip): number {
  return 30 + Buffer.byteLength(e.nome, 'utf8') + e.comprimido + 16;
}

/** The central directory and its end record, for the entries written from offset 0 to `offset`. */
export function diretorioCentral(entradas: readonly EntradaZip[], offset: number, agora: Date): Buffer {
  const { time, date } = dosDateTime(agora);
  const registros = entradas.map((e) => {
    const name = Buffer.from(e.nome, 'utf8');
    const r = Buffer.alloc(46);
    r.writeUInt32LE(0x02014b50, 0);
    r.writeUInt16LE(20, 4);
    r.writeUInt16LE(20, 6);
    r.writeUInt16LE(FLAGS, 8);
    r.writeUInt16LE(8, 10);
    r.writeUInt16LE(time, 12);
    r.writeUInt16LE(date, 14);
    r.writeUInt32LE(e.crc >>> 0, 16);
    r.writeUInt32LE(e.comprimido, 20);
    r.writeUInt32LE(e.tamanho, 24);
    r.writeUInt16LE(name.length, 28);
    r.writeUInt32LE(e.offset, 42);
    return Buffer.concat([r, name]);
  });
  const central = Buffer.concat(registros);
  if (offset + central.length > LIMITE) throw new Error('zip archive is past 4 GiB');
  const fim = Buffer.alloc(22);
  fim.writeUInt32LE(0x06054b50, 0);
  fim.writeUInt16LE(entradas.length, 8);
  fim.writeUInt16LE(entradas.length, 10);
  fim.writeUInt32LE(central.length, 12);
  fim.writeUInt32LE(offset, 16);
  return Buffer.concat([central, fim]);
}
