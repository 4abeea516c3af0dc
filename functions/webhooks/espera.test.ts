import { describe, expect, it } from 'vitest';
import { webhookQueue } from '../../infra/lib/topology';
import { esperaApos, esperaConfigurada, MAX_RECEBIMENTOS } from './espera';
import { avisoDePausa, falhaContinua } from './pausa';

/** The waits between the queue's receives of one delivery, in simulated time. */
function cronograma(aleatorio: () => number) {
  const espera = esperaConfigurada({});
  return Array.from({ length: MAX_RECEBIMENTOS - 1 }, (_, i) => esperaApos(i + 1, espera, aleatorio));
}

describe('webhook retry schedule', () => {
  it('is the queue’s: the dead-letter queue comes after the last of MAX_RECEBIMENTOS receives', () => {
    expect(webhookQueue.maxReceiveCount).toBe(MAX_RECEBIMENTOS);
  });

  it('doubles from 1 minute up to 6 hours', () => {
    expect(cronograma(() => 0)).toEqual([60, 120, 240, 480, 960, 1920, 3840, 7680, 15360, 21600, 21600, 21600]);
  });

  it('keeps retrying for at least 24 hours whatever the jitter, and no wait exceeds what SQS allows', () => {
    for (const aleatorio of [() => 0, () => 0.5, () => 0.999_999, Math.random]) {
      const waits = cronograma(aleatorio);
      expect(waits.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(24 * 3600);
      for (const w of waits) expect(w).toBeLessThanOrEqual(43_200);
    }
  });

  it('spreads retries of deliveries that failed together (jitter up to +25 %)', () => {
    const espera = { baseSegundos: 60, maximaSegundos: 21_600 };
    expect(esperaApos(3, espera, () => 0)).toBe(240);
    expect(esperaApos(3, espera, () => 0.999_999)).toBe(300);
    const distintas = new Set(Array.from({ length: 50 }, () => esperaApos(5, espera)));
    expect(distintas.size).toBeGreaterThan(10);
  });

  it('reads a shorter schedule from the environment (the twin’s tests), ignoring nonsense', () => {
    expect(esperaConfigurada({ WEBHOOK_ESPERA_BASE_S: '1', WEBHOOK_ESPERA_MAXIMA_S: '2' })).toEqual({ baseSegundos: 1, maximaSegundos: 2 });
    expect(esperaConfigurada({ WEBHOOK_ESPERA_BASE_S: 'x', WEBHOOK_ESPERA_MAXIMA_S: '0' })).toEqual({ baseSegundos: 60, maximaSegundos: 21_600 });
  });
});

describe('pausing a failing endpoint', () => {
  it('pauses only when the endpoint accepted nothing since the failed delivery was created', () => {
    expect(falhaContinua(null, '2026-11-20T10:00:00.000Z')).toBe(true);
    expect(falhaContinua('2026-11-20T09:58:59.000Z', '2026-11-20T10:00:00.000Z')).toBe(true);
    expect(falhaContinua('2026-11-20T10:00:01.000Z', '2026-11-20T10:00:00.000Z')).toBe(false);
    // The mark is written at most once a minute: one less than a minute before the creation may hide a
    // later success, so it does not pause (the next exhausted delivery will, if nothing succeeded).
    expect(falhaContinua('2026-11-20T09:59:30.000Z', '2026-11-20T10:00:00.000Z')).toBe(false);
  });

  it('tells the client what was paused and where to resume it', () => {
    const aviso = avisoDePausa({ deliveryId: 'd', clienteId: 'c', operacao: 'ESCR_FAT', dataCriacao: '', url: 'https://erp.example/hook', email: 'ti@banco.example' });
    expect(aviso.to).toEqual(['ti@banco.example']);
    expect(aviso.text).toContain('https://erp.example/hook');
    expect(aviso.text).toContain('/app/monitoramento-webhook');
  });
});
