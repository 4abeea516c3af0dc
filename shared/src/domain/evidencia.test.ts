import { describe, expect, it } from 'vitest';
import { avaliarEvidencia, FLAGS, FLAGS_EVIDENCIA, type EventoDaChave, type FatosDaChave } from './evidencia';

/** The evidence rules (docs/recebivel.md), one fact at a time. */

const HOJE = '2026-09-20';
const base = (f: Partial<FatosDaChave> = {}): FatosDaChave => ({
  situacao: 'ATIVA',
  emissao: '2026-08-10T12:30:00.000Z',
  autorizadaEm: '2026-08-10T12:31:02.000Z',
  valorNota: 300_000,
  valorLiquido: 300_000,
  cancelamento: null,
  parcelas: [
    { numero: '001', vencimento: '2026-09-10', valor: 100_000, cessao: null },
    { numero: '002', vencimento: '2026-10-10', valor: 200_000, cessao: null },
  ],
  eventos: [],
  devolucoes: [],
  ctes: [],
  ...f,
});
let n = 0;
const evento = (tpEvento: EventoDaChave['tpEvento'], dia: string, extra: Partial<EventoDaChave> = {}): EventoDaChave => ({
  tpEvento,
  seq: 1,
  dataEvento: `${dia}T13:00:00.000Z`,
  registradoEm: `${dia}T13:00:05.000Z`,
  protocolo: `89126000000${String(++n).padStart(4, '0')}`,
  autor: '98765432000198',
  ...extra,
});

describe('the manifestation', () => {
  it('none: SEM_MANIFESTACAO', () => {
    const e = avaliarEvidencia(base(), HOJE);
    expect(e.manifestacao).toBeNull();
    expect(e.flags).toContain('SEM_MANIFESTACAO');
  });

  it('each kind raises its flag', () => {
    expect(avaliarEvidencia(base({ eventos: [evento('210200', '2026-08-11')] }), HOJE).flags).toContain('CONFIRMADA_PELO_DESTINATARIO');
    expect(avaliarEvidencia(base({ eventos: [evento('210210', '2026-08-11')] }), HOJE).flags).toContain('CIENCIA_SEM_CONFIRMACAO');
    expect(avaliarEvidencia(base({ eventos: [evento('210220', '2026-08-11')] }), HOJE).flags).toContain('DESCONHECIDA_PELO_DESTINATARIO');
    const naoRealizada = avaliarEvidencia(base({ eventos: [evento('210240', '2026-08-11', { justificativa: 'Pedido desfeito' })] }), HOJE);
    expect(naoRealizada.flags).toContain('OPERACAO_NAO_REALIZADA');
    expect(naoRealizada.manifestacao).toMatchObject({ tpEvento: '210240', justificativa: 'Pedido desfeito', descricao: 'Operação não Realizada' });
  });

  it('a disowning after a confirmation replaces it, keeps both in the history and raises the flags', () => {
    const e = avaliarEvidencia(base({ eventos: [evento('210220', '2026-08-20'), evento('210200', '2026-08-11')] }), HOJE);
    expect(e.manifestacao?.tpEvento).toBe('210220');
    expect(e.manifestacoes.map((m) => m.tpEvento)).toEqual(['210200', '210220']);
    expect(e.flags).toEqual(expect.arrayContaining(['DESCONHECIDA_PELO_DESTINATARIO', 'MANIFESTACAO_ALTERADA']));
    expect(e.flags).not.toContain('CONFIRMADA_PELO_DESTINATARIO');
  });

  it('Ciência then Confirmação: confirmed, not a changed manifestation', () => {
    const e = avaliarEvidencia(base({ eventos: [evento('210210', '2026-08-11'), evento('210200', '2026-08-12')] }), HOJE);
    expect(e.flags).toContain('CONFIRMADA_PELO_DESTINATARIO');
    expect(e.flags).not.toContain('MANIFESTACAO_ALTERADA');
  });
});

describe('delivery, returns, carriage, corrections, assignments', () => {
  it('a delivery proof: ENTREGA_COMPROVADA with receiver; its cancellation (110131 naming it) takes it back', () => {
    const prova = evento('110130', '2026-08-13', { autor: '12345678000195', entrega: { data: '2026-08-13T18:20:00.000Z', documento: '52998224725', nome: 'JOSE' } });
    const comProva = avaliarEvidencia(base({ eventos: [prova] }), HOJE);
    expect(comProva.flags).toContain('ENTREGA_COMPROVADA');
    expect(comProva.entrega).toMatchObject({ data: '2026-08-13T18:20:00.000Z', documentoRecebedor: '52998224725', nomeRecebedor: 'JOSE', protocolo: prova.protocolo });
    const cancelada = avaliarEvidencia(base({ eventos: [prova, evento('110131', '2026-08-14', { protocoloEventoCancelado: prova.protocolo })] }), HOJE);
    expect(cancelada.flags).not.toContain('ENTREGA_COMPROVADA');
    expect(cancelada.entrega).toBeNull();
    expect(cancelada.linhaDoTempo.map((m) => m.etapa)).toContain('ENTREGA_CANCELADA');
  });

  it('a return of part of the value lowers the net value (DEVOLVIDA_PARCIAL); all of it: DEVOLVIDA, net 0; a cancelled return does not count', () => {
    const dev = (valor: number, cancelado = false) => ({ chave: `3526089876543200019855001000000077110203040${valor % 10}`, emitente: { documento: '98765432000198', nome: 'C' }, emissao: '2026-08-15T12:00:00.000Z', valor, cancelado });
    const parcial = avaliarEvidencia(base({ devolucoes: [dev(100_000)] }), HOJE);
    expect(parcial.flags).toContain('DEVOLVIDA_PARCIAL');
    expect(parcial.valorDevolvido).toBe(100_000);
    expect(parcial.valorLiquidoAposDevolucoes).toBe(200_000);
    const total = avaliarEvidencia(base({ devolucoes: [dev(100_000), dev(250_000)] }), HOJE);
    expect(total.flags).toContain('DEVOLVIDA');
    expect(total.valorLiquidoAposDevolucoes).toBe(0);
    const cancelada = avaliarEvidencia(base({ devolucoes: [dev(100_000, true)] }), HOJE);
    expect(cancelada.valorDevolvido).toBe(0);
    expect(cancelada.flags).not.toContain('DEVOLVIDA_PARCIAL');
  });

  it('CT-e, correction letters, assignments, overdue instalments and the cancellation raise their flags', () => {
    const e = avaliarEvidencia(
      base({
        situacao: 'ATIVA',
        ctes: [{ chave: '2926081234567800019557001000004321112345678', emitente: { documento: '11222333000181', nome: 'TRANSP' }, emissao: '2026-08-11T10:00:00.000Z', valor: 5000, cancelado: false }],
        eventos: [evento('110110', '2026-08-11', { correcao: 'Placa' })],
        parcelas: [{ numero: '001', vencimento: '2026-09-10', valor: 300_000, cessao: { cnpjCessionario: '11222333000181', dataCessao: '2026-08-20', valor: 300_000, registradaEm: '2026-08-20T12:00:00.000Z' } }],
      }),
      HOJE,
    );
    expect(e.flags).toEqual(expect.arrayContaining(['CTE_VINCULADO', 'CARTA_CORRECAO', 'PARCELA_CEDIDA', 'PARCELA_VENCIDA']));
    expect(e.parcelas[0]).toMatchObject({ situacao: 'VENCIDA', cessao: { dataCessao: '2026-08-20' } });
    const cancelada = avaliarEvidencia(base({ situacao: 'CANCELADA', cancelamento: { data: '2026-08-30T10:00:00.000Z', protocolo: '1' } }), HOJE);
    expect(cancelada.flags).toContain('CANCELADA');
    expect(cancelada.flags).not.toContain('PARCELA_VENCIDA');
    expect(cancelada.parcelas.every((p) => p.situacao === 'CANCELADA')).toBe(true);
  });

  it('the timeline is in time order, from issue to cancellation, and every flag has a documented rule', () => {
    const e = avaliarEvidencia(
      base({
        eventos: [evento('210200', '2026-08-11'), evento('110130', '2026-08-13', { entrega: { data: '2026-08-13T18:00:00.000Z', documento: '1', nome: 'X' } })],
        ctes: [{ chave: '2926081234567800019557001000004321112345678', emitente: { documento: '1', nome: 'T' }, emissao: '2026-08-12T10:00:00.000Z', valor: 1, cancelado: false }],
        situacao: 'CANCELADA',
        cancelamento: { data: '2026-08-30T10:00:00.000Z', protocolo: '1' },
      }),
      HOJE,
    );
    expect(e.linhaDoTempo.map((m) => m.etapa)).toEqual(['EMITIDA', 'AUTORIZADA', 'MANIFESTADA', 'TRANSPORTADA', 'ENTREGUE', 'CANCELADA']);
    for (const flag of FLAGS) expect(FLAGS_EVIDENCIA[flag].length).toBeGreaterThan(20);
  });
});
