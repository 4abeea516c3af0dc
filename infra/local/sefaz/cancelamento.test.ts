import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildChaveAcesso } from '@plac/shared/domain';
import { describe, expect, it } from 'vitest';
import { parseDocumento } from '../../../functions/fate/parse';
import { cancelamentoXml, cancelarPelaPastaDeEntrada } from './cancelamento';

const chave = buildChaveAcesso({ cUF: 25, aamm: '2611', cnpj: '11222333000181', mod: '55', serie: 1, nNF: 9, cNF: 12345678 });

describe('cancelling through the drop folder', () => {
  it('writes a cancellation the loader reads as the key’s 110111 event', () => {
    const em = new Date('2026-11-23T15:00:00Z');
    expect(parseDocumento({ schema: 'procEventoNFe_v1.00.xsd', xml: cancelamentoXml(chave, { em, justificativa: 'Teste de cancelamento' }) })).toMatchObject({
      kind: 'cancelamento',
      chave,
      tpEvento: '110111',
      justificativa: 'Teste de cancelamento',
      data: '2026-11-23T15:00:00.000Z',
    });
  });

  it('puts it in the inbox of the key’s UF', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'plac-drop-'));
    try {
      const file = await cancelarPelaPastaDeEntrada(dir, chave);
      expect(file.startsWith(join(dir, 'sefaz', 'PB', 'inbox'))).toBe(true);
      expect(await readFile(file, 'utf8')).toContain(`<chNFe>${chave}</chNFe>`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses what is not an access key', () => {
    expect(() => cancelamentoXml('123')).toThrow(RangeError);
  });
});
