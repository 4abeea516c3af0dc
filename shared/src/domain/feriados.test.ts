import { describe, expect, it } from 'vitest';
import { UF_EMISSORA_DAE, vencimentoEfetivoDae, vencimentoEmDiaNaoUtil } from './dae';
import { diaUtil, feriados, feriadosDoDia, motivoDiaNaoUtil, pascoa, proximoDiaUtil } from './feriados';
import { FERIADOS_ESTADUAIS } from './feriados-estaduais';
import { UF_SIGLAS } from './uf';

/** Business days for payments (feriados.ts): 2026's calendar, the states' data, and the next business day. */
describe('the holiday calendar', () => {
  it('finds Easter by the Gregorian computus', () => {
    // Published Easter Sundays.
    expect(pascoa(2024)).toBe('2024-03-31');
    expect(pascoa(2025)).toBe('2025-04-20');
    expect(pascoa(2026)).toBe('2026-04-05');
    expect(pascoa(2027)).toBe('2027-03-28');
    expect(pascoa(2038)).toBe('2038-04-25');
    expect(pascoa(2285)).toBe('2285-03-22');
  });

  it('has 2026’s national and bank holidays, and Bahia’s', () => {
    expect(feriados(2026, 'BA').map((f) => [f.data, f.nome, f.ambito])).toEqual([
      ['2026-01-01', 'Confraternização Universal', 'nacional'],
      ['2026-02-16', 'Carnaval (segunda-feira)', 'bancario'],
      ['2026-02-17', 'Carnaval (terça-feira)', 'bancario'],
      ['2026-04-03', 'Sexta-feira Santa', 'nacional'],
      ['2026-04-21', 'Tiradentes', 'nacional'],
      ['2026-05-01', 'Dia do Trabalho', 'nacional'],
      ['2026-06-04', 'Corpus Christi', 'bancario'],
      ['2026-07-02', 'Independência da Bahia', 'estadual'],
      ['2026-09-07', 'Independência do Brasil', 'nacional'],
      ['2026-10-12', 'Nossa Senhora Aparecida', 'nacional'],
      ['2026-11-02', 'Finados', 'nacional'],
      ['2026-11-15', 'Proclamação da República', 'nacional'],
      ['2026-11-20', 'Dia Nacional de Zumbi e da Consciência Negra', 'nacional'],
      ['2026-12-25', 'Natal', 'nacional'],
    ]);
    // Without a state: the national ones only.
    expect(feriados(2026).some((f) => f.ambito === 'estadual')).toBe(false);
  });

  it('makes 20 November national from 2024 on (Lei 14.759/2023)', () => {
    expect(feriadosDoDia('2023-11-20')).toEqual([]);
    expect(feriadosDoDia('2024-11-20').map((f) => f.nome)).toEqual(['Dia Nacional de Zumbi e da Consciência Negra']);
  });

  it('keeps every state’s holidays, each a real day every year, and only the state’s own', () => {
    expect(Object.keys(FERIADOS_ESTADUAIS).sort()).toEqual([...UF_SIGLAS].sort());
    for (const uf of UF_SIGLAS) {
      for (const ano of [2026, 2027, 2028]) {
        for (const f of feriados(ano, uf)) expect(f.data.startsWith(`${ano}-`), `${uf} ${f.nome}`).toBe(true);
      }
    }
    expect(diaUtil('2026-07-09', 'SP')).toBe(false); // Revolução Constitucionalista, a Thursday
    expect(diaUtil('2026-07-09', 'BA')).toBe(true);
    expect(diaUtil('2026-07-02', 'SP')).toBe(true);
    expect(diaUtil('2026-04-13', 'ES')).toBe(false); // Nossa Senhora da Penha: the Monday eight days after Easter
    expect(diaUtil('2026-01-23', 'AC')).toBe(false);
    // Santa Catarina's days are kept on a Sunday: 11 August 2026 is a Tuesday, the holiday is the 16th.
    expect(feriadosDoDia('2026-08-16', 'SC').map((f) => f.nome)).toEqual(['Data Magna de Santa Catarina']);
  });

  it('tells business days: weekdays that are no holiday; Ash Wednesday is one', () => {
    expect(diaUtil('2026-11-27', 'BA')).toBe(true); // Friday
    expect(diaUtil('2026-11-28', 'BA')).toBe(false); // Saturday
    expect(diaUtil('2026-11-29', 'BA')).toBe(false); // Sunday
    expect(diaUtil('2026-11-20', 'BA')).toBe(false); // Friday, Consciência Negra
    expect(diaUtil('2026-02-16', 'BA')).toBe(false);
    expect(diaUtil('2026-02-17', 'BA')).toBe(false);
    expect(diaUtil('2026-02-18', 'BA')).toBe(true); // Ash Wednesday
    expect(diaUtil('2026-04-03', 'BA')).toBe(false);
    expect(diaUtil('2026-06-04', 'BA')).toBe(false);
  });

  it('gives the next business day: the day itself when it is one', () => {
    expect(proximoDiaUtil('2026-11-29', 'BA')).toBe('2026-11-30'); // Sunday → Monday
    expect(proximoDiaUtil('2026-11-28', 'BA')).toBe('2026-11-30'); // Saturday → Monday
    expect(proximoDiaUtil('2026-11-30', 'BA')).toBe('2026-11-30');
    expect(proximoDiaUtil('2026-11-20', 'BA')).toBe('2026-11-23'); // Friday holiday → Monday
    expect(proximoDiaUtil('2026-11-15', 'BA')).toBe('2026-11-16'); // Sunday and holiday
    expect(proximoDiaUtil('2026-02-14', 'BA')).toBe('2026-02-18'); // Saturday before Carnival → Ash Wednesday
    expect(proximoDiaUtil('2026-04-03', 'BA')).toBe('2026-04-06'); // Good Friday → Monday
    expect(proximoDiaUtil('2026-06-04', 'BA')).toBe('2026-06-05'); // Corpus Christi → Friday
    expect(proximoDiaUtil('2026-07-02', 'BA')).toBe('2026-07-03'); // Independência da Bahia (Thursday)
    expect(proximoDiaUtil('2026-07-02', 'SP')).toBe('2026-07-02');
    expect(proximoDiaUtil('2026-12-25', 'BA')).toBe('2026-12-28'); // Christmas Friday → Monday
    expect(proximoDiaUtil('2027-01-01', 'BA')).toBe('2027-01-04'); // New Year Friday → Monday
  });

  it('says why a day is not a business day', () => {
    expect(motivoDiaNaoUtil('2026-11-29', 'BA')).toBe('domingo');
    expect(motivoDiaNaoUtil('2026-11-28', 'BA')).toBe('sábado');
    expect(motivoDiaNaoUtil('2026-11-20', 'BA')).toBe('feriado: Dia Nacional de Zumbi e da Consciência Negra');
    expect(motivoDiaNaoUtil('2026-11-15', 'BA')).toBe('domingo; feriado: Proclamação da República');
    expect(motivoDiaNaoUtil('2026-11-30', 'BA')).toBeNull();
  });

  it('refuses what is not a calendar day', () => {
    expect(() => diaUtil('2026-02-30', 'BA')).toThrow(RangeError);
    expect(() => proximoDiaUtil('30/11/2026', 'BA')).toThrow(RangeError);
  });
});

describe('the DAE’s effective due date', () => {
  it('is counted in the issuing state, Bahia', () => {
    expect(UF_EMISSORA_DAE).toBe('BA');
    expect(vencimentoEfetivoDae('2026-11-29')).toBe('2026-11-30');
    expect(vencimentoEfetivoDae('2026-07-02')).toBe('2026-07-03');
    expect(vencimentoEmDiaNaoUtil('2026-11-29')).toEqual({ motivo: 'domingo', pagavelAte: '2026-11-30' });
    expect(vencimentoEmDiaNaoUtil('2026-12-15')).toBeNull();
  });
});
