import { randomInt } from 'node:crypto';
import type { Principal } from '@plac/shared/access';
import { cnpjCheckDigits } from '@plac/shared/domain';
import { describe, expect, it } from 'vitest';
import { avancar, iniciar, registroDoTotal, type FiltroTotal } from '../../functions/consulta/total-transportadoras';
import { shardDe, TRANSPORTADOR_SHARDS } from '../../functions/fate/contagem-entities';
import * as store from '../../functions/fate/store-entities';
import { call } from './http';
import { bearer, tokenFor } from './session';

/**
 * Issue 38 item 2: the carrier report's grand total under a filter is exact at any number of matching
 * carriers. A filter too big for one bounded step is added up by the TotalTransportadoras job (the
 * twin's state machine); the report answers PROCESSANDO meanwhile, an identical request gets the same
 * job, and a step run again from the same record counts nothing twice.
 */

const admin: Principal = { userId: 'total-transp-admin', name: 'Admin', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const cnpj = (base8: string, filial: number) => {
  const first12 = `${base8}${String(filial).padStart(4, '0')}`;
  return `${first12}${cnpjCheckDigits(first12)}`;
};

interface Resposta {
  linhas: unknown[];
  totalGeral?: number;
  situacaoTotalGeral: 'CONCLUIDO' | 'PROCESSANDO';
  totalGeralCalculadoEm?: string;
}

/** Carriers written straight into the registry and their month counters (spread over the shards): their sum. */
async function transportadores(base: string, marca: string, quantos: number, mes: string, foraDoPeriodo: string): Promise<number> {
  const e = store.fateService().entities;
  const registro = Array.from({ length: quantos }, (_, i) => {
    const documento = cnpj(base, i + 1);
    const nome = `${marca} TRANSPORTES ${String(i).padStart(4, '0')}`;
    return { lista: 'transportadores', shard: shardDe(documento, store.REGISTRO_SHARDS), documento, nome, nomeFolded: nome };
  });
  let soma = 0;
  const contadores = registro.flatMap((t, i) => {
    const quantidade = randomInt(1, 10);
    soma += quantidade;
    // One carrier in two has its month in two shards (the read adds them up), and every one a month outside the period.
    const partes = i % 2 === 0 ? [quantidade] : [1, quantidade - 1].filter((q) => q > 0);
    return [
      ...partes.map((q, k) => ({ transportadorDoc: t.documento, shard: (shardDe(t.documento, TRANSPORTADOR_SHARDS) + k) % TRANSPORTADOR_SHARDS, periodo: `M${mes}`, quantidade: q })),
      { transportadorDoc: t.documento, shard: 0, periodo: `M${foraDoPeriodo}`, quantidade: 100 },
    ];
  });
  const r1 = await e.transportador.put(registro).go({ concurrency: 4 });
  const r2 = await e.contagemTransportador.put(contadores).go({ concurrency: 4 });
  expect([...r1.unprocessed, ...r2.unprocessed]).toEqual([]);
  return soma;
}

async function relatorio(corpo: Record<string, unknown>): Promise<Resposta> {
  const got = await call('/api/v1/consulta/qtd-fate-transportadora', {
    method: 'POST',
    headers: { ...bearer(await tokenFor(admin)), 'content-type': 'application/json' },
    body: JSON.stringify(corpo),
  });
  expect(got.status).toBe(200);
  return got.body as Resposta;
}

describe('the carrier report’s grand total under a filter', () => {
  // A month no other test writes (the counters are the carriers' own anyway).
  const ano = 2041 + randomInt(0, 38);
  const mes = `${ano}-0${randomInt(1, 9)}`;
  const seguinte = `${mes.slice(0, 5)}0${Number(mes.slice(5)) + 1}`;
  const mmAaaa = `${mes.slice(5)}/${ano}`;

  it('adds up more than 2,000 carriers matching a name in a job: one job per filter, each step counted once', async () => {
    const base = String(randomInt(10_000_000, 99_999_999));
    const marca = `ZQT${base}`;
    const QUANTOS = 2_050;
    const esperado = await transportadores(base, marca, QUANTOS, mes, seguinte);
    const corpo = { razaoSocialTransportadora: ` ${marca.toLowerCase()} transportes `, dataFaturaIni: mmAaaa, dataFaturaFim: mmAaaa, perPage: 10 };
    const filtro: FiltroTotal = { nome: `${marca} TRANSPORTES`, de: mes, ate: mes };

    // More than one step's carriers: the total is a job's; the answer says it is being computed.
    const primeira = await relatorio(corpo);
    expect(primeira.situacaoTotalGeral).toBe('PROCESSANDO');
    expect(primeira).not.toHaveProperty('totalGeral');
    const job = (await registroDoTotal(filtro))!;
    expect(job).toMatchObject({ situacao: expect.any(String), de: mes, ate: mes, nome: filtro.nome });
    // The request did the first step itself (at most one step's carriers): the job starts past it.
    expect(job.transportadores).toBeLessThanOrEqual(job.situacao === 'CONCLUIDO' ? QUANTOS : QUANTOS - 1);
    expect(job.soma).toBeLessThanOrEqual(esperado);

    // The same request again (and a direct start): the same job, never a second one.
    const segunda = await relatorio(corpo);
    expect(['PROCESSANDO', 'CONCLUIDO']).toContain(segunda.situacaoTotalGeral);
    expect((await registroDoTotal(filtro))!.execucao).toBe(job.execucao);
    const outra = await iniciar(filtro, null);
    expect(outra.iniciou).toBe(false);
    expect(outra.registro.execucao).toBe(job.execucao);

    // A step run twice from the same record (a Retry after its write, a duplicate): the second writes nothing.
    const lido = (await registroDoTotal(filtro))!;
    if (lido.situacao === 'PROCESSANDO') {
      await avancar(lido);
      expect(await avancar(lido)).toMatchObject({ aplicado: false });
    }

    // The machine's steps finish it: exactly the counters written, every carrier once, the month outside left out.
    let resposta = segunda;
    for (let vez = 0; resposta.situacaoTotalGeral === 'PROCESSANDO' && vez < 120; vez++) {
      await new Promise((r) => setTimeout(r, 500));
      resposta = await relatorio(corpo);
    }
    expect(resposta).toMatchObject({ situacaoTotalGeral: 'CONCLUIDO', totalGeral: esperado, totalGeralCalculadoEm: expect.any(String) });
    const feito = (await registroDoTotal(filtro))!;
    expect(feito).toMatchObject({ situacao: 'CONCLUIDO', soma: esperado, transportadores: QUANTOS, execucao: job.execucao });
    expect(feito).not.toHaveProperty('posicaoNome');

    // Fresh: answered from the record, not computed again.
    const depois = await relatorio(corpo);
    expect(depois).toMatchObject({ situacaoTotalGeral: 'CONCLUIDO', totalGeral: esperado, totalGeralCalculadoEm: feito.calculadoEm });
    expect((await registroDoTotal(filtro))!.versao).toBe(feito.versao);
  }, 120_000);

  it('answers a filter whose carriers fit in one step at once, exact, with no job (one month by key, two by Query)', async () => {
    const base = String(randomInt(10_000_000, 99_999_999));
    const esperado = await transportadores(base, `ZQP${base}`, 3, mes, seguinte);
    const resposta = await relatorio({ cnpjTransportadora: base, dataFaturaIni: mmAaaa, dataFaturaFim: mmAaaa });
    expect(resposta).toMatchObject({ situacaoTotalGeral: 'CONCLUIDO', totalGeral: esperado });
    expect(resposta).not.toHaveProperty('totalGeralCalculadoEm');
    expect(resposta.linhas).toEqual([]);
    expect(await registroDoTotal({ documento: base, de: mes, ate: mes })).toBeNull();
    // The next month too: each carrier's 100 of it.
    const doisMeses = await relatorio({ cnpjTransportadora: base, dataFaturaIni: mmAaaa, dataFaturaFim: `${seguinte.slice(5)}/${ano}` });
    expect(doisMeses).toMatchObject({ situacaoTotalGeral: 'CONCLUIDO', totalGeral: esperado + 300 });
  });
});
