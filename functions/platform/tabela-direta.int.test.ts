import { randomUUID } from 'node:crypto';
import { Entity } from 'electrodb';
import { describe, expect, it } from 'vitest';
import { MODELO_TENTATIVA } from '../auth/attempts';
import { MODELO_DESAFIO, MODELO_FATOR } from '../auth/modelos';
import { MODELO_CESSAO } from '../cessao/modelos';
import { MODELO_CLIENTE, MODELO_CLIENTE_CNPJ, MODELO_PARAMETRO } from '../clientes/modelos';
import { MODELO_CLIENTE_DO_MES, MODELO_CONSUMO_SERVICO, MODELO_CONTADOR, MODELO_DIARIO, MODELO_NAO_ENCONTRADA, MODELO_REQUISICAO } from '../consumo/modelos';
import { MODELO_FATE } from '../fate/modelos';
import { MODELO_SERVICO } from '../servicos/modelos';
import { MODELO_USUARIO, MODELO_USUARIO_EMAIL } from '../users/modelos';
import { MODELO_SESSAO } from './auth/sessions';
import { dynamoDb } from './aws';
import { GetCommand } from './aws-direto/dynamodb';
import { config } from './env';
import { MODELO_CONTADOR_DE_COTA } from './rate-limit';
import { tableConfig } from './table';
import { apagar, atualizar, chave, consultarParticao, criar, gravarNovo, ler, transacao, upsert, upsertSozinho, type Modelo, type Mudanca } from './tabela-direta';

/**
 * What tabela-direta.ts writes is what ElectroDB writes, item for item, and what it reads is what
 * ElectroDB answers, on DynamoDB Local: each write the look-up's paths make (the charge's creates and
 * upserts, the quota's counter) is made once by the model's ElectroDB entity and once directly, twice
 * each (the second adds to the first), and the stored items compared whole; each read is of items the
 * entity wrote.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any model, as ElectroDB's untyped constructor takes it
const entidade = (m: Modelo) => new Entity(m as any, tableConfig());

async function armazenado(m: Modelo, v: Record<string, unknown>) {
  const { Item } = await dynamoDb().send(new GetCommand({ TableName: config.tableName, Key: chave(m, v) }));
  return Item;
}

describe('tabela-direta: the items ElectroDB writes', () => {
  const id = () => `Td-${randomUUID()}`;

  it.each<[string, Modelo, () => Record<string, unknown>, Mudanca]>([
    ['the counter', MODELO_CONTADOR, () => ({ clienteId: id(), mes: '2026-12', servico: 1, uf: 'SP', shard: 7 }), { add: { requisicoes: 1 } }],
    ['the counter by service', MODELO_CONSUMO_SERVICO, () => ({ clienteId: id(), mes: '2026-12', servico: 3, shard: 2 }), { add: { requisicoes: 1 } }],
    ["the client's month (a number set)", MODELO_CLIENTE_DO_MES, () => ({ clienteId: id(), mes: '2026-12', nome: 'banco ácme s.a.' }), { add: { servicos: [1, 3] } }],
    ["the day's counter (an add and a set)", MODELO_DIARIO, () => ({ clienteId: id(), mes: '2026-12', dia: '2026-12-05', tipo: 'sucesso', shard: 9 }), { add: { quantidade: 1 }, set: { expiresAt: 1_900_000_000 } }],
    ["the quota's counter", MODELO_CONTADOR_DE_COTA, () => ({ counter: `integrador:cliente:${id()}:1790000000`, shard: 3, expiresAt: 1_790_000_020 }), { add: { hits: 1 } }],
    ["a login's failures", MODELO_TENTATIVA, () => ({ subject: `account:${id()}@x.br`, expiresAt: 1_790_000_900 }), { add: { failures: 1 } }],
  ])('%s: an upsert, twice', async (_, modelo, valores, mudanca) => {
    const v = valores();
    const eletro = () => {
      let op = entidade(modelo).upsert(v);
      if (mudanca.add) op = op.add(mudanca.add);
      if (mudanca.set) op = op.set(mudanca.set);
      return op.go();
    };
    await eletro();
    await eletro();
    const deElectro = await armazenado(modelo, v);
    await apagar(modelo, v);
    expect(await transacao([upsert(modelo, v, mudanca)])).toEqual({ canceled: false, data: [{}] });
    await upsertSozinho(modelo, v, mudanca);
    expect(await armazenado(modelo, v)).toEqual(deElectro);
    expect(deElectro).toBeDefined();
  });

  it.each<[string, Modelo, () => Record<string, unknown>]>([
    ['a charged request', MODELO_REQUISICAO, () => ({ requestId: id(), clienteId: id(), mes: '2026-12', servico: 1, uf: 'BA', chave: '29261212345678000199550010000000011000000010', createdAt: '2026-12-05T12:00:00.000Z', expiresAt: 1_800_000_000, shard: 5 })],
    ['a session', MODELO_SESSAO, () => ({ sid: id(), userId: id(), principal: '{"userId":"u"}', createdAt: '2026-12-05T12:00:00.000Z', expiresAt: 1_800_000_000 })],
    ["a login's challenge", MODELO_DESAFIO, () => ({ desafioId: id(), userId: id(), canal: 'sefaz', expiresAt: 1_800_000_000 })],
    ['a not-found look-up', MODELO_NAO_ENCONTRADA, () => ({ id: id(), uf: 'BA', mes: '2026-12', data: '2026-12-05T12:00:00.000Z', chnfe: '2926', servico: 1, status: 'NAO_ENCONTRADA', clienteId: id(), cnpj: '11222333000181', razaoSocial: 'Banco Ácme', expiresAt: 1_800_000_000, shard: 1, shardCliente: 2 })],
  ])('%s: a create, refused the second time', async (_, modelo, valores) => {
    const v = valores();
    await entidade(modelo).create(v).go();
    const deElectro = await armazenado(modelo, v);
    await apagar(modelo, v);
    expect((await transacao([criar(modelo, v)])).canceled).toBe(false);
    expect(await armazenado(modelo, v)).toEqual(deElectro);
    expect(await transacao([criar(modelo, v)])).toEqual({ canceled: true, data: [{ rejected: true, code: 'ConditionalCheckFailed' }] });
    await expect(entidade(modelo).create(v).go()).rejects.toThrow();
    // Alone, as a login opens a session: the same item, refused the same way.
    await apagar(modelo, v);
    expect(await armazenado(modelo, v)).toBeUndefined();
    await gravarNovo(modelo, v);
    expect(await armazenado(modelo, v)).toEqual(deElectro);
    await expect(gravarNovo(modelo, v)).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
  });

  it.each<[string, Modelo, () => Record<string, unknown>, Record<string, unknown>]>([
    ['a session takes a new principal', MODELO_SESSAO, () => ({ sid: id(), userId: id(), principal: '{}', createdAt: '2026-12-05T12:00:00.000Z', expiresAt: 1_800_000_000 }), { principal: '{"roles":["sefaz_gestor"]}' }],
    ['a subject is locked', MODELO_TENTATIVA, () => ({ subject: `address:${id()}`, failures: 5, expiresAt: 1_790_000_900 }), { lockedUntil: 1_790_000_900 }],
  ])('%s: a patch, only of an item that exists', async (_, modelo, valores, mudanca) => {
    const v = valores();
    await entidade(modelo).create(v).go();
    await entidade(modelo).patch(v).set(mudanca).go();
    const deElectro = await armazenado(modelo, v);
    await apagar(modelo, v);
    await gravarNovo(modelo, v);
    await atualizar(modelo, v, mudanca);
    expect(await armazenado(modelo, v)).toEqual(deElectro);
    await apagar(modelo, v);
    await expect(atualizar(modelo, v, mudanca)).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    expect(await armazenado(modelo, v)).toBeUndefined();
  });
});

describe('tabela-direta: what ElectroDB answers', () => {
  it('a key read of each model the look-up reads, and nothing of another entity at the same key', async () => {
    const clienteId = `Td-${randomUUID()}`;
    const chaveFate = `29${randomUUID().replace(/\D/g, '').padEnd(42, '1').slice(0, 42)}`;
    const agora = '2026-12-05T12:00:00.000Z';
    const itens: [Modelo, Record<string, unknown>][] = [
      [MODELO_CLIENTE, { clienteId, cnpj: '11222333000181', razaoSocial: 'Banco Ácme', razaoFolded: 'banco acme', tipoCliente: 'ESF', situacao: 'A', email: 'a@b.c', inicioSemCertificado: '2026-12-01', createdAt: agora, updatedAt: agora }],
      [MODELO_CLIENTE_CNPJ, { cnpj: `${clienteId}-cnpj`, clienteId }],
      [MODELO_PARAMETRO, { nome: `${clienteId}-param`, valor: '45', updatedAt: agora }],
      [MODELO_USUARIO, { userId: clienteId, name: 'Ana Sefaz', nameFolded: 'ana sefaz', email: 'ana@x.br', cpf: '52998224725', situacao: 'A', tipo: 'S', roles: ['sefaz_admin', 'sefaz_gestor'], uf: 'BA', passwordHash: 'scrypt$x', createdAt: agora, updatedAt: agora }],
      [MODELO_USUARIO_EMAIL, { email: `${clienteId}@x.br`, userId: clienteId }],
      [MODELO_FATOR, { userId: clienteId, segredo: 'cifrado', ultimoPasso: 7, recuperacao: ['h1', 'h2'] }],
      [
        MODELO_FATE,
        {
          chave: chaveFate, status: 'ATIVA', uf: 'BA', nsu: '1', modelo: '55', serie: '1', numero: '1', emissao: agora, emitenteCnpj: '11222333000181',
          emitenteNome: 'Emitente', emitenteUf: 'BA', destinatarioDoc: '11222333000181', destinatarioTipo: 'CNPJ', destinatarioNome: 'Dest', valorNota: 1000,
          valorOriginal: 1000, desconto: 0, valorLiquido: 1000, duplicatas: [{ numero: '001', vencimento: '2027-01-05', valor: 1000 }], xmlKey: 'x', createdAt: agora, updatedAt: agora,
        },
      ],
    ];
    for (const [modelo, v] of itens) {
      await entidade(modelo).put(v).go();
      expect(await ler(modelo, v)).toEqual((await entidade(modelo).get(v).go()).data);
      expect(await ler(modelo, v, { consistente: true })).toEqual((await entidade(modelo).get(v).go({ consistent: true })).data);
    }
    // Another entity's item at the same key is not answered (ElectroDB's ownership check): an entity
    // named 'Parametro' has the key of 'parametro' (keys are lower-cased) but not its mark.
    const outra: Modelo = { ...MODELO_PARAMETRO, model: { ...MODELO_PARAMETRO.model, entity: 'Parametro' } };
    const parametro = { nome: `${clienteId}-param` };
    expect(chave(outra, parametro)).toEqual(chave(MODELO_PARAMETRO, parametro));
    expect(await ler(MODELO_PARAMETRO, parametro)).not.toBeNull();
    expect(await ler(outra, parametro)).toBeNull();
  });

  it("a partition's Query: a Fat-e's assignments (a 'none' casing) and the catalogue", async () => {
    const chaveFate = `29${randomUUID().replace(/\D/g, '').padEnd(42, '2').slice(0, 42)}`;
    for (const nDup of ['001', 'A-2', 'b3']) {
      await entidade(MODELO_CESSAO)
        .put({ chave: chaveFate, nDup, clienteId: 'c', cnpjCessionario: '11222333000181', dataCessao: '2026-12-05', valor: 100, uf: 'BA', registradaEm: '2026-12-05T12:00:00.000Z', registradaPor: 'u' })
        .go();
    }
    const deElectro = (await new Entity(MODELO_CESSAO, tableConfig()).query.byFate({ chave: chaveFate }).go({ pages: 'all' })).data;
    expect(deElectro).toHaveLength(3);
    expect(await consultarParticao(MODELO_CESSAO, 'byFate', { chave: chaveFate })).toEqual(deElectro);
    expect(await consultarParticao(MODELO_SERVICO, 'all', {})).toEqual((await new Entity(MODELO_SERVICO, tableConfig()).query.all({}).go({ pages: 'all' })).data);
  });
});
