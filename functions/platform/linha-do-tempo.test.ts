import { describe, expect, it } from 'vitest';
import { HttpError } from './errors';
import { conferirLinhaDoTempo, faseDe, mudarComReleitura, TENTATIVAS, type Regras } from './linha-do-tempo';

type V = { id: string; inicio: string; fim?: string | null; base?: string };
const regras: Regras<V> = {
  id: (v) => v.id,
  mesmaBase: (a, b) => a.base === b.base,
  erros: { vigencia: 'vigenciaFinalInvalida', imutavel: 'tarifacaoImutavel', fimDaVigente: 'vigenciaFinalInvalida', emElaboracao: 'tarifacaoEmElaboracao', alterada: 'tarifacaoAlterada' },
};
const mes = '2026-06';
const antes: V[] = [
  { id: 'a', inicio: '2026-01', fim: '2026-03', base: 'x' },
  { id: 'b', inicio: '2026-04', fim: null, base: 'y' },
];

/** The catalogue key and status a call answers, or 'ok'. */
function resposta(f: () => unknown): string {
  try {
    f();
    return 'ok';
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return `${error.status} ${error.key}`;
  }
}

describe('the versioned monthly timeline (tariffs, revenue-sharing groups)', () => {
  it('places a version in its month: past, in force, to come', () => {
    expect([faseDe(antes[0]!, mes), faseDe(antes[1]!, mes), faseDe({ inicio: '2026-07' }, mes)]).toEqual(['PASSADA', 'VIGENTE', 'FUTURA']);
  });

  it('accepts the current version ended and the next one starting the month after, sorted by start', () => {
    const depois = [{ id: 'c', inicio: '2026-08', base: 'z' }, { ...antes[0]! }, { ...antes[1]!, fim: '2026-07' }];
    expect(conferirLinhaDoTempo(antes, depois, mes, regras).map((v) => v.id)).toEqual(['a', 'b', 'c']);
  });

  it("answers each broken rule with the context's catalogue key, never a 500", () => {
    // A gap, an overlap, an end before the start: 400.
    expect(resposta(() => conferirLinhaDoTempo(antes, [antes[0]!, { ...antes[1]!, fim: '2026-07' }, { id: 'c', inicio: '2026-09' }], mes, regras))).toBe('400 vigenciaFinalInvalida');
    expect(resposta(() => conferirLinhaDoTempo(antes, [antes[0]!, { ...antes[1]!, fim: '2026-07' }, { id: 'c', inicio: '2026-07' }], mes, regras))).toBe('400 vigenciaFinalInvalida');
    expect(resposta(() => conferirLinhaDoTempo([], [{ id: 'c', inicio: '2026-09', fim: '2026-08' }], mes, regras))).toBe('400 vigenciaFinalInvalida');
    // The past is kept: its end, the current one's start and base.
    expect(resposta(() => conferirLinhaDoTempo(antes, [{ ...antes[0]!, fim: '2026-02' }, { ...antes[1]!, inicio: '2026-03' }], mes, regras))).toBe('400 tarifacaoImutavel');
    expect(resposta(() => conferirLinhaDoTempo(antes, [antes[0]!, { ...antes[1]!, base: 'outra' }], mes, regras))).toBe('400 tarifacaoImutavel');
    expect(resposta(() => conferirLinhaDoTempo(antes, [antes[1]!], mes, regras))).toBe('400 tarifacaoImutavel');
    // The current one may not end before this month.
    expect(resposta(() => conferirLinhaDoTempo(antes, [antes[0]!, { ...antes[1]!, fim: '2026-05' }, { id: 'c', inicio: '2026-06' }], mes, regras))).toBe('400 vigenciaFinalInvalida');
    // One version to come at most: 409.
    const duas = [antes[0]!, { ...antes[1]!, fim: '2026-07' }, { id: 'c', inicio: '2026-08', fim: '2026-08' }, { id: 'd', inicio: '2026-09' }];
    expect(resposta(() => conferirLinhaDoTempo(antes, duas, mes, regras))).toBe('409 tarifacaoEmElaboracao');
  });

  it('tries again while another change wins the race, then answers 409 with the context’s key', async () => {
    let vezes = 0;
    await mudarComReleitura(async () => ++vezes === 3, 'tarifacaoAlterada');
    expect(vezes).toBe(3);
    vezes = 0;
    await expect(mudarComReleitura(async () => (vezes++, false), 'grupoRateioAlterado')).rejects.toMatchObject({ status: 409, key: 'grupoRateioAlterado' });
    expect(vezes).toBe(TENTATIVAS);
  });
});
