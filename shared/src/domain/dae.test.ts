import { describe, expect, it } from 'vitest';
import { fimDoProximoMes, resolverVencimentoDae, vencimentoPadraoDae } from './dae';

/** Spec 2 section 4 "DAE generation" and section 9. */
describe('the DAE due date', () => {
  it('defaults to the 15th of the month after the reference month, or the DAE’s own due date', () => {
    expect(vencimentoPadraoDae('2026-10')).toBe('2026-11-15');
    expect(vencimentoPadraoDae('2026-12')).toBe('2027-01-15');
    expect(vencimentoPadraoDae('2026-10', '2026-12-01')).toBe('2026-12-01');
  });

  it('the end of next month (leap February, December → January)', () => {
    expect(fimDoProximoMes('2026-11-23')).toBe('2026-12-31');
    expect(fimDoProximoMes('2027-12-31')).toBe('2028-01-31');
    expect(fimDoProximoMes('2028-01-10')).toBe('2028-02-29');
    expect(fimDoProximoMes('2026-01-31')).toBe('2026-02-28');
  });

  it('uses the default when it is today or later; a past default asks for a new date', () => {
    expect(resolverVencimentoDae({ mes: '2026-10', hoje: '2026-11-15' })).toEqual({ ok: true, dtVencimento: '2026-11-15' });
    expect(resolverVencimentoDae({ mes: '2026-10', hoje: '2026-11-16' })).toEqual({ ok: false, erro: 'daeVencimentoExpirado', padrao: '2026-11-15' });
    expect(resolverVencimentoDae({ mes: '2026-10', vencimentoDoDae: '2026-11-30', hoje: '2026-11-16' })).toEqual({ ok: true, dtVencimento: '2026-11-30' });
  });

  it('takes a new date from today to the end of next month, both included', () => {
    const r = (pedido: string) => resolverVencimentoDae({ mes: '2026-09', pedido, hoje: '2026-11-23' });
    expect(r('2026-11-23')).toEqual({ ok: true, dtVencimento: '2026-11-23' });
    expect(r('2026-12-31')).toEqual({ ok: true, dtVencimento: '2026-12-31' });
    expect(r('2026-11-22')).toEqual({ ok: false, erro: 'daeVencimentoForaDoPrazo', inicio: '2026-11-23', fim: '2026-12-31' });
    expect(r('2027-01-01')).toMatchObject({ ok: false, erro: 'daeVencimentoForaDoPrazo' });
  });
});
