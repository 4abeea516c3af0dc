import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Uf } from '@plac/shared/domain';
import { carregarComTrava, carregarUf, type ResultadoCarga } from '../../functions/fate/carga';
import { lerCursor, resumoProcessamentoDa, tomarTravaCarga } from '../../functions/fate/carga-store';
import { sefazLoadStateMachine } from '../../infra/lib/topology';
import { ensureLocalPki } from '../../infra/local/emulators/tls';
import { freePort } from '../../infra/local/emulators/ports';
import { startSefazSimulator, type SefazSimulator } from '../../infra/local/sefaz/simulator';
import { localStateMachines } from '../../infra/local/state-machines';

/**
 * Each UF loads on its own (issue 26 item 1): a São Paulo-sized backlog in one UF (the simulator's
 * volume mode) does not delay the others; each stream's run stops at its time budget and yields; a
 * second run of a stream that is still loading does nothing; the next run goes on where it stopped.
 * (bench/volume.ts `sefazCatchUp` measures the whole catch-up of a 100,000-document backlog.)
 */

const twin = inject('twin');
// The twin's table is shared by every test file: Amazonas is loaded by no other one, and the small
// ones' checks read each stream's last answer, which another file's ingestion cannot move.
const GRANDE: Uf = 'AM';
const PEQUENAS: Uf[] = ['RN', 'PE', 'CE'];
const BACKLOG_GRANDE = 20_000;

describe('Sefaz loads per UF, with a backlog in one', () => {
  let simulator: SefazSimulator;
  const antes = { url: process.env.PLAC_SEFAZ_URL, ufs: process.env.PLAC_SEFAZ_UFS, orcamento: process.env.PLAC_SEFAZ_ORCAMENTO_S };

  beforeAll(async () => {
    const pki = await ensureLocalPki(twin.dataDir);
    const trustDir = twin.env.PLAC_LOCAL_TRUST_DIR!;
    simulator = await startSefazSimulator({
      port: await freePort(),
      dataDir: join(twin.dataDir, 'volume'),
      ufs: [GRANDE, ...PEQUENAS],
      // At most one answer's worth (50): whatever the machine's speed, a small UF is caught up by its first call.
      backlog: 40,
      backlogs: { [GRANDE]: BACKLOG_GRANDE },
      trickle: false,
      tls: { key: pki.serverKeyPem, cert: pki.serverCertPem, ca: [pki.caCertPem, ...readdirSync(trustDir).map((f) => readFileSync(join(trustDir, f), 'utf8'))] },
    });
    process.env.PLAC_SEFAZ_URL = simulator.url;
    process.env.PLAC_SEFAZ_UFS = [GRANDE, ...PEQUENAS].join(',');
    // A run's budget of 5 s: the big backlog needs many runs, the small ones one call.
    process.env.PLAC_SEFAZ_ORCAMENTO_S = '5';
  });
  afterAll(async () => {
    for (const [k, v] of [['PLAC_SEFAZ_URL', antes.url], ['PLAC_SEFAZ_UFS', antes.ufs], ['PLAC_SEFAZ_ORCAMENTO_S', antes.orcamento]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await simulator.stop();
  });

  it('catches up the small UFs in the first run while the big one yields at its budget, and the next run goes on from there', async () => {
    const maquina = localStateMachines().get(sefazLoadStateMachine.id)!;
    // Every stream of every UF is its own item of the Map, none waiting for another.
    const { output } = await maquina.execute({ trigger: 'test' });
    expect(output).toMatchObject({ ufs: 4, recusadas: [] });
    // Each small stream was told it is caught up (its last answer's ultNSU is the simulator's maxNSU).
    for (const uf of PEQUENAS) {
      for (const fluxo of ['nfe', 'cte'] as const) {
        const max = String(simulator.maxNsu(uf, fluxo)).padStart(15, '0');
        expect(await resumoProcessamentoDa(uf, fluxo)).toMatchObject({ ultNSU: max, nsuMax: max });
      }
    }
    const primeiro = (await lerCursor(GRANDE)) ?? 0;
    expect(primeiro).toBeGreaterThan(0);
    expect(primeiro).toBeLessThan(BACKLOG_GRANDE);
    // The monitoring shows how far the big one got.
    expect(await resumoProcessamentoDa(GRANDE)).toMatchObject({ cStat: '138', nsuMax: String(BACKLOG_GRANDE).padStart(15, '0') });

    // The big one's next run goes on from its cursor: new Fat-e, and past where the first stopped (a
    // generated event the store already holds, such as a second cancellation, counts as repeated).
    const segunda = await carregarComTrava(GRANDE, 'nfe', 'segunda', { orcamentoMs: 2_000 });
    expect(segunda).toMatchObject({ situacao: 'carregada' });
    expect(segunda.repetidos).toBeLessThan(segunda.fate);
    expect(segunda.fate).toBeGreaterThan(0);
    expect(Number(segunda.ultNSU)).toBeGreaterThan(primeiro);
  });

  it('runs one load of a stream at a time: a run started while another holds the stream does nothing', async () => {
    const [a, b] = await Promise.all([carregarComTrava(GRANDE, 'nfe', 'execucao-a', { orcamentoMs: 2_000 }), carregarComTrava(GRANDE, 'nfe', 'execucao-b', { orcamentoMs: 2_000 })]);
    const situacoes = [a, b].map((r: ResultadoCarga) => r.situacao).sort();
    expect(situacoes).toEqual(['carregada', 'ocupada']);
    const ocupada = [a, b].find((r) => r.situacao === 'ocupada')!;
    expect(ocupada.chamadas).toBe(0);
    expect([a, b].find((r) => r.situacao === 'carregada')!.fate).toBeGreaterThan(0);
    // The lease is released at the end: the next run may load.
    expect((await carregarComTrava(GRANDE, 'nfe', 'execucao-c', { orcamentoMs: 1_000 })).situacao).not.toBe('ocupada');
  });

  it("lets a retry of the same execution take over the lease its dead attempt left, and no other run (issue 42)", async () => {
    // The attempt of execution D died holding the stream's lease (its budget and margin still to run).
    const agora = new Date();
    expect(await tomarTravaCarga(GRANDE, 'nfe', 'execucao-d', new Date(agora.getTime() + 330_000), agora)).toBe(true);
    expect((await carregarComTrava(GRANDE, 'nfe', 'execucao-e', { orcamentoMs: 1_000 })).situacao).toBe('ocupada');
    // D's Retry (a new invocation, the same execution) loads at once.
    const retry = await carregarComTrava(GRANDE, 'nfe', 'execucao-d', { orcamentoMs: 1_000 });
    expect(retry.situacao).not.toBe('ocupada');
    expect(retry.chamadas).toBeGreaterThan(0);
  });

  it('waits the hour the service asks after a caught-up answer (ultNSU = maxNSU) before asking that stream again', async () => {
    const hora = 60 * 60_000;
    const emDia = await carregarUf('PE', { esperaEmDiaMs: hora });
    expect(emDia).toMatchObject({ situacao: 'carregada', chamadas: 1, cStat: '137' });
    expect(Date.parse((await resumoProcessamentoDa('PE'))!.aguardarAte!)).toBeGreaterThan(Date.now() + hora - 60_000);
    simulator.addDocuments('PE', 3);
    expect(await carregarUf('PE', { esperaEmDiaMs: hora })).toMatchObject({ situacao: 'aguardando', chamadas: 0 });
    // An hour later it asks again and reaches the three new documents.
    const depois = await carregarUf('PE', { esperaEmDiaMs: hora, agora: () => new Date(Date.now() + hora + 60_000) });
    expect(depois).toMatchObject({ situacao: 'carregada', chamadas: 1, cStat: '138' });
    const max = String(simulator.maxNsu('PE')).padStart(15, '0');
    expect(await resumoProcessamentoDa('PE')).toMatchObject({ ultNSU: max, nsuMax: max });
  });
});
