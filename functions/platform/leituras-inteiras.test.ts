import { describe, expect, it } from 'vitest';
import { fontesDasFuncoes } from './fontes-do-codigo.test-util';

/**
 * Every list is a page and every total a counter (docs/architecture.md, "Lists"). A read of a whole
 * partition (ElectroDB's `pages: 'all'`, or tabela-direta.ts's `consultarParticao`) is allowed only where something other than the platform's
 * growth bounds the partition, and the code says what, in a `// Bounded: …` comment just above it.
 * The reads are listed here by file: a new one fails this test until it is argued in its comment and
 * counted below (and one that is paged away is taken off).
 */
const LEITURAS_INTEIRAS: Record<string, number> = {
  'functions/auth/lcr-atualizacao.ts': 1,
  'functions/cessao/leituras.ts': 1,
  'functions/clientes/store.ts': 3,
  'functions/consentimento/store.ts': 3,
  'functions/consumo/store.ts': 12,
  'functions/fate/evidencia-store.ts': 2,
  'functions/fate/carga-store.ts': 1,
  'functions/fate/emitentes-store.ts': 2,
  'functions/fate/fate-store.ts': 3,
  'functions/fate/historico-store.ts': 1,
  'functions/fate/transportadores-store.ts': 4,
  'functions/dae/store.ts': 1,
  'functions/faturamento/store.ts': 9,
  'functions/instituicoes/store.ts': 1,
  'functions/monitoramento/store.ts': 1,
  'functions/platform/auth/sessions.ts': 2,
  'functions/prepago/store.ts': 6,
  'functions/grupos-rateio/bancos-store.ts': 1,
  'functions/rateio/repasse-store.ts': 1,
  'functions/grupos-rateio/store.ts': 2,
  'functions/servicos/leituras.ts': 1,
  'functions/users/store.ts': 1,
  'functions/webhooks/endpoint-store.ts': 1,
  'functions/webhooks/log-store.ts': 1,
};

const leituras = fontesDasFuncoes().flatMap(({ arquivo, texto }) => {
  const linhas = texto.split('\n');
  const inteira = (linha: string) => linha.includes("pages: 'all'") || (/\bconsultarParticao[<(]/.test(linha) && !/function consultarParticao/.test(linha));
  return linhas.flatMap((linha, i) => (inteira(linha) ? [{ arquivo, linha: i + 1, acima: linhas.slice(Math.max(0, i - 4), i + 1).join('\n') }] : []));
});

describe('whole-partition reads', () => {
  it('each says what bounds it, in a "Bounded:" comment just above it', () => {
    expect(leituras.length).toBeGreaterThan(0);
    expect(leituras.filter((l) => !/\/\/.*\bBounded\b|\*.*\bBounded\b/.test(l.acima)).map((l) => `${l.arquivo}:${l.linha}`)).toEqual([]);
  });

  it('are the ones listed here, file by file: a new one is argued before it lands', () => {
    const porArquivo: Record<string, number> = {};
    for (const l of leituras) porArquivo[l.arquivo] = (porArquivo[l.arquivo] ?? 0) + 1;
    expect(porArquivo).toEqual(LEITURAS_INTEIRAS);
  });
});
