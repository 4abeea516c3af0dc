import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildChaveAcesso } from '@plac/shared/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { nfeXml, PROTOCOLO_FIXTURE } from '../../../functions/fate/fixtures/builder';
import { parseDocumento } from '../../../functions/fate/parse';
import { cancelamentoXml, cancelarPelaPastaDeEntrada } from './cancelamento';

const chave = buildChaveAcesso({ cUF: 25, aamm: '2611', cnpj: '11222333000181', mod: '55', serie: 1, nNF: 9, cNF: 12345678 });

describe('cancelling through the drop folder', () => {
  // The simulator's events are tpAmb 2: the twin is a homologação stage.
  beforeEach(() => vi.stubEnv('PLAC_SEFAZ_TPAMB', '2'));
  afterEach(() => vi.unstubAllEnvs());

  it('writes a cancellation the loader reads as the key’s 110111 event', () => {
    const em = new Date('2026-11-23T15:00:00Z');
    expect(parseDocumento({ schema: 'procEventoNFe_v1.00.xsd', xml: cancelamentoXml(chave, { em, justificativa: 'Teste de cancelamento' }) })).toMatchObject({
      kind: 'cancelamento',
      chave,
      tpEvento: '110111',
      justificativa: 'Teste de cancelamento',
      // The registration instant (retEvento dhRegEvento), two seconds after the event in the simulator.
      data: '2026-11-23T15:00:02.000Z',
    });
  });

  it('puts it in the inbox of the key’s UF', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'plac-drop-'));
    try {
      const file = await cancelarPelaPastaDeEntrada(dir, chave, { protocoloNfe: '125260000000009' });
      expect(file.startsWith(join(dir, 'sefaz', 'PB', 'inbox'))).toBe(true);
      expect(await readFile(file, 'utf8')).toContain(`<chNFe>${chave}</chNFe>`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names the protocol of the NF-e dropped earlier, and refuses a key it has no NF-e for', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'plac-drop-'));
    try {
      const nfe = nfeXml({ cUF: '25', numero: 77, emitente: '11222333000181' });
      await mkdir(join(dir, 'sefaz', 'PB', 'served'), { recursive: true });
      await writeFile(join(dir, 'sefaz', 'PB', 'served', `000000000000012-nota.xml`), nfe.xml);
      const file = await cancelarPelaPastaDeEntrada(dir, nfe.chave);
      expect(parseDocumento({ schema: 'procEventoNFe_v1.00.xsd', xml: await readFile(file, 'utf8') })).toMatchObject({ protocoloDocumento: PROTOCOLO_FIXTURE });
      await expect(cancelarPelaPastaDeEntrada(dir, chave)).rejects.toThrow(/pass protocoloNfe/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses what is not an access key', () => {
    expect(() => cancelamentoXml('123')).toThrow(RangeError);
  });
});
