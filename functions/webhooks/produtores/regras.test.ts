import type { DocumentoArmazenado } from '@plac/shared/contracts/documento-armazenado';
import type { FateView } from '@plac/shared/contracts/fate-view';
import type { OperacaoWebhook } from '@plac/shared/domain';
import { describe, expect, it } from 'vitest';
import { deliveryId, entregasDe, type Destinatarios } from './regras';

const CHAVE = '25261111222333000181550010000000071123456785';
const fate: FateView = {
  chave: CHAVE,
  situacao: 'ATIVA',
  uf: 'PB',
  modelo: '55',
  serie: '1',
  numero: '7',
  emissao: '2026-11-20T12:00:00.000Z',
  protocolo: '125260000000001',
  emitente: { cnpj: '11222333000181', nome: 'Indústria Alfa', uf: 'PB' },
  destinatario: { documento: '44555666000199', tipo: 'CNPJ', nome: 'Loja Beta', uf: 'PB' },
  transportador: { documento: '77888999000100', nome: 'Transportes Gama' },
  valorNota: 100_00,
  fatura: { numero: '7', valorOriginal: 100_00, desconto: 0, valorLiquido: 100_00 },
  duplicatas: [{ numero: '001', vencimento: '2026-12-20', valor: 100_00 }],
  cancelamento: null,
};
const docFate: DocumentoArmazenado = { versao: 1, tipo: 'FATE', chave: CHAVE, fate };
const evento = { tpEvento: '110111', descricao: 'Cancelamento', protocolo: '125260000000002', justificativa: 'Erro na emissão da nota', data: '2026-11-21T10:00:00.000Z' };
const docEvento = (comFate = true, transportadorDoc: string | null = '77888999000100', publicadoEm: string | null = null): DocumentoArmazenado => ({
  versao: 1,
  tipo: 'EVENTO',
  chave: CHAVE,
  uf: 'PB',
  evento,
  fate: comFate ? { emitenteCnpj: '11222333000181', transportadorDoc, publicadoEm } : null,
});

function destinatarios(over: Partial<Destinatarios> & { ops?: Record<string, OperacaoWebhook[]> } = {}): Destinatarios {
  const ops = over.ops ?? {};
  return {
    monitoram: [],
    sacador: [],
    transporte: [],
    razaoSocial: new Map(Object.keys(ops).map((c) => [c, `Empresa ${c}`])),
    ...over,
    configuradas: new Map(Object.entries(ops).map(([c, o]) => [c, new Set(o)])),
  };
}

const resumo = (entregas: ReturnType<typeof entregasDe>) => entregas.map((e) => [e.operacao, e.clienteId, e.dependeDe ?? null]);

describe('producers: fan-out rules', () => {
  it('a Fat-e goes as ESCR_FAT to the drawer consent’s IMF clients and as TRANSPORTE_FAT to the carrier consent’s, only where configured', () => {
    const d = destinatarios({
      sacador: ['imf-1', 'imf-2', 'imf-3'],
      transporte: ['imf-2', 'imf-4'],
      monitoram: ['mon-1'],
      ops: { 'imf-1': ['ESCR_FAT'], 'imf-2': ['ESCR_FAT', 'TRANSPORTE_FAT'], 'imf-3': ['EVENTO'], 'imf-4': ['TRANSPORTE_FAT'], 'mon-1': ['EVENTO'] },
    });
    const entregas = entregasDe(docFate, d);
    expect(resumo(entregas)).toEqual([
      ['ESCR_FAT', 'imf-1', null],
      ['ESCR_FAT', 'imf-2', null],
      ['TRANSPORTE_FAT', 'imf-2', null],
      ['TRANSPORTE_FAT', 'imf-4', null],
    ]);
    expect(entregas[0]).toMatchObject({
      deliveryId: `1-${CHAVE}-imf-1`,
      razaoSocial: 'Empresa imf-1',
      descricao: `Fat-e 7/1 de Indústria Alfa (${CHAVE})`,
      payload: { versao: 1, tipo: 'FATE', operacao: 'ESCR_FAT', chave: CHAVE, uf: 'PB', fate },
    });
  });

  it('a Fat-e without a carrier makes no TRANSPORTE_FAT', () => {
    const d = destinatarios({ transporte: ['imf-4'], ops: { 'imf-4': ['TRANSPORTE_FAT'] } });
    expect(entregasDe({ ...docFate, fate: { ...fate, transportador: null } }, d)).toEqual([]);
  });

  it('an event goes as EVENTO to the clients monitoring its key, and to the consents’ clients after their Fat-e delivery', () => {
    const d = destinatarios({
      monitoram: ['mon-1', 'mon-2'],
      sacador: ['imf-1', 'imf-2'],
      transporte: ['imf-4'],
      ops: { 'mon-1': ['EVENTO'], 'mon-2': [], 'imf-1': ['ESCR_FAT', 'ESCR_EVENTO'], 'imf-2': ['ESCR_EVENTO'], 'imf-4': ['TRANSPORTE_FAT', 'TRANSPORTE_EVENTO'] },
    });
    const entregas = entregasDe(docEvento(), d);
    expect(resumo(entregas)).toEqual([
      ['EVENTO', 'mon-1', null],
      // imf-1 receives the Fat-e: its event waits for that delivery; imf-2 does not, so nothing to wait for.
      ['ESCR_EVENTO', 'imf-1', `1-${CHAVE}-imf-1`],
      ['ESCR_EVENTO', 'imf-2', null],
      ['TRANSPORTE_EVENTO', 'imf-4', `3-${CHAVE}-imf-4`],
    ]);
    expect(entregas[0]).toMatchObject({
      deliveryId: `0-${CHAVE}-110111-mon-1`,
      descricao: `Cancelamento da chave ${CHAVE}`,
      payload: { versao: 1, tipo: 'EVENTO', operacao: 'EVENTO', chave: CHAVE, uf: 'PB', evento },
    });
  });

  it('an event whose Fat-e is not stored goes only to the monitoring clients; one without a carrier makes no TRANSPORTE_EVENTO', () => {
    const d = destinatarios({
      monitoram: ['mon-1'],
      sacador: ['imf-1'],
      transporte: ['imf-4'],
      ops: { 'mon-1': ['EVENTO'], 'imf-1': ['ESCR_EVENTO'], 'imf-4': ['TRANSPORTE_EVENTO'] },
    });
    expect(resumo(entregasDe(docEvento(false), d))).toEqual([['EVENTO', 'mon-1', null]]);
    expect(resumo(entregasDe(docEvento(true, null), d))).toEqual([['EVENTO', 'mon-1', null], ['ESCR_EVENTO', 'imf-1', null]]);
  });

  it('an event waits for its Fat-e’s delivery only while that may be in flight (published less than 48 h before)', () => {
    const d = destinatarios({ sacador: ['imf-1'], ops: { 'imf-1': ['ESCR_FAT', 'ESCR_EVENTO'] } });
    const agora = new Date('2026-11-23T12:00:00Z');
    expect(resumo(entregasDe(docEvento(true, null, '2026-11-22T12:00:01Z'), d, agora))).toEqual([['ESCR_EVENTO', 'imf-1', `1-${CHAVE}-imf-1`]]);
    expect(resumo(entregasDe(docEvento(true, null, '2026-11-21T12:00:00Z'), d, agora))).toEqual([['ESCR_EVENTO', 'imf-1', null]]);
  });

  it('each evidence event (a manifestation, a second correction letter, a return) has its own delivery id, the same each time', () => {
    const d = destinatarios({ monitoram: ['mon-1'], sacador: ['imf-1'], ops: { 'mon-1': ['EVENTO'], 'imf-1': ['ESCR_FAT', 'ESCR_EVENTO'] } });
    const com = (e: Record<string, unknown>): DocumentoArmazenado => ({ ...docEvento(true, null), evento: { ...evento, justificativa: '', ...e } }) as DocumentoArmazenado;
    const desconhecida = entregasDe(com({ tpEvento: '210220', descricao: 'Desconhecimento da Operação', id: '210220_1', seq: 1, autor: '44555666000199' }), d);
    expect(desconhecida.map((e) => e.deliveryId)).toEqual([`0-${CHAVE}-210220_1-mon-1`, `2-${CHAVE}-210220_1-imf-1`]);
    expect(desconhecida[1]).toMatchObject({ dependeDe: `1-${CHAVE}-imf-1`, descricao: `Desconhecimento da Operação da chave ${CHAVE}` });
    const segundaCarta = entregasDe(com({ tpEvento: '110110', descricao: 'Carta de Correção', id: '110110_2', seq: 2, correcao: 'Placa' }), d);
    expect(segundaCarta[0]!.deliveryId).toBe(`0-${CHAVE}-110110_2-mon-1`);
    const devolucao = com({ tpEvento: 'DEVOLUCAO', descricao: 'Devolução', id: 'DEV_0123456789abcdef', devolucao: { chave: CHAVE, valor: 100 } });
    expect(entregasDe(devolucao, d)[0]!.deliveryId).toBe(`0-${CHAVE}-DEV_0123456789abcdef-mon-1`);
    expect(entregasDe(devolucao, d)).toEqual(entregasDe(devolucao, d));
  });

  it('a Fat-e is never delivered as EVENTO, even to a client monitoring its key', () => {
    expect(entregasDe(docFate, destinatarios({ monitoram: ['mon-1'], ops: { 'mon-1': ['EVENTO'] } }))).toEqual([]);
  });

  it('the same document makes the same deliveries (deterministic ids), a client named twice gets one', () => {
    const d = destinatarios({ sacador: ['imf-1', 'imf-1'], ops: { 'imf-1': ['ESCR_FAT'] } });
    expect(entregasDe(docFate, d)).toEqual(entregasDe(docFate, d));
    expect(entregasDe(docFate, d)).toHaveLength(1);
  });

  it('delivery ids fit the monitoring API (≤ 100 characters of [A-Za-z0-9_-]) whatever the client id', () => {
    const longo = 'c'.repeat(64);
    for (const op of ['EVENTO', 'ESCR_EVENTO', 'TRANSPORTE_EVENTO', 'ESCR_FAT', 'TRANSPORTE_FAT'] as const) {
      const id = deliveryId(op, longo, CHAVE, op.endsWith('EVENTO') ? '110111' : undefined);
      expect(id).toMatch(/^[A-Za-z0-9_-]{1,100}$/);
      expect(id).toBe(deliveryId(op, longo, CHAVE, op.endsWith('EVENTO') ? '110111' : undefined));
    }
    expect(deliveryId('ESCR_EVENTO', 'a', CHAVE, '110111')).not.toBe(deliveryId('ESCR_EVENTO', 'b', CHAVE, '110111'));
    const uuid = '0b9f6c1e-2f4d-4c3a-9a8e-1d2c3b4a5f60';
    expect(deliveryId('TRANSPORTE_EVENTO', uuid, CHAVE, '110111')).toBe(`4-${CHAVE}-110111-${uuid}`);
  });
});
