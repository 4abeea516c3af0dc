import { randomUUID } from 'node:crypto';
import { monthOf, SERVICO } from '@plac/shared/domain';
import { PutCommand } from '../../functions/platform/aws-direto/dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownTable } from '../../tests/setup/own-table';
import { dynamoDb } from '../../functions/platform/aws';
import { config } from '../../functions/platform/env';
import * as cobranca from '../../functions/consumo/cobranca';
import * as consumo from '../../functions/consumo/store';
import * as monitoramento from '../../functions/monitoramento/store';
import * as prepago from '../../functions/prepago/store';
import { migrar } from './chaves-particionadas';

/**
 * Issue 36's migration: items written in the form of before (the shard in the sort key, or no shard)
 * are read where they are until moved, and moved exactly once, every count and balance intact.
 */

// The migration scans the whole table: on one of this file's own, it reads only what the test writes.
beforeAll(() => ownTable());

describe('the sharded keys migration', () => {
  it('moves old counters, day counters, balance shards, statement lines and monitored keys once, every figure equal before and after', { timeout: 300_000 }, async () => {
    const clienteId = `mig36-${randomUUID()}`;
    const mes = monthOf(new Date());
    const dia = `${mes}-01`;
    // Metering as stored before: two shards of one counter, a day counter; and one request counted in the new form.
    await consumo.formaAntiga.contador().put([
      { clienteId, mes, servico: 1, uf: 'BA', shard: 3, requisicoes: 7 },
      { clienteId, mes, servico: 1, uf: 'BA', shard: 9, requisicoes: 5 },
    ]).go();
    await consumo.formaAntiga.diario().put({ clienteId, mes, dia, tipo: 'sucesso', shard: 2, quantidade: 12 }).go();
    await cobranca.cobrar({ requestId: `${clienteId}:novo`, clienteId, mes, servico: 1, uf: 'BA', chave: 'k', createdAt: new Date().toISOString() });
    // A log line indexed as before: read by the report beside the new ones, in order.
    await consumo.formaAntiga.requisicao().put({ requestId: `${clienteId}:velho`, clienteId, mes, servico: 1, uf: 'BA', chave: 'k', createdAt: `${mes}-01T00:00:00.000Z`, expiresAt: 4_000_000_000, shard: 0 }).go();

    // A prepaid account whose shards and statement are in the old form.
    const valores = { envioFate: 20, monitoramento: 10, registroCessao: 30 };
    const conta = { clienteId, cnpj: '11222333000181', razaoSocial: 'MIG', ciclo: 1, situacao: 'VIGENTE' as const, valorContratado: 100, saldoMilesimos: 0, prazoConsumo: '2099-12-31', valores, updatedAt: new Date().toISOString() };
    const reserva = {
      clienteId, ciclo: 1, reservaId: `PA-${clienteId}-1`, cnpj: conta.cnpj, razaoSocial: 'MIG', emailContato: 'm@x', qtdEnvioFate: 1, qtdMonitoramentoDe: 0, qtdRegistroCessao: 0, valor: 100,
      faixaId: 'f', mes, situacao: 'P' as const, dtVencimento: '2099-12-31', numeroDae: 1, codigoBarras: '1', linhaDigitavel: '1', chavePdf: 'x', createdAt: new Date().toISOString(), createdBy: 't', lista: 'reservas',
    };
    expect(await prepago.abrirCiclo(conta, reserva, null, '2026-01-01', 1)).toBe(true);
    await prepago.formaAntiga.saldo().put([
      { clienteId, shard: 0, ciclo: 1, prazoConsumo: '2099-12-31', saldoMilesimos: 600 },
      { clienteId, shard: 1, ciclo: 1, prazoConsumo: '2099-12-31', saldoMilesimos: 400 },
    ]).go();
    await prepago.formaAntiga.extrato().put({ clienteId, mes, servico: SERVICO.envioFate, shard: 0, requisicoes: 3, valorUnitario: 20, valorMilesimos: 60 }).go();
    // A line written before the balance had shards at all (no shard in its key or attributes).
    const { Item: semShard } = prepago.formaAntiga.extrato().put({ clienteId, mes, servico: SERVICO.envioFate, shard: 0, requisicoes: 2, valorUnitario: 20, valorMilesimos: 40 }).params() as { Item: Record<string, unknown> };
    const { shard: _semShard, ...linhaAntiga } = semShard;
    await dynamoDb().send(new PutCommand({ TableName: config.tableName, Item: { ...linhaAntiga, sk: String(semShard.sk).replace(/#shard_\d+$/, '') } }));

    // Monitored keys as stored before.
    const chaves = ['35261111222333000181550010000000011000000016', '35261111222333000181550010000000021000000021'];
    for (const chave of chaves) await monitoramento.formaAntiga.chave().put({ clienteId, chave, uf: 'SP', createdAt: new Date().toISOString(), createdBy: 't' }).go();

    // Read where they are, before the move.
    const antes = {
      contadores: await consumo.contadoresDoCliente(clienteId, mes),
      diarios: await consumo.contadoresDiarios(clienteId, mes),
      log: (await consumo.requisicoesDoCliente(clienteId, mes)).map((r) => r.requestId),
      saldo: (await prepago.lerConta(clienteId))!.saldoMilesimos,
      extrato: await prepago.extratoDoMes(clienteId, mes),
    };
    expect(antes.contadores).toEqual([{ servico: 1, uf: 'BA', requisicoes: 13 }]);
    expect(antes.diarios.get(dia)?.sucesso ?? 0).toBeGreaterThanOrEqual(12);
    expect(antes.log).toEqual([`${clienteId}:velho`, `${clienteId}:novo`]);
    expect(antes.saldo).toBe(1_000);
    expect(antes.extrato).toEqual([{ servico: SERVICO.envioFate, requisicoes: 5, valorUnitario: 20, valorMilesimos: 100 }]);

    const movidos = await migrar(2);
    expect(movidos.contadores).toBeGreaterThanOrEqual(2);
    expect(movidos.extratos).toBeGreaterThanOrEqual(2);
    expect(movidos.chavesMonitoradas).toBeGreaterThanOrEqual(2);
    const depois = await migrar(2);
    // A second run finds nothing of this client left in the old form (other test files' clients are not ours to count).
    expect(depois).toBeDefined();
    expect(await consumo.formaAntiga.contador().query.byCliente({ clienteId, mes }).go()).toMatchObject({ data: [] });
    expect(await prepago.formaAntiga.saldo().query.byCliente({ clienteId }).go()).toMatchObject({ data: [] });
    expect(await prepago.formaAntiga.extrato().query.byClienteMes({ clienteId, mes }).go()).toMatchObject({ data: [] });
    expect(await monitoramento.formaAntiga.chave().query.byCliente({ clienteId }).go()).toMatchObject({ data: [] });

    expect(await consumo.contadoresDoCliente(clienteId, mes)).toEqual(antes.contadores);
    expect(await consumo.contadoresDiarios(clienteId, mes)).toEqual(antes.diarios);
    expect((await prepago.lerConta(clienteId))!.saldoMilesimos).toBe(1_000);
    expect((await prepago.lerShard(clienteId, 0))).toMatchObject({ saldoMilesimos: 600, valores });
    expect(await prepago.extratoDoMes(clienteId, mes)).toEqual(antes.extrato);
    expect(await monitoramento.totalDoCliente(clienteId)).toBe(2);
    expect((await monitoramento.paginaDoCliente(clienteId, { perPage: 10 })).items.map((k) => k.chave)).toEqual(chaves);
    expect(await monitoramento.clientesDaChave(chaves[0]!)).toEqual([clienteId]);
  });

  it('an account with old shards pays its first debit after moving them, once', async () => {
    const clienteId = `mig36-deb-${randomUUID()}`;
    const mes = monthOf(new Date());
    const valores = { envioFate: 20, monitoramento: 10, registroCessao: 30 };
    const conta = { clienteId, cnpj: '11222333000181', razaoSocial: 'MIG', ciclo: 1, situacao: 'VIGENTE' as const, valorContratado: 100, saldoMilesimos: 0, prazoConsumo: '2099-12-31', valores, updatedAt: new Date().toISOString() };
    const reserva = {
      clienteId, ciclo: 1, reservaId: `PA-${clienteId}-1`, cnpj: conta.cnpj, razaoSocial: 'MIG', emailContato: 'm@x', qtdEnvioFate: 1, qtdMonitoramentoDe: 0, qtdRegistroCessao: 0, valor: 100,
      faixaId: 'f', mes, situacao: 'P' as const, dtVencimento: '2099-12-31', numeroDae: 1, codigoBarras: '1', linhaDigitavel: '1', chavePdf: 'x', createdAt: new Date().toISOString(), createdBy: 't', lista: 'reservas',
    };
    expect(await prepago.abrirCiclo(conta, reserva, null, '2026-01-01', 1)).toBe(true);
    await prepago.formaAntiga.saldo().put([{ clienteId, shard: 5, ciclo: 1, prazoConsumo: '2099-12-31', saldoMilesimos: 50 }]).go();
    const { pagarUso } = await import('../../functions/prepago/uso');
    expect(await pagarUso({ chave: `${clienteId}:1`, clienteId, servico: SERVICO.envioFate, agora: new Date() })).toBe('prepago');
    expect(await pagarUso({ chave: `${clienteId}:1`, clienteId, servico: SERVICO.envioFate, agora: new Date() })).toBe('prepago-repetido');
    expect((await prepago.lerConta(clienteId))!.saldoMilesimos).toBe(30);
    expect(await prepago.formaAntiga.saldo().query.byCliente({ clienteId }).go()).toMatchObject({ data: [] });
  });
});
