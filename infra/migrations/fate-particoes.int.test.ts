import { randomInt } from 'node:crypto';
import { cnpjCheckDigits } from '@plac/shared/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownTable } from '../../tests/setup/own-table';
import { shardDe } from '../../functions/fate/contagem-entities';
import { documentosErroNoPeriodo } from '../../functions/fate/documentos-erro-store';
import { contagemDoEmitente } from '../../functions/fate/emitentes-store';
import * as entities from '../../functions/fate/store-entities';
import { totalTransporte, transportadoresPagina, transportadorPorDocumento } from '../../functions/fate/transportadores-store';
import { migrar } from './fate-particoes';

const cnpj = (base8: string, filial: number) => {
  const first12 = `${base8}${String(filial).padStart(4, '0')}`;
  return `${first12}${cnpjCheckDigits(first12)}`;
};


// The migration scans the whole table: on one of this file's own, it reads only what the test writes.
beforeAll(() => ownTable());

describe("issue 36's migration of the Fat-e keys", () => {
  // The migration scans the whole table, and the twin's table is shared by every test file: minutes on a busy machine.
  it('moves every item keyed the old way into its shard, the totals, lists and look-ups unchanged, and can run again', { timeout: 300_000 }, async () => {
    const legado = entities.fateLegado().entities;
    const e = entities.fateService().entities;
    const base = String(randomInt(10_000_000, 99_999_999));
    const emitente = cnpj(base, 1);
    const mes = `${2040 + randomInt(0, 40)}-0${randomInt(1, 10)}`;

    // As the store wrote them before issue 36.
    await legado.contagemEmitenteLegado.put({ emitenteCnpj: emitente, modelo: '55', periodo: `M${mes}`, quantidade: 5, valor: 500, emitenteNome: 'EMITENTE ANTIGO', uf: 'BA' }).go();
    await legado.contagemEmitenteLegado.put({ emitenteCnpj: emitente, modelo: '55', periodo: `D${mes}-10`, quantidade: 5, valor: 500, emitenteNome: 'EMITENTE ANTIGO', uf: 'BA' }).go();
    // The same period already counted in shard 0 since the deploy: the old count is added to it.
    await e.contagemEmitente.upsert({ emitenteCnpj: emitente, modelo: '55', shard: 0, periodo: `M${mes}`, emitenteNome: 'EMITENTE NOVO', uf: 'BA' }).add({ quantidade: 2, valor: 200 }).go();
    await legado.contagemTransporteLegado.put({ mes, shard: 3, quantidade: 7 }).go();
    await legado.contagemTransporteLegado.put({ mes, shard: 11, quantidade: 4 }).go();
    const transportadores = [cnpj(base, 2), cnpj(base, 3)];
    for (const [i, documento] of transportadores.entries()) await legado.transportadorLegado.put({ documento, nome: `ZM${base}-${i} LTDA`, nomeFolded: `ZM${base}-${i} LTDA` }).go();
    const dia = `${mes}-12`;
    const erro = { id: `BA-${base}`, tipo: 'procNFe_v4.00.xsd', uf: 'BA', nsu: base, excecao: 'X', erro: 'x', xmlKey: 'sefaz/BA/x.xml.gz', createdAt: `${dia}T10:00:00.000Z` };
    await legado.documentoErroLegado.create({ ...erro, lista: 'erros', shard: 0 }).go();

    const leituras = async () => ({
      // The whole month: its month counters.
      emitente: await contagemDoEmitente(emitente, '55', `${mes}-01`, `${mes}-${new Date(Date.UTC(Number(mes.slice(0, 4)), Number(mes.slice(5)), 0)).getUTCDate()}`),
      dia10: (await contagemDoEmitente(emitente, '55', `${mes}-10`, `${mes}-10`)).meses,
      transporte: await totalTransporte(mes, mes),
      registro: (await transportadoresPagina({ limite: 100, documentoPrefixo: base })).itens.map((t) => t.documento),
      porDocumento: await transportadorPorDocumento(transportadores[0]!),
      erros: (await documentosErroNoPeriodo(null, `${dia}T00:00:00.000Z`, `${dia}T23:59:59.999Z`, { perPage: 10 })).items.map((d) => d.id),
    });
    const antes = await leituras();
    expect(antes.emitente.meses).toEqual([{ mes, quantidade: 7, valor: 700 }]);
    expect(antes.dia10).toEqual([{ mes, quantidade: 5, valor: 500 }]);
    expect(antes.transporte).toBe(11);
    expect(antes.registro).toEqual(transportadores);
    expect(antes.erros).toEqual([erro.id]);

    const migrados = await migrar(2);
    expect(migrados.contagemEmitente).toBeGreaterThanOrEqual(2);
    expect(migrados.contagemTransporte).toBeGreaterThanOrEqual(2);
    expect(migrados.transportador).toBeGreaterThanOrEqual(2);
    expect(migrados.documentoErro).toBeGreaterThanOrEqual(1);
    expect(await leituras()).toEqual(antes);

    // Nothing is left where it was; everything is in its shard.
    expect((await legado.contagemEmitenteLegado.query.byEmitente({ emitenteCnpj: emitente, modelo: '55' }).go()).data).toEqual([]);
    expect((await legado.contagemTransporteLegado.query.byMes({}).begins({ mes }).go({ pages: 'all' })).data).toEqual([]);
    expect((await legado.transportadorLegado.query.all({}).begins({ documento: base }).go()).data).toEqual([]);
    expect((await legado.documentoErroLegado.query.all({}).between({ createdAt: `${dia}T00` }, { createdAt: `${dia}T23~` }).go()).data).toEqual([]);
    expect((await e.contagemEmitente.get({ emitenteCnpj: emitente, modelo: '55', shard: 0, periodo: `M${mes}` }).go()).data).toMatchObject({ quantidade: 7, valor: 700, emitenteNome: 'EMITENTE NOVO' });
    expect((await e.contagemTransporte.get({ lista: 'transporte', shard: 11, mes }).go()).data).toMatchObject({ quantidade: 4 });
    expect((await e.transportador.get({ lista: 'transportadores', shard: shardDe(transportadores[1]!, entities.REGISTRO_SHARDS), documento: transportadores[1]! }).go()).data).toMatchObject({
      nome: `ZM${base}-1 LTDA`,
    });
    expect((await e.documentoErro.query.all({ lista: 'erros', shard: shardDe(erro.id, entities.ERRO_SHARDS) }).between({ createdAt: `${dia}T00` }, { createdAt: `${dia}T23~` }).go()).data.map((d) => d.id)).toEqual([erro.id]);

    // Again: nothing of these moves twice.
    await migrar(2);
    expect(await leituras()).toEqual(antes);
  });
});
