import { randomInt } from 'node:crypto';
import { PutCommand } from '../../functions/platform/aws-direto/dynamodb';
import { cnpjCheckDigits } from '@plac/shared/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownTable } from '../../tests/setup/own-table';
import { dynamoDb } from '../../functions/platform/aws';
import { config } from '../../functions/platform/env';
import { contagemDoEmitente } from '../../functions/fate/emitentes-store';
import { fatePorChave, fatesPorEmissaoPagina } from '../../functions/fate/fate-store';
import { fateService } from '../../functions/fate/store-entities';
import { migrar } from './contagem-fate';

const novoCnpj = () => {
  const first12 = `${String(randomInt(10_000_000, 99_999_999))}0001`;
  return `${first12}${cnpjCheckDigits(first12)}`;
};


// The migration scans the whole table: on one of this file's own, it reads only what the test writes.
beforeAll(() => ownTable());

describe('the counters migration', () => {
  it('takes a Fat-e written before the counters out of the indexes, counts and links it once, and can run again', { timeout: 300_000 }, async () => {
    const emitente = novoCnpj();
    const transportador = novoCnpj();
    const chave = `2926${emitente.slice(0, 2)}${emitente}55001000000${randomInt(100, 999)}1000000010`.slice(0, 44);
    const agora = new Date().toISOString();
    const fate = {
      chave, status: 'ATIVA' as const, uf: 'BA', nsu: '000000000000001', modelo: '55', serie: '1', numero: '1', emissao: '2026-03-10T13:00:00.000Z',
      emitenteCnpj: emitente, emitenteNome: 'EMITENTE ANTIGO', emitenteUf: 'BA', destinatarioDoc: novoCnpj(), destinatarioTipo: 'CNPJ' as const, destinatarioNome: 'D',
      valorNota: 12345, transportadorDoc: transportador, transportadorNome: 'T', valorOriginal: 12345, desconto: 0, valorLiquido: 12345,
      duplicatas: [{ numero: '001', vencimento: '2026-04-10', valor: 12345 }], xmlKey: 'sefaz/BA/000000000000001.xml.gz', createdAt: agora, updatedAt: agora,
    };
    // As the store wrote it before: keys of its own plus issuer (gsi1) and carrier (gsi2) index entries.
    const { Item } = fateService().entities.fate.create(fate).params() as { Item: Record<string, unknown> };
    await dynamoDb().send(
      new PutCommand({
        TableName: config.tableName,
        Item: { ...Item, gsi1pk: `$fate#emitentecnpj_${emitente}`, gsi1sk: `$fate_1#emissao_x`, gsi2pk: `$fate#transportadordoc_${transportador}`, gsi2sk: 'x' },
      }),
    );

    expect(await migrar(2)).toBeGreaterThanOrEqual(1);
    await migrar(2);
    const depois = await fatePorChave(chave);
    expect(depois).toMatchObject({ contagem: 'ATIVA', expiresAt: expect.any(Number) });
    expect(depois).not.toHaveProperty('gsi1pk');
    expect((await contagemDoEmitente(emitente, '55', '2026-03-01', '2026-03-31')).meses).toEqual([{ mes: '2026-03', quantidade: 1, valor: 12345 }]);
    const pagina = await fatesPorEmissaoPagina({ transportadorDoc: transportador }, '2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z', 10, null);
    expect(pagina.fates.map((f) => f.chave)).toEqual([chave]);
  });
});
