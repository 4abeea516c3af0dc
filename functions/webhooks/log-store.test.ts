import { describe, expect, it } from 'vitest';
import { webhookQueue } from '../../infra/lib/topology';
import { deliverySchema } from '@plac/shared/contracts/fila-webhooks';
import { entradaDoLog } from './dispatcher';
import { MAX_TENTATIVAS, situacaoApos } from './log-store';

describe('delivery log rules', () => {
  it('a delivery fails for good on the queue’s last receive', () => {
    expect(MAX_TENTATIVAS).toBe(webhookQueue.maxReceiveCount);
    expect(situacaoApos(true, 1)).toBe('ENTREGUE');
    expect(situacaoApos(false, MAX_TENTATIVAS - 1)).toBe('PENDENTE');
    expect(situacaoApos(false, MAX_TENTATIVAS)).toBe('FALHA');
  });

  it('logs the body as sent, the URL it went to and the delivery it waits for, never credentials or secrets', () => {
    const now = new Date('2026-11-23T12:00:00Z');
    const entry = entradaDoLog(
      { deliveryId: 'd1', clienteId: 'c-1', operacao: 'ESCR_EVENTO', payload: { a: 1 }, dependeDe: 'ESCR_FAT:c-1:29' },
      'https://h.example/x',
      now,
    );
    expect(entry).toEqual({
      deliveryId: 'd1',
      clienteId: 'c-1',
      operacao: 'ESCR_EVENTO',
      descricao: 'ESCR_EVENTO',
      body: '{"a":1}',
      url: 'https://h.example/x',
      dependeDe: 'ESCR_FAT:c-1:29',
      dataCriacao: now.toISOString(),
    });
  });

  it('a message names a client or its own URL, and carries no credentials or secret', () => {
    expect(deliverySchema.safeParse({ deliveryId: 'd', operacao: 'EVENTO', payload: {} }).success).toBe(false);
    const parsed = deliverySchema.parse({ deliveryId: 'd', operacao: 'EVENTO', payload: {}, clienteId: 'c', signingSecret: 'whsec_x', basicAuth: { user: 'u', password: 'p' } });
    expect(parsed).not.toHaveProperty('signingSecret');
    expect(parsed).not.toHaveProperty('basicAuth');
  });
});
