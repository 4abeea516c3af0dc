import { randomUUID } from 'node:crypto';
import { buildChaveAcesso, cnpjCheckDigits } from '@plac/shared/domain';
import { describe, expect, it } from 'vitest';
import { consumoDoCliente } from '../consumo';
import { medirEntregue } from './medicao';

/** 'Envio de Fat-e' (service 9) against DynamoDB Local: one per delivered Fat-e, however often it is reported. */
describe('medirEntregue', () => {
  const agora = new Date('2026-11-23T15:00:00Z');
  const emitente = `11222333${'0001'}${cnpjCheckDigits('112223330001')}`;
  // cUF 25 (PB): the key's UF when the body has none.
  const chave = buildChaveAcesso({ cUF: 25, aamm: '2611', cnpj: emitente, mod: '55', serie: 1, nNF: 4242, cNF: 12345678 });

  it('meters a delivered ESCR_FAT once per delivery id, under concurrent repeats', async () => {
    const clienteId = `cli-${randomUUID()}`;
    const entrega = { deliveryId: `ESCR_FAT:${clienteId}:${chave}`, clienteId, operacao: 'ESCR_FAT', payload: { versao: 1, tipo: 'FATE', chave, uf: 'RO' } };
    const answers = await Promise.all([1, 2, 3].map(() => medirEntregue(entrega, agora)));
    expect(answers.sort()).toEqual(['medida', 'repetida', 'repetida']);
    expect(await medirEntregue(entrega, agora)).toBe('repetida');
    expect(await consumoDoCliente(clienteId, '2026-11')).toEqual([{ servico: 9, uf: 'RO', requisicoes: 1 }]);
  });

  it('meters TRANSPORTE_FAT with the key’s UF when the body has none; each delivery id counts', async () => {
    const clienteId = `cli-${randomUUID()}`;
    const base = { clienteId, operacao: 'TRANSPORTE_FAT', payload: { versao: 1, tipo: 'FATE', chave } };
    expect(await medirEntregue({ ...base, deliveryId: `TRANSPORTE_FAT:${clienteId}:${chave}` }, agora)).toBe('medida');
    expect(await medirEntregue({ ...base, deliveryId: `TRANSPORTE_FAT:${clienteId}:outra` }, agora)).toBe('medida');
    expect(await consumoDoCliente(clienteId, '2026-11')).toEqual([{ servico: 9, uf: 'PB', requisicoes: 2 }]);
  });

  it('does not meter events', async () => {
    const clienteId = `cli-${randomUUID()}`;
    for (const operacao of ['EVENTO', 'ESCR_EVENTO', 'TRANSPORTE_EVENTO']) {
      expect(await medirEntregue({ deliveryId: `${operacao}:${clienteId}:${chave}:110111`, clienteId, operacao, payload: { chave } }, agora)).toBe('nao-medida');
    }
    expect(await consumoDoCliente(clienteId, '2026-11')).toEqual([]);
  });
});
