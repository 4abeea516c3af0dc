import { randomInt } from 'node:crypto';
import { cnpjCheckDigits } from '@plac/shared/domain';
import { describe, expect, it } from 'vitest';
import { EMITENTE_SHARDS, shardDe, shardsAte, TRANSPORTE_SHARDS } from './contagem-entities';
import { eventoXml, nfeXml } from './fixtures/builder';
import { ingerir, type DocumentoDistribuido } from './service';
import { documentosErroNoPeriodo, gravarDocumentoErro } from './documentos-erro-store';
import { contagemDoEmitente } from './emitentes-store';
import { fatePorChave, fatesPorChaves } from './fate-store';
import { ERRO_SHARDS, fateLegado, fateService, REGISTRO_SHARDS } from './store-entities';
import { totalTransporte, transportadoresPagina, transportadorPorDocumento } from './transportadores-store';

/**
 * Issue 36, against the twin's DynamoDB Local: the keys written per stored Fat-e have their shard in
 * the partition key, and every read adds up (or merges) all the shards, and the partition of before
 * issue 36 until the migration has moved it: the totals stay exact.
 */

const NFE = 'procNFe_v4.00.xsd';
const EVT = 'procEventoNFe_v1.00.xsd';

const cnpj = (base8: string, filial: number) => {
  const first12 = `${base8}${String(filial).padStart(4, '0')}`;
  return `${first12}${cnpjCheckDigits(first12)}`;
};
const novoCnpj = () => cnpj(String(randomInt(10_000_000, 99_999_999)), 1);
const doc = (nsu: number, schema: string, xml: string): DocumentoDistribuido => ({ nsu: String(nsu), schema, xml });
/** The documents of these tests leave the UF's cursor where it is: other files load the same UFs. */
const semCursor = { moverCursor: false } as const;

describe('Fat-e partitions (issue 36)', () => {
  it("spreads one issuer's counters over its shards and adds them up exactly, with a counter of before the shards", async () => {
    const emitente = novoCnpj();
    const notas = Array.from({ length: 16 }, (_, i) => nfeXml({ numero: randomInt(1, 999_999_999), emitente, emissao: `2026-03-${String(2 + i).padStart(2, '0')}T10:00:00-03:00` }));
    await ingerir('TO', notas.map((n, i) => doc(9_000 + i, NFE, n.xml)), semCursor);
    const valor = (await fatesPorChaves(notas.map((n) => n.chave))).reduce((s, f) => s + f.valorNota, 0);

    // The month's items are in several partitions, one per shard of the Fat-e's keys.
    const e = fateService().entities;
    const porShard = await Promise.all(
      shardsAte(EMITENTE_SHARDS).map(async (shard) => (await e.contagemEmitente.get({ emitenteCnpj: emitente, modelo: '55', shard, periodo: 'M2026-03' }).go()).data),
    );
    const usados = new Set(notas.map((n) => shardDe(n.chave, EMITENTE_SHARDS)));
    expect(usados.size).toBeGreaterThan(1);
    expect(porShard.filter((c) => c !== null)).toHaveLength(usados.size);
    expect(porShard.reduce((s, c) => s + (c?.quantidade ?? 0), 0)).toBe(16);
    expect((await contagemDoEmitente(emitente, '55', '2026-03-01', '2026-03-31')).meses).toEqual([{ mes: '2026-03', quantidade: 16, valor }]);
    // A cut month reads the day items of every shard.
    const ate10 = notas.slice(0, 9);
    expect((await contagemDoEmitente(emitente, '55', '2026-02-15', '2026-03-10')).meses).toEqual([
      { mes: '2026-03', quantidade: 9, valor: (await fatesPorChaves(ate10.map((n) => n.chave))).reduce((s, f) => s + f.valorNota, 0) },
    ]);

    // A counter of before issue 36 (its partition without a shard) is added until migrated.
    await fateLegado().entities.contagemEmitenteLegado.put({ emitenteCnpj: emitente, modelo: '55', periodo: 'M2026-03', quantidade: 4, valor: 400, emitenteNome: 'ANTIGO', uf: 'TO' }).go();
    expect((await contagemDoEmitente(emitente, '55', '2026-03-01', '2026-03-31')).meses).toEqual([{ mes: '2026-03', quantidade: 20, valor: valor + 400 }]);

    // Cancelled: taken out of the shard that counted it.
    const cancelada = (await fatePorChave(notas[0]!.chave))!;
    await ingerir('TO', [doc(9_100, EVT, eventoXml(cancelada.chave, '110111'))], semCursor);
    expect((await contagemDoEmitente(emitente, '55', '2026-03-01', '2026-03-31')).meses).toEqual([
      { mes: '2026-03', quantidade: 19, valor: valor + 400 - cancelada.valorNota },
    ]);
  });

  it("adds the carriers' month shards (and a shard item of before) into the report's grand total", async () => {
    // A month no other test writes, so the total is this test's alone.
    const ano = 2040 + randomInt(0, 40);
    const mes = `${ano}-0${randomInt(1, 10)}`;
    const notas = Array.from({ length: 10 }, () => nfeXml({ numero: randomInt(1, 999_999_999), emitente: novoCnpj(), transportador: novoCnpj(), emissao: `${mes}-15T10:00:00-03:00` }));
    await ingerir('TO', notas.map((n, i) => doc(9_200 + i, NFE, n.xml)), semCursor);
    expect(new Set(notas.map((n) => shardDe(n.chave, TRANSPORTE_SHARDS))).size).toBeGreaterThan(1);
    expect(await totalTransporte(mes, mes)).toBe(10);
    await fateLegado().entities.contagemTransporteLegado.put({ mes, shard: 3, quantidade: 7 }).go();
    expect(await totalTransporte(mes, mes)).toBe(17);
  });

  it('a name that none of a read matches still moves the reading on: an empty page is not the end', async () => {
    const base = String(randomInt(10_000_000, 99_999_999));
    const marca = `ZR${base}`;
    const e = fateService().entities;
    // 30 carriers in name order; only the last two carry the word looked for.
    const documentos = Array.from({ length: 30 }, (_, i) => cnpj(base, i + 1));
    for (const [i, documento] of documentos.entries()) {
      const nome = `${marca}-${String(i).padStart(2, '0')} ${i >= 28 ? `ALVO${base}` : 'OUTRA'} TRANSPORTES`;
      await e.transportador.put({ documento, nome, nomeFolded: nome, lista: 'transportadores', shard: shardDe(documento, REGISTRO_SHARDS) }).go();
    }
    const achados: string[] = [];
    let vazias = 0;
    let desde = { nomeFolded: marca, documento: '' };
    for (let i = 0; i < 100; i++) {
      const { itens, fim, ultimo } = await transportadoresPagina({ limite: 1, desde, nomeContem: `ALVO${base}` });
      achados.push(...itens.map((t) => t.documento));
      if (itens.length === 0 && !fim) vazias++;
      if (fim) break;
      expect(ultimo).not.toBeNull();
      desde = { nomeFolded: ultimo!.nomeFolded, documento: `${ultimo!.documento}~` };
    }
    expect(achados).toEqual(documentos.slice(28));
    expect(vazias).toBeGreaterThan(0);
  });

  it('merges the registry shards (and its partition of before) in name and document order, each carrier once', async () => {
    const base = String(randomInt(10_000_000, 99_999_999));
    const marca = `ZQ${base}`;
    const documentos = Array.from({ length: 11 }, (_, i) => cnpj(base, i + 1));
    const e = fateService().entities;
    const antigo = fateLegado().entities.transportadorLegado;
    // '-' after the mark: the names sort after the position `desde` names (`…#documento_`), as a real name after a shorter one.
    const nomes = documentos.map((_, i) => `${marca}-${String.fromCharCode(65 + ((i * 7) % 11))} TRANSPORTES`);
    for (const [i, documento] of documentos.entries()) {
      const item = { documento, nome: nomes[i]!, nomeFolded: nomes[i]! };
      // Two carriers only in the partition of before; one in both (re-registered since, under a new name).
      if (i < 2) await antigo.put(item).go();
      else await e.transportador.put({ ...item, lista: 'transportadores', shard: shardDe(documento, REGISTRO_SHARDS) }).go();
    }
    await antigo.put({ documento: documentos[5]!, nome: 'NOME ANTIGO', nomeFolded: `${marca}-NOME ANTIGO` }).go();
    expect(new Set(documentos.map((d) => shardDe(d, REGISTRO_SHARDS))).size).toBeGreaterThan(1);
    // DynamoDB's order: the key's bytes (ElectroDB's lower-case `nomefolded_<name>#documento_<doc>`).
    const ordem = (t: { nomeFolded: string; documento: string }) => `${t.nomeFolded.toLowerCase()}#documento_${t.documento}`;
    const esperados = documentos.map((d, i) => ({ documento: d, nomeFolded: nomes[i]! })).sort((a, b) => (ordem(a) < ordem(b) ? -1 : 1));

    // By name, three at a time, as the carrier list pages it.
    const vistos: { documento: string; nomeFolded: string }[] = [];
    let desde = { nomeFolded: marca, documento: '' };
    for (let i = 0; i < 10; i++) {
      const { itens, fim } = await transportadoresPagina({ limite: 3, desde, nomeContem: marca });
      vistos.push(...itens.map((t) => ({ documento: t.documento, nomeFolded: t.nomeFolded })));
      const ultimo = itens.at(-1);
      if (fim || !ultimo || vistos.length >= documentos.length) break;
      desde = { nomeFolded: ultimo.nomeFolded, documento: `${ultimo.documento}~` };
    }
    expect(vistos.filter((t) => t.nomeFolded.startsWith(marca))).toEqual(esperados);

    // By the start of the document, every shard and the partition of before.
    const { itens, fim } = await transportadoresPagina({ limite: 100, documentoPrefixo: base });
    expect(fim).toBe(true);
    expect(itens.map((t) => t.documento)).toEqual([...documentos].sort());
    expect(itens.find((t) => t.documento === documentos[5])!.nome).toBe(nomes[5]);
    expect(await transportadorPorDocumento(documentos[0]!)).toMatchObject({ nome: nomes[0] });
    expect(await transportadorPorDocumento(documentos[7]!)).toMatchObject({ nome: nomes[7] });
  });

  it('lists the error documents of all UFs from every gsi2 shard (and its partition of before), newest first, each once', async () => {
    const dia = `2039-${String(randomInt(1, 13)).padStart(2, '0')}-${String(randomInt(1, 29)).padStart(2, '0')}`;
    const ids = Array.from({ length: 12 }, (_, i) => `TO-${String(randomInt(1, 999_999_999)).padStart(15, '0')}-${i}`);
    const criados = ids.map((id, i) => ({ id, createdAt: `${dia}T10:00:${String(i % 6).padStart(2, '0')}.000Z` }));
    const base = { tipo: NFE, uf: 'TO', nsu: '1', excecao: 'X', erro: 'x', xmlKey: 'sefaz/TO/x.xml.gz' };
    for (const [i, c] of criados.entries()) {
      if (i === 4) await fateLegado().entities.documentoErroLegado.create({ ...base, ...c, lista: 'erros', shard: 0 }).go();
      else await gravarDocumentoErro({ ...base, ...c });
    }
    expect(new Set(ids.map((id) => shardDe(id, ERRO_SHARDS))).size).toBeGreaterThan(1);
    const esperados = [...criados].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id)).map((c) => c.id);
    const vistos: string[] = [];
    let posicao: string | undefined;
    for (let i = 0; i < 10; i++) {
      const pagina = await documentosErroNoPeriodo(null, `${dia}T00:00:00.000Z`, `${dia}T23:59:59.999Z`, { perPage: 5, posicao });
      vistos.push(...pagina.items.map((d) => d.id));
      if (!pagina.posicao) break;
      posicao = pagina.posicao;
    }
    expect(vistos).toEqual(esperados);
  });
});
