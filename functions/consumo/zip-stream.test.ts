import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { abrirEntrada, diretorioCentral, escreverNaEntrada, fecharEntrada, tamanhoDaEntrada, type EntradaZip } from './zip-stream';

/** Writes entries piece by piece as the report job does, across "steps" that keep only the numbers. `zip64`: forced on every entry and the end. */
function zipEmPedacos(entradas: { nome: string; pedacos: string[] }[], zip64 = false): Buffer {
  const agora = new Date('2026-11-05T12:00:00Z');
  const saida: Buffer[] = [];
  let offset = 0;
  const escrever = (b: Buffer) => {
    saida.push(b);
    offset += b.length;
  };
  const feitas = [];
  for (const e of entradas) {
    const aberta = abrirEntrada(e.nome, offset, agora, { zip64 });
    escrever(aberta.bytes);
    // The entry's state goes through JSON between pieces, as it goes through the job's item between steps.
    let estado = aberta.entrada;
    for (const pedaco of e.pedacos) {
      estado = JSON.parse(JSON.stringify(estado)) as typeof estado;
      escrever(escreverNaEntrada(estado, pedaco));
    }
    escrever(fecharEntrada(estado));
    expect(tamanhoDaEntrada(estado)).toBe(offset - estado.offset);
    feitas.push(estado);
  }
  escrever(diretorioCentral(feitas, offset, agora, { zip64 }));
  return Buffer.concat(saida);
}

/** Runs a command-line reader; null when it is not installed on this machine. */
function ferramenta(comando: string, args: string[]): Buffer | null {
  try {
    return execFileSync(comando, args, { maxBuffer: 256 * 1024 * 1024 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function emArquivo(zip: Buffer): string {
  const arquivo = join(mkdtempSync(join(tmpdir(), 'zip-stream-')), 'a.zip');
  writeFileSync(arquivo, zip);
  return arquivo;
}

/** Python's zipfile, as a second reader: each entry's name and bytes (hex), and its ZIP64 view of the end. */
const LER_EM_PYTHON = `
import sys, zipfile, json
z = zipfile.ZipFile(sys.argv[1])
assert z.testzip() is None
print(json.dumps([[i.filename, z.read(i).hex(), i.file_size, i.compress_size, i.header_offset] for i in z.infolist()]))
`;

/** The archive's end, as a reader finds it: the classic end record and, if its locator is there, the zip64 one. */
function fimDoArquivo(zip: Buffer): { entradas: number; zip64?: { entradas: bigint; tamanho: bigint; offset: bigint } } {
  const fim = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const localizador = fim - 20;
  if (localizador < 0 || zip.readUInt32LE(localizador) !== 0x07064b50) return { entradas: zip.readUInt16LE(fim + 10) };
  const registro = Number(zip.readBigUInt64LE(localizador + 8));
  expect(zip.readUInt32LE(registro)).toBe(0x06064b50);
  return {
    entradas: zip.readUInt16LE(fim + 10),
    zip64: { entradas: zip.readBigUInt64LE(registro + 32), tamanho: zip.readBigUInt64LE(registro + 40), offset: zip.readBigUInt64LE(registro + 48) },
  };
}

describe('the streamed ZIP', () => {
  const grande = Array.from({ length: 3000 }, (_, i) => `linha ${i};ção;${'x'.repeat(i % 50)}\r\n`);
  const entradas = [
    { nome: '01-Consulta_Fat-e.csv', pedacos: ['\uFEFFcabeçalho\r\n', ...grande.slice(0, 1000), ...grande.slice(1000)] },
    { nome: '09-Envio_de_Fat-e.csv', pedacos: ['\uFEFFsó um pedaço', ''] },
  ];

  it('opens with fflate: each entry is the concatenation of its pieces, deflated piece by piece', () => {
    const zip = unzipSync(zipEmPedacos(entradas));
    expect(Object.keys(zip)).toEqual(['01-Consulta_Fat-e.csv', '09-Envio_de_Fat-e.csv']);
    for (const e of entradas) expect(Buffer.from(zip[e.nome]!).toString('utf8')).toBe(e.pedacos.join(''));
  });

  it('passes unzip -t (CRCs, sizes and offsets as any reader checks them)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zip-stream-'));
    writeFileSync(join(dir, 'a.zip'), zipEmPedacos(entradas));
    let saida: string;
    try {
      saida = execFileSync('unzip', ['-t', join(dir, 'a.zip')], { encoding: 'utf8' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // no unzip on this machine: fflate above reads it
      throw error;
    }
    expect(saida).toContain('No errors detected');
  });

  it('the normal path writes no ZIP64 structure (version 2.0, 4-byte descriptor, classic end only)', () => {
    const zip = zipEmPedacos(entradas);
    expect(zip.readUInt16LE(4)).toBe(20);
    expect(zip.readUInt16LE(28)).toBe(0);
    expect(fimDoArquivo(zip)).toEqual({ entradas: 2 });
    expect(zip.indexOf(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(-1);
  });
});

describe('the streamed ZIP with ZIP64', () => {
  const grande = Array.from({ length: 5000 }, (_, i) => `linha ${i};ção;${'y'.repeat(i % 70)}\r\n`);
  const entradas = [
    { nome: '01-Consulta_Fat-e.csv', pedacos: ['\uFEFFcabeçalho\r\n', ...grande.slice(0, 2000), ...grande.slice(2000)] },
    { nome: '09-Envio_de_Fat-e.csv', pedacos: ['\uFEFFsó um pedaço', ''] },
  ];

  it('forced: local headers with the ZIP64 extra field, 8-byte data descriptors, the zip64 end record and its locator', () => {
    const zip = zipEmPedacos(entradas, true);
    // The first local header: version 4.5, 32-bit sizes pointing to the extra field (0x0001, 16 bytes).
    expect(zip.readUInt16LE(4)).toBe(45);
    expect([zip.readUInt32LE(18), zip.readUInt32LE(22)]).toEqual([0xffffffff, 0xffffffff]);
    const nome = zip.readUInt16LE(26);
    expect(zip.readUInt16LE(28)).toBe(20);
    expect(zip.readUInt16LE(30 + nome)).toBe(0x0001);
    expect(zip.readUInt16LE(32 + nome)).toBe(16);
    const fim = fimDoArquivo(zip);
    expect(fim.entradas).toBe(0xffff);
    expect(fim.zip64?.entradas).toBe(2n);
    expect(Number(fim.zip64!.offset) + Number(fim.zip64!.tamanho)).toBe(zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x06, 0x06])));
  });

  it('forced: opens with fflate, unzip -t / unzip -p and python zipfile, every entry byte-identical', () => {
    const zip = zipEmPedacos(entradas, true);
    const esperado = Object.fromEntries(entradas.map((e) => [e.nome, Buffer.from(e.pedacos.join(''), 'utf8')]));
    const lido = unzipSync(zip);
    for (const e of entradas) expect(Buffer.from(lido[e.nome]!).equals(esperado[e.nome]!)).toBe(true);

    const arquivo = emArquivo(zip);
    const teste = ferramenta('unzip', ['-t', arquivo]);
    if (teste) {
      expect(teste.toString('utf8')).toContain('No errors detected');
      for (const e of entradas) expect(ferramenta('unzip', ['-p', arquivo, e.nome])!.equals(esperado[e.nome]!)).toBe(true);
    }
    const python = ferramenta('python3', ['-c', LER_EM_PYTHON, arquivo]);
    if (python) {
      const lidos = JSON.parse(python.toString('utf8')) as [string, string, number, number, number][];
      expect(lidos.map(([n]) => n)).toEqual(entradas.map((e) => e.nome));
      for (const [n, hex, tamanho] of lidos) {
        expect(Buffer.from(hex, 'hex').equals(esperado[n]!)).toBe(true);
        expect(tamanho).toBe(esperado[n]!.length);
      }
    }
    const modulo = ferramenta('python3', ['-m', 'zipfile', '-t', arquivo]);
    if (modulo) expect(modulo.toString('utf8')).toContain('Done testing');
  });

  it('past 65,534 entries the end is ZIP64 by itself, and ordinary readers list every entry', { timeout: 120_000 }, () => {
    const n = 70_000;
    const zip = zipEmPedacos(Array.from({ length: n }, (_, i) => ({ nome: `${i}.csv`, pedacos: [i % 1000 === 0 ? `linha ${i}` : ''] })));
    expect(fimDoArquivo(zip).zip64?.entradas).toBe(BigInt(n));
    expect(Object.keys(unzipSync(zip))).toHaveLength(n);
    const python = ferramenta('python3', ['-c', 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(len(z.infolist()), z.read("69000.csv").decode())', emArquivo(zip)]);
    if (python) expect(python.toString('utf8').trim()).toBe(`${n} linha 69000`);
  });

  it('a central record whose sizes or offset pass 4 GiB carries them in its extra field, without forcing', () => {
    const agora = new Date('2026-11-05T12:00:00Z');
    const e: EntradaZip[] = [
      { nome: 'pequena.csv', offset: 0, crc: 1, comprimido: 10, tamanho: 20 },
      { nome: 'longe.csv', offset: 5 * 2 ** 30, crc: 2, comprimido: 10, tamanho: 20 },
      { nome: 'grande.csv', offset: 6 * 2 ** 30, crc: 3, comprimido: 2 ** 32 + 7, tamanho: 9 * 2 ** 30, zip64: true },
    ];
    const cd = diretorioCentral(e, 20 * 2 ** 30, agora);
    const registros: { versao: number; tamanhos: number[]; extra: bigint[] }[] = [];
    for (let at = 0; cd.readUInt32LE(at) === 0x02014b50; ) {
      const nome = cd.readUInt16LE(at + 28);
      const extra = cd.readUInt16LE(at + 30);
      const valores = Array.from({ length: extra > 0 ? (extra - 4) / 8 : 0 }, (_, i) => cd.readBigUInt64LE(at + 46 + nome + 4 + 8 * i));
      registros.push({ versao: cd.readUInt16LE(at + 6), tamanhos: [cd.readUInt32LE(at + 20), cd.readUInt32LE(at + 24), cd.readUInt32LE(at + 42)], extra: valores });
      at += 46 + nome + extra;
    }
    expect(registros).toEqual([
      { versao: 20, tamanhos: [10, 20, 0], extra: [] },
      { versao: 45, tamanhos: [0xffffffff, 0xffffffff, 0xffffffff], extra: [20n, 10n, BigInt(5 * 2 ** 30)] },
      { versao: 45, tamanhos: [0xffffffff, 0xffffffff, 0xffffffff], extra: [BigInt(9 * 2 ** 30), BigInt(2 ** 32 + 7), BigInt(6 * 2 ** 30)] },
    ]);
    // The directory starts past 4 GiB: the zip64 end, with its real offset.
    const locator = cd.lastIndexOf(Buffer.from([0x50, 0x4b, 0x06, 0x07]));
    expect(locator).toBeGreaterThan(0);
    expect(cd.readBigUInt64LE(locator + 8)).toBe(BigInt(20 * 2 ** 30 + cd.indexOf(Buffer.from([0x50, 0x4b, 0x06, 0x06]))));
  });

  it('an entry not opened as ZIP64 that reaches 4 GiB is refused, never written with sizes that wrap; a ZIP64 one goes on', () => {
    const { entrada } = abrirEntrada('a.csv', 0, new Date());
    entrada.tamanho = 0xffffffff - 3;
    expect(() => escreverNaEntrada(entrada, 'abcd')).toThrow(/past 4 GiB/);
    const grande = abrirEntrada('b.csv', 0, new Date(), { zip64: true }).entrada;
    grande.tamanho = 0xffffffff - 3;
    escreverNaEntrada(grande, 'abcdefgh');
    const descritor = fecharEntrada(grande).subarray(-24);
    expect(descritor.readUInt32LE(0)).toBe(0x08074b50);
    expect(descritor.readBigUInt64LE(16)).toBe(BigInt(0xffffffff + 5));
  });
});
