import { nextMonth, porCodigo } from '@plac/shared/domain';
import { EMITENTE_SHARDS, shardsAte } from './contagem-entities';
import { ultimoDia } from './store-comum';
import { db, fateLegado } from './store-entities';

/**
 * The issuers' counters: quantity and value of active Fat-e per issuer, model and day/month, kept by the
 * counting transaction (fate-store.ts `contabilizar`), so a range look-up reads a few dozen small items
 * whatever the volume (services 4 and 5).
 */

export interface ContagemMes {
  mes: string;
  quantidade: number;
  valor: number;
}

/** The months from `de` to `ate` ('YYYY-MM', both inclusive). */
function mesesEntre(de: string, ate: string): string[] {
  const meses: string[] = [];
  for (let mes = de; mes <= ate; mes = nextMonth(mes)) meses.push(mes);
  return meses;
}

/**
 * An issuer's active Fat-e of one model per month, from day `de` to day `ate` (Bahia days, inclusive):
 * the whole months inside the period from their month counters (one Query), the months cut by its ends
 * from their day counters (one Query each): at most 12 + 62 small items per shard whatever the volume.
 * Each Query is made on every one of the EMITENTE_SHARDS partitions and on the partition of before
 * issue 36 (until migrated), all in parallel (at most 3 × 9 Queries), and the items of one period are
 * added up before anything else: a shard alone may hold a negative count (a migrated counter sits in
 * shard 0, the cancellation of a Fat-e it counted in that Fat-e's shard). Also the issuer's name and UF
 * as of the latest counter with Fat-e.
 */
export async function contagemDoEmitente(
  emitenteCnpj: string,
  modelo: string,
  de: string,
  ate: string,
): Promise<{ meses: ContagemMes[]; emitenteNome: string | null; uf: string | null }> {
  const meses = mesesEntre(de.slice(0, 7), ate.slice(0, 7));
  const inteiros = meses.filter((m) => de <= `${m}-01` && ate >= ultimoDia(m));
  const cortados = meses.filter((m) => !inteiros.includes(m));
  const faixas = [
    ...(inteiros.length ? [{ de: `M${inteiros[0]}`, ate: `M${inteiros[inteiros.length - 1]}` }] : []),
    ...cortados.map((m) => ({ de: `D${de > `${m}-01` ? de : `${m}-01`}`, ate: `D${ate < ultimoDia(m) ? ate : ultimoDia(m)}` })),
  ];
  type Contador = { periodo: string; quantidade?: number | undefined; valor?: number | undefined; emitenteNome?: string | undefined; uf?: string | undefined };
  const ler = async (shard: number | null, faixa: { de: string; ate: string }): Promise<Contador[]> => {
    const intervalo = [{ periodo: faixa.de }, { periodo: faixa.ate }] as const;
    // Bounded: one counter item per whole month of the period (≤ 12), or per day of a cut month (≤ 31).
    const { data } = await (shard === null
      ? // Bounded: as above, in the partition of before the shards.
        fateLegado().entities.contagemEmitenteLegado.query.byEmitente({ emitenteCnpj, modelo }).between(...intervalo).go({ pages: 'all' })
      : // Bounded: as above, one shard.
        db().entities.contagemEmitente.query.byEmitente({ emitenteCnpj, modelo, shard }).between(...intervalo).go({ pages: 'all' }));
    return data;
  };
  const fontes = [...shardsAte(EMITENTE_SHARDS), null];
  const leituras = await Promise.all(faixas.flatMap((faixa) => fontes.map((shard) => ler(shard, faixa))));
  const porPeriodo = new Map<string, { quantidade: number; valor: number; emitenteNome?: string | undefined; uf?: string | undefined }>();
  for (const item of leituras.flat()) {
    const p = porPeriodo.get(item.periodo) ?? { quantidade: 0, valor: 0 };
    porPeriodo.set(item.periodo, {
      quantidade: p.quantidade + (item.quantidade ?? 0),
      valor: p.valor + (item.valor ?? 0),
      emitenteNome: p.emitenteNome ?? item.emitenteNome,
      uf: p.uf ?? item.uf,
    });
  }
  const porMes = new Map<string, ContagemMes>();
  let ultimo: { periodo: string; emitenteNome?: string | undefined; uf?: string | undefined } | null = null;
  for (const [periodo, item] of porPeriodo) {
    if (item.quantidade <= 0) continue;
    const mes = periodo.slice(1, 8);
    const m = porMes.get(mes) ?? { mes, quantidade: 0, valor: 0 };
    porMes.set(mes, { mes, quantidade: m.quantidade + item.quantidade, valor: m.valor + item.valor });
    // The later period (a month compares as its first day) carries the newest name.
    const chave = periodo.length === 8 ? `${periodo.slice(1)}-01` : periodo.slice(1);
    if (!ultimo || chave >= ultimo.periodo) ultimo = { periodo: chave, emitenteNome: item.emitenteNome, uf: item.uf };
  }
  return {
    meses: [...porMes.values()].filter((m) => m.quantidade > 0).sort((a, b) => porCodigo(a.mes, b.mes)),
    emitenteNome: ultimo?.emitenteNome ?? null,
    uf: ultimo?.uf ?? null,
  };
}
