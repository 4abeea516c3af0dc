import { describe, expect, it } from 'vitest';
import { webhookQueue } from '../../infra/lib/topology';
import { entradaDoLog } from './dispatcher';
import { MAX_TENTATIVAS, SEM_CLIENTE, situacaoApos } from './log-store';

describe('delivery log rules', () => {
  it('a delivery fails for good on the queue’s last receive', () => {
    expect(MAX_TENTATIVAS).toBe(webhookQueue.maxReceiveCount);
    expect(situacaoApos(true, 1)).toBe('ENTREGUE');
    expect(situacaoApos(false, MAX_TENTATIVAS - 1)).toBe('PENDENTE');
    expect(situacaoApos(false, MAX_TENTATIVAS)).toBe('FALHA');
  });

  it('logs the body as sent and never the credentials or the secret', () => {
    const now = new Date('2026-11-23T12:00:00Z');
    const entry = entradaDoLog(
      { deliveryId: 'd1', url: 'https://h.example/x', event: 'ESCR_FAT', payload: { a: 1 }, basicAuth: { user: 'u', password: 'senha' }, signingSecret: 'whsec_abcdefghijklmnop' },
      now,
    );
    expect(entry).toEqual({ deliveryId: 'd1', clienteId: SEM_CLIENTE, operacao: 'ESCR_FAT', descricao: 'ESCR_FAT', body: '{"a":1}', url: 'https://h.example/x', dataCriacao: now.toISOString() });
  });
});
