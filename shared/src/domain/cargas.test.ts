import { describe, expect, it } from 'vitest';
import { classeInterrupcao, percentualCarregado, statusSefaz, ultimaAtualizacao } from './cargas';

describe('loads', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000).toISOString();

  it('puts a stalled authority in the largest class it passed, and a fresh one in none', () => {
    expect(classeInterrupcao(hoursAgo(1), now)).toBeNull();
    expect(classeInterrupcao(hoursAgo(3), now)).toBeNull();
    expect(classeInterrupcao(hoursAgo(3.5), now)).toBe(3);
    expect(classeInterrupcao(hoursAgo(13), now)).toBe(12);
    expect(classeInterrupcao(hoursAgo(25), now)).toBe(24);
    expect(classeInterrupcao(null, now)).toBeNull();
    expect(classeInterrupcao('not a date', now)).toBeNull();
  });

  it('counts a caught-up load from its newest document, and one still loading from its last call', () => {
    const resumo = { updatedAt: hoursAgo(30), consultadoEm: hoursAgo(0.1) };
    expect(ultimaAtualizacao({ ...resumo, ultNSU: '000000000000300', nsuMax: '000000000000300' })).toBe(resumo.updatedAt);
    expect(ultimaAtualizacao({ ...resumo, ultNSU: '000000000000150', nsuMax: '000000000000300' })).toBe(resumo.consultadoEm);
    expect(classeInterrupcao(ultimaAtualizacao({ ...resumo, ultNSU: '150', nsuMax: '300' }), now)).toBeNull();
    expect(classeInterrupcao(ultimaAtualizacao({ updatedAt: hoursAgo(1), consultadoEm: hoursAgo(13), ultNSU: '150', nsuMax: '300' }), now)).toBe(12);
  });

  it('gives the loaded share with one decimal', () => {
    expect(percentualCarregado('000000000000150', '000000000000300')).toBe(50);
    expect(percentualCarregado(1, 3)).toBe(33.3);
    expect(percentualCarregado(0, 0)).toBe(100);
    expect(percentualCarregado(400, 300)).toBe(100);
  });

  it('names the known codes and says which one it does not know', () => {
    expect(statusSefaz('9501')).toBe('UF não compartilha dados com a Sefaz Virtual');
    expect(statusSefaz('138')).toMatch(/localizado/);
    expect(statusSefaz('777')).toBe('Situação 777');
    expect(statusSefaz(null)).toBe('Ainda não consultada');
  });
});
