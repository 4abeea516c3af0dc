import { randomInt } from 'node:crypto';
import { cnpjCheckDigits } from '@plac/shared/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownTable } from '../../tests/setup/own-table';
import { chave as chaveDe } from '../../functions/fate/fixtures/builder';
import { fatesPorChaveComposta } from '../../functions/fate/service';
import { duplicatasSemNumero } from '../../functions/fate/fate-store';
import * as entities from '../../functions/fate/store-entities';
import { QueryCommand } from '../../functions/platform/aws-direto/dynamodb';
import { dynamoDb } from '../../functions/platform/aws';
import { migrar } from './duplicatas-chave';

/**
 * The instalment look-up's migration (issue 38) against DynamoDB Local: instalment items written in
 * either gsi2 form of before (the recipient's due dates; then the look-up's composites, in an index
 * that copies whole items) are found by the look-up without number beside one written in the new form
 * (gsi3, keys only), before it runs; it moves exactly the old ones; afterwards the same look-ups answer
 * the same, now from gsi3 alone (gsi2 holds none of them), the items otherwise unchanged; a second run
 * moves nothing.
 */

// The migration scans gsi2 whole: on a table of this file's own, it reads only what the test writes.
beforeAll(() => ownTable());

const cnpj = (base8: string, filial: number) => {
  const first12 = `${base8}${String(filial).padStart(4, '0')}`;
  return `${first12}${cnpjCheckDigits(first12)}`;
};

describe('the instalment look-up migration', () => {
  it('finds the instalments of before beside the new ones, moves them from gsi2 to gsi3, and can run again', { timeout: 120_000 }, async () => {
    const base = String(randomInt(10_000_000, 99_999_999));
    const emitente = cnpj(base, 1);
    const outroEmitente = cnpj(base, 2);
    const destinatario = cnpj(base, 3);
    const dia = `${2040 + randomInt(0, 40)}-0${randomInt(1, 10)}-1${randomInt(0, 9)}`;
    const diaSeguinte = `${dia.slice(0, 9)}${Number(dia.slice(9)) + 1}`;
    const agora = new Date().toISOString();
    const chaves = Array.from({ length: 7 }, (_, i) => chaveDe('29', '2608', emitente, '55', 1, 1000 + i));
    const parcela = (i: number, o: { emitenteCnpj?: string; vencimento?: string; valor?: number; numero?: string } = {}): entities.FateDuplicataRecord => ({
      emitenteCnpj: o.emitenteCnpj ?? emitente,
      destinatarioDoc: destinatario,
      vencimento: o.vencimento ?? dia,
      valor: o.valor ?? 100_000,
      numero: o.numero ?? '001',
      chave: chaves[i]!,
      status: 'ATIVA',
      uf: 'BA',
      createdAt: agora,
      updatedAt: agora,
    });
    // As the store wrote them before issue 38: two Fat-e sharing issuer, recipient, day and value (numbers
    // 001 and 002), and three that must not answer: another issuer, another value, another day.
    const antigas = [
      parcela(0),
      parcela(1, { numero: '002' }),
      parcela(2, { emitenteCnpj: outroEmitente }),
      parcela(3, { valor: 10_000 }),
      parcela(4, { vencimento: diaSeguinte }),
    ];
    for (const d of antigas) await entities.fateLegado().entities.fateDuplicataLegado.put(d).go();
    // As the store wrote them between issue 38's two forms: gsi2 with the look-up's composites.
    const intermediaria = parcela(6, { numero: '003' });
    await entities.fateLegado().entities.fateDuplicataGsi2.put(intermediaria).go();
    // Written since the deploy, in the new form.
    const nova = parcela(5);
    await entities.fateService().entities.fateDuplicata.put(nova).go();
    // Their Fat-e (the service answers the Fat-e of the instalments found).
    for (const [i, c] of chaves.entries()) {
      await entities
        .fateService()
        .entities.fate.put({
          chave: c, status: 'ATIVA', uf: 'BA', nsu: String(i + 1), modelo: '55', serie: '1', numero: String(1000 + i), emissao: agora, emitenteCnpj: emitente, emitenteNome: 'EMITENTE',
          emitenteUf: 'BA', destinatarioDoc: destinatario, destinatarioTipo: 'CNPJ', destinatarioNome: 'DESTINATARIO', valorNota: 100_000, valorOriginal: 100_000, desconto: 0,
          valorLiquido: 100_000, duplicatas: [], xmlKey: `x/${i}.xml.gz`, createdAt: agora, updatedAt: agora,
        })
        .go();
    }

    const chaveComposta = { emitenteCnpj: emitente, destinatarioDoc: destinatario, vencimento: dia, valor: 100_000 };
    const esperadas = [antigas[0]!, antigas[1]!, nova, intermediaria].sort((a, b) => a.chave.localeCompare(b.chave)).map(({ chave, numero }) => ({ chave, numero }));
    const leituras = async () => ({
      semNumero: await duplicatasSemNumero(chaveComposta),
      fates: (await fatesPorChaveComposta(chaveComposta)).map((f) => f.chave),
      comNumero: (await fatesPorChaveComposta({ ...chaveComposta, numero: '2' })).map((f) => f.chave),
      outroValor: (await duplicatasSemNumero({ ...chaveComposta, valor: 10_000 })).map((d) => d.chave),
      outroDia: (await duplicatasSemNumero({ ...chaveComposta, vencimento: diaSeguinte })).map((d) => d.chave),
      outroEmitente: (await duplicatasSemNumero({ ...chaveComposta, emitenteCnpj: outroEmitente })).map((d) => d.chave),
    });
    const antes = await leituras();
    // Before: the old forms (read by the legacy paths) and the new one together, each item once.
    expect(antes.semNumero).toEqual(esperadas);
    expect(antes.fates).toEqual(esperadas.map((d) => d.chave));
    expect(antes.comNumero).toEqual([chaves[1]]);
    expect(antes).toMatchObject({ outroValor: [chaves[3]], outroDia: [chaves[4]], outroEmitente: [chaves[2]] });
    // gsi3 alone does not see the items of before yet.
    const noGsi3 = async (c: typeof chaveComposta) => (await dynamoDb().send(new QueryCommand(entities.fateService().entities.fateDuplicata.query.bySemNumero(c).params() as never))).Items ?? [];
    expect((await noGsi3(chaveComposta)).map((i) => i.gsi3sk)).toEqual([expect.stringMatching(new RegExp(`#chave_${nova.chave}$`))]);

    // Exactly the six items of before, a page at a time (1 MB pages of 2 segments), and nothing the second time.
    expect(await migrar(2)).toBe(6);
    expect(await migrar(2)).toBe(0);

    expect(await leituras()).toEqual(antes);
    // After: gsi3 finds them all, holding their keys only; gsi2 holds none of them.
    const depois = await noGsi3(chaveComposta);
    expect(depois.map((i) => String(i.gsi3sk).split('#chave_')[1]).sort()).toEqual(esperadas.map((d) => d.chave).sort());
    expect(Object.keys(depois[0]!).sort()).toEqual(['gsi3pk', 'gsi3sk', 'pk', 'sk']);
    expect((await noGsi3({ ...chaveComposta, valor: 10_000 })).length).toBe(1);
    expect((await entities.fateLegado().entities.fateDuplicataLegado.query.porGsi2({ destinatarioDoc: destinatario }).go()).data).toEqual([]);
    expect((await entities.fateLegado().entities.fateDuplicataGsi2.query.porGsi2(chaveComposta).go()).data).toEqual([]);
    // Only the index keys changed: each item read by its table key is as written.
    for (const d of [...antigas, intermediaria, nova]) {
      const { emitenteCnpj, destinatarioDoc, vencimento, valor, numero, chave } = d;
      expect((await entities.fateService().entities.fateDuplicata.get({ emitenteCnpj, destinatarioDoc, vencimento, valor, numero, chave }).go()).data).toEqual(d);
    }
  });
});
