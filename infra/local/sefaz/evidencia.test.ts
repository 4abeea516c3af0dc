import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { nfeXml, CNPJ_DESTINATARIO } from '../../../functions/fate/fixtures/builder';
import { parseDocumento } from '../../../functions/fate/parse';
import { rootElementName } from './simulator';
import { devolucaoPelaPastaDeEntrada, eventoPelaPastaDeEntrada } from './evidencia';

/** Every kind of evidence the drop folder accepts is a document the loader reads as that evidence of the key. */

const dir = await mkdtemp(join(tmpdir(), 'plac-evidencia-'));
afterAll(() => rm(dir, { recursive: true, force: true }));
const chave = nfeXml({ cUF: '29', numero: 31 }).chave;
const ler = async (file: string) => ({ schema: rootElementName(await readFile(file, 'utf8')) === 'nfeProc' ? 'procNFe_v4.00.xsd' : 'procEventoNFe_v1.00.xsd', xml: await readFile(file, 'utf8') });

describe('the drop folder’s evidence', () => {
  vi.stubEnv('PLAC_SEFAZ_TPAMB', '2');

  it('writes each event type into the key’s UF inbox, as the loader reads it', async () => {
    const casos = [
      { tpEvento: '210200', cnpjAutor: CNPJ_DESTINATARIO },
      { tpEvento: '210210', cnpjAutor: CNPJ_DESTINATARIO },
      { tpEvento: '210220', cnpjAutor: CNPJ_DESTINATARIO },
      { tpEvento: '210240', cnpjAutor: CNPJ_DESTINATARIO, justificativa: 'Pedido desfeito pelo comprador' },
      { tpEvento: '110130', recebedor: { documento: '52998224725', nome: 'JOSE' } },
      { tpEvento: '110131', protocoloEntrega: '829000000000001' },
      { tpEvento: '110110', correcao: 'Complemento do endereco' },
    ] as const;
    for (const caso of casos) {
      const file = await eventoPelaPastaDeEntrada(dir, chave, caso);
      expect(file).toContain(join('sefaz', 'BA', 'inbox'));
      expect(parseDocumento(await ler(file))).toMatchObject({ kind: 'evento', chave, tpEvento: caso.tpEvento, orgao: caso.tpEvento === '110110' ? '29' : '91' });
    }
    expect((await readdir(join(dir, 'sefaz', 'BA', 'inbox'))).length).toBe(casos.length);
  });

  it('refuses a manifestation without its author, and writes a return naming the key', async () => {
    await expect(eventoPelaPastaDeEntrada(dir, chave, { tpEvento: '210220' })).rejects.toThrow(/cnpjAutor/);
    const { file, chave: propria } = await devolucaoPelaPastaDeEntrada(dir, chave, { valor: 12_345, cnpjEmitente: CNPJ_DESTINATARIO });
    expect(parseDocumento(await ler(file))).toMatchObject({ kind: 'vinculo', chave: propria, valor: 12_345, vinculos: { tipo: 'DEVOLUCAO', chaves: [chave] } });
  });
});
