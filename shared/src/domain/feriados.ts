import { addDays } from './dates';
import { FERIADOS_ESTADUAIS, type RegraFeriado } from './feriados-estaduais';
import type { Uf } from './uf';

/**
 * Business days (dias úteis) for payments: the calendar a bank keeps. A day is not a business day when
 * it is a Saturday or a Sunday, a national holiday, a national bank holiday, or a holiday of the state
 * given (the state whose banks collect: for a DAE, the issuing state, UF_EMISSORA_DAE in dae.ts).
 * Days are 'YYYY-MM-DD' calendar days (dates.ts); pure and isomorphic (the API and the screens).
 *
 * National holidays (Lei 662/1949 as amended, Lei 6.802/1980 for 12 October, Lei 14.759/2023 for 20
 * November): 1 January, 21 April, 1 May, 7 September, 12 October, 2 November, 15 November, 20 November
 * (from 2024) and 25 December; and Good Friday (two days before Easter: a religious holiday under Lei
 * 9.093/1995, kept in every state). National bank holidays (the banks close; Resolução CMN 4.880/2020):
 * Carnival Monday and Tuesday (48 and 47 days before Easter) and Corpus Christi (60 days after Easter).
 * Ash Wednesday is a business day (the banks open at noon). State holidays: feriados-estaduais.ts.
 *
 * CTN art. 210, sole paragraph: a time limit only falls due on a business day; so a due date that
 * falls on a non-business day may be paid on the next business day without surcharge, and the banks
 * accept it so (proximoDiaUtil).
 */

export type AmbitoFeriado = 'nacional' | 'bancario' | 'estadual';

export interface Feriado {
  /** 'YYYY-MM-DD'. */
  data: string;
  nome: string;
  ambito: AmbitoFeriado;
}

/** 20 November became a national holiday by Lei 14.759/2023, from 2024 on. */
const CONSCIENCIA_NEGRA_DESDE = 2024;

const NACIONAIS: readonly (RegraFeriado & { nome: string; ambito: AmbitoFeriado; desde?: number })[] = [
  { dia: '01-01', nome: 'Confraternização Universal', ambito: 'nacional' },
  { pascoa: -48, nome: 'Carnaval (segunda-feira)', ambito: 'bancario' },
  { pascoa: -47, nome: 'Carnaval (terça-feira)', ambito: 'bancario' },
  { pascoa: -2, nome: 'Sexta-feira Santa', ambito: 'nacional' },
  { dia: '04-21', nome: 'Tiradentes', ambito: 'nacional' },
  { dia: '05-01', nome: 'Dia do Trabalho', ambito: 'nacional' },
  { pascoa: 60, nome: 'Corpus Christi', ambito: 'bancario' },
  { dia: '09-07', nome: 'Independência do Brasil', ambito: 'nacional' },
  { dia: '10-12', nome: 'Nossa Senhora Aparecida', ambito: 'nacional' },
  { dia: '11-02', nome: 'Finados', ambito: 'nacional' },
  { dia: '11-15', nome: 'Proclamação da República', ambito: 'nacional' },
  { dia: '11-20', nome: 'Dia Nacional de Zumbi e da Consciência Negra', ambito: 'nacional', desde: CONSCIENCIA_NEGRA_DESDE },
  { dia: '12-25', nome: 'Natal', ambito: 'nacional' },
];

const DIA = /^(\d{4})-(\d{2})-(\d{2})$/;

/** 0 = Sunday … 6 = Saturday, of a 'YYYY-MM-DD' (throws on anything else: a rule must never guess). */
function diaDaSemana(data: string): number {
  const m = DIA.exec(data);
  if (!m) throw new RangeError(`not a date: ${data}`);
  addDays(data, 0); // throws on a day that does not exist (2026-02-30)
  const d = new Date(0);
  d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return d.getUTCDay();
}

/**
 * Easter Sunday of a Gregorian year, 'YYYY-MM-DD': the anonymous Gregorian computus (Meeus, Jones and
 * Butcher), exact for every year from 1583.
 */
export function pascoa(ano: number): string {
  if (!Number.isSafeInteger(ano) || ano < 1583 || ano > 9999) throw new RangeError(`year out of range: ${ano}`);
  const a = ano % 19;
  const b = Math.floor(ano / 100);
  const c = ano % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const mes = Math.floor((h + l - 7 * m + 114) / 31);
  const dia = ((h + l - 7 * m + 114) % 31) + 1;
  return `${ano}-${String(mes).padStart(2, '0')}-${String(dia).padStart(2, '0')}`;
}

function dataDaRegra(regra: RegraFeriado, ano: number): string {
  if ('dia' in regra) return `${ano}-${regra.dia}`;
  if ('pascoa' in regra) return addDays(pascoa(ano), regra.pascoa);
  const base = `${ano}-${regra.domingoDesde}`;
  return addDays(base, (7 - diaDaSemana(base)) % 7);
}

const cache = new Map<string, readonly Feriado[]>();

/** The holidays of a year, national and bank ones, plus the state's when a UF is given; by date. */
export function feriados(ano: number, uf?: Uf): readonly Feriado[] {
  const chave = `${ano}-${uf ?? ''}`;
  const guardado = cache.get(chave);
  if (guardado) return guardado;
  const vigente = (f: { desde?: number }) => f.desde === undefined || ano >= f.desde;
  const lista: Feriado[] = [
    ...NACIONAIS.filter(vigente).map((f) => ({ data: dataDaRegra(f, ano), nome: f.nome, ambito: f.ambito })),
    ...(uf ? FERIADOS_ESTADUAIS[uf] : []).filter(vigente).map((f) => ({ data: dataDaRegra(f, ano), nome: f.nome, ambito: 'estadual' as const })),
  ].sort((x, y) => (x.data < y.data ? -1 : x.data > y.data ? 1 : 0));
  cache.set(chave, lista);
  return lista;
}

/** The holidays that fall on a day (usually none; two may coincide). */
export function feriadosDoDia(data: string, uf?: Uf): Feriado[] {
  diaDaSemana(data);
  return feriados(Number(data.slice(0, 4)), uf).filter((f) => f.data === data);
}

/** Whether a day is a business day in that state: a weekday that is no holiday there. */
export function diaUtil(data: string, uf: Uf): boolean {
  const semana = diaDaSemana(data);
  return semana !== 0 && semana !== 6 && feriadosDoDia(data, uf).length === 0;
}

/**
 * The first business day from `data` on: `data` itself when it is one, else the next (CTN art. 210:
 * a due date on a non-business day is payable without surcharge on this day).
 */
export function proximoDiaUtil(data: string, uf: Uf): string {
  let dia = data;
  // At most a weekend next to a run of holidays: a bound, not a real limit.
  for (let i = 0; i < 31; i++, dia = addDays(dia, 1)) if (diaUtil(dia, uf)) return dia;
  throw new Error(`no business day within a month of ${data}`);
}

const FIM_DE_SEMANA: Record<number, string> = { 0: 'domingo', 6: 'sábado' };

/**
 * Why a day is not a business day, in pt-BR for a sentence ('domingo'; 'feriado: Finados'; 'domingo;
 * feriado: Proclamação da República'), or null when it is one.
 */
export function motivoDiaNaoUtil(data: string, uf: Uf): string | null {
  const partes = [FIM_DE_SEMANA[diaDaSemana(data)], ...feriadosDoDia(data, uf).map((f) => `feriado: ${f.nome}`)].filter((p): p is string => p !== undefined);
  return partes.length > 0 ? partes.join('; ') : null;
}
