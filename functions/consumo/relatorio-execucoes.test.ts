import { describe, expect, it } from 'vitest';
import { maquinaDa, nomeDaExecucao } from './relatorio-job';

/** The names of a report job's executions (issue 38: a long job goes on in new ones) and the machine they are of. */
describe("a report job's executions", () => {
  it('are named <jobId>-<attempt>, then <jobId>-<attempt>-<n>, always within the 80 characters of a name', () => {
    expect(nomeDaExecucao('det-f1', 2)).toBe('det-f1-2');
    expect(nomeDaExecucao('det-f1', 2, 7)).toBe('det-f1-2-7');
    const longo = 'x'.repeat(76);
    expect(nomeDaExecucao(longo, 1)).toBe(`${longo}-1`);
    for (const [t, n] of [[1, 0], [1, 1], [12, 26_000], [999, 999_999]] as const) {
      const nome = nomeDaExecucao(longo + 'yy', t, n);
      expect(nome.length).toBeLessThanOrEqual(80);
      expect(nome.endsWith(n === 0 ? `-${t}` : `-${t}-${n}`)).toBe(true);
    }
    // Distinct for each attempt and execution.
    expect(new Set([0, 1, 2].flatMap((n) => [1, 2].map((t) => nomeDaExecucao(longo + 'yy', t, n)))).size).toBe(6);
  });

  it("start the next one on their own machine: the ARN from the execution's in AWS, the environment's in the twin", () => {
    expect(maquinaDa({ id: 'arn:aws:states:sa-east-1:111122223333:execution:Relatorio923C38B5-AbC:det-f1-1-3', nome: 'det-f1-1-3' })).toBe(
      'arn:aws:states:sa-east-1:111122223333:stateMachine:Relatorio923C38B5-AbC',
    );
    const antes = process.env.RELATORIO_STATE_MACHINE_ARN;
    process.env.RELATORIO_STATE_MACHINE_ARN = 'arn:aws:states:us-east-1:000000000000:stateMachine:plac-relatorio';
    try {
      expect(maquinaDa({ id: 'Relatorio:det-f1-1', nome: 'det-f1-1' })).toBe('arn:aws:states:us-east-1:000000000000:stateMachine:plac-relatorio');
    } finally {
      if (antes === undefined) delete process.env.RELATORIO_STATE_MACHINE_ARN;
      else process.env.RELATORIO_STATE_MACHINE_ARN = antes;
    }
  });
});

describe("a report job's parts", () => {
  it('double every 2,000 parts up to 128 MiB, so that 10,000 parts hold far more than a CSV of 650 M lines', async () => {
    const { parteDoPasso, PARTES_POR_TAMANHO } = await import('./relatorio-job');
    const MiB = 1024 * 1024;
    expect([0, 1_999, 2_000, 4_000, 6_000, 8_000, 9_999].map((n) => parteDoPasso(n) / MiB)).toEqual([8, 8, 16, 32, 64, 128, 128]);
    let capacidade = 0;
    for (let n = 0; n < 10_000; n++) capacidade += parteDoPasso(n);
    expect(PARTES_POR_TAMANHO).toBe(2_000);
    // 650 M lines at about 130 bytes: 85 GB; the parts hold 2,000 × (8 + 16 + 32 + 64 + 128) MiB, 484 GiB.
    expect(Math.floor(capacidade / 2 ** 30)).toBe(484);
    expect(capacidade).toBeGreaterThan(650e6 * 130 * 5);
  });
});
