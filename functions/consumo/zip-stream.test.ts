import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { abrirEntrada, diretorioCentral, escreverNaEntrada, fecharEntrada, tamanhoDaEntrada } from './zip-stream';

/** Writes entries piece by piece as the report job does, across "steps" that keep only the numbers. */
function zipEmPedacos(entradas: { nome: string; pedacos: string[] }[]): Buffer {
  const agora = new Date('2026-11-05T12:00:00Z');
  const saida: Buffer[] = [];
  let offset = 0;
  const escrever = (b: Buffer) => {
    saida.push(b);
    offset += b.length;
  };
  const feitas = [];
  for (const e of entradas) {
    const aberta = abrirEntrada(e.nome, offset, agora);
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
  escrever(diretorioCentral(feitas, offset, agora));
  return Buffer.concat(saida);
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
});
