import { createConversions } from 'electrodb';
import { foldText, porCodigo } from '@plac/shared/domain';
import { shardDe, shardsAte, TRANSPORTADOR_SHARDS, TRANSPORTE_SHARDS } from './contagem-entities';
import { ultimoDia } from './store-comum';
import { db, fateLegado, REGISTRO_SHARDS } from './store-entities';

/**
 * The carriers the Fat-e name: their registry (one item per carrier, in REGISTRO_SHARDS partitions, by
 * document and by folded name) and their counters (Fat-e per carrier and day/month, Fat-e naming any
 * carrier per month). The counters are kept by the counting transaction (fate-store.ts
 * `contabilizar`), so a range look-up reads a few dozen small items whatever the volume; the registry
 * is reference data, bounded by the carriers, not by their Fat-e.
 */

/** A carrier's registry item, in its document's shard. */
export function registroDe(documento: string, nome: string) {
  return { lista: 'transportadores', shard: shardDe(documento, REGISTRO_SHARDS), documento, nome, nomeFolded: foldText(nome).toUpperCase() };
}

export interface Transportador {
  documento: string;
  nome: string;
  nomeFolded: string;
}

const transportadorDe = (t: { documento: string; nome: string; nomeFolded?: string | undefined }): Transportador => ({
  documento: t.documento,
  nome: t.nome,
  nomeFolded: t.nomeFolded ?? foldText(t.nome).toUpperCase(),
});

/**
 * Carriers of the registry, one page: by folded name from a position (`desde`: the name and document
 * to start at, inclusive), or, with `documentoPrefixo`, by document from that prefix. Name filter by
 * substring (`nomeContem`, folded), applied to what was read: each call reads at most `limite` items of
 * each shard (and of the partition of before issue 36, until migrated).
 *
 * The shards are merged in the order DynamoDB keeps them (the sort key's bytes): every item up to the
 * smallest of the last keys read from the shards that have more is known, so the merged page stops
 * there; `fim` says that no shard has more.
 */
export async function transportadoresPagina(p: {
  limite: number;
  desde?: { nomeFolded: string; documento: string } | undefined;
  documentoPrefixo?: string | undefined;
  nomeContem?: string | undefined;
}): Promise<{ itens: Transportador[]; fim: boolean; ultimo: Transportador | null }> {
  type Lido = { documento: string; nome: string; nomeFolded?: string | undefined };
  const entity = db().entities.transportador;
  const antigo = fateLegado().entities.transportadorLegado;
  const porDocumento = p.documentoPrefixo !== undefined;
  const conv = createConversions(entity).byAccessPattern;
  // The sort key as DynamoDB orders it (ElectroDB's key text, compared byte by byte).
  const chave = (t: Lido): Buffer => {
    const k = { lista: 'transportadores', shard: 0, documento: t.documento, nomeFolded: t.nomeFolded ?? foldText(t.nome).toUpperCase() };
    return Buffer.from(String(porDocumento ? conv.all.fromComposite.toKeys(k).sk : conv.byNome.fromComposite.toKeys(k).gsi1sk), 'utf8');
  };
  const ler = async (shard: number | null): Promise<{ data: Lido[]; mais: boolean }> => {
    const opcoes = { limit: p.limite };
    if (porDocumento) {
      const prefixo = { documento: p.documentoPrefixo! };
      const { data, cursor } = await (shard === null
        ? antigo.query.all({}).begins(prefixo).go(opcoes)
        : entity.query.all({ lista: 'transportadores', shard }).begins(prefixo).go(opcoes));
      return { data, mais: cursor !== null };
    }
    const desde = p.desde && { nomeFolded: p.desde.nomeFolded, documento: p.desde.documento };
    const { data, cursor } = await (shard === null
      ? (desde ? antigo.query.byNome({}).gte(desde) : antigo.query.byNome({})).go(opcoes)
      : (desde ? entity.query.byNome({ lista: 'transportadores', shard }).gte(desde) : entity.query.byNome({ lista: 'transportadores', shard })).go(opcoes));
    return { data, mais: cursor !== null };
  };
  const lidas = await Promise.all([...shardsAte(REGISTRO_SHARDS).map((shard) => ler(shard)), ler(null)]);
  let corte: Buffer | null = null;
  for (const l of lidas) {
    const ultimo = l.data.at(-1);
    if (l.mais && ultimo && (corte === null || Buffer.compare(chave(ultimo), corte) < 0)) corte = chave(ultimo);
  }
  // A carrier of before that was registered again since (in its shard, perhaps under a new name, so
  // elsewhere in the order) is shown as the shard holds it: its old item is dropped (after the cut
  // above, which is where that partition's reading stopped).
  const antigos = lidas.at(-1)!.data;
  if (antigos.length > 0) {
    const { data: registrados } = await entity
      .get(antigos.map((t) => ({ lista: 'transportadores', shard: shardDe(t.documento, REGISTRO_SHARDS), documento: t.documento })))
      .go({ concurrency: 4 });
    const jaNaShard = new Set(registrados.map((t) => t.documento));
    lidas.at(-1)!.data = antigos.filter((t) => !jaNaShard.has(t.documento));
  }
  const vistos = new Map<string, { k: Buffer; t: Transportador }>();
  for (const t of lidas.flatMap((l) => l.data)) {
    const k = chave(t);
    if ((corte === null || Buffer.compare(k, corte) <= 0) && !vistos.has(k.toString('latin1'))) vistos.set(k.toString('latin1'), { k, t: transportadorDe(t) });
  }
  const ordenados = [...vistos.values()].sort((a, b) => Buffer.compare(a.k, b.k)).map((v) => v.t);
  const filtrados = p.nomeContem ? ordenados.filter((t) => t.nomeFolded.includes(p.nomeContem!)) : ordenados;
  const fim = corte === null && filtrados.length <= p.limite;
  // Where the reading stopped (the next read starts just past it): the last carrier answered when the
  // page is full, else the last one examined, matching the name or not. A name matched by none of the
  // carriers read still moves the reading on (an empty page that is not the end).
  const ultimo = fim ? null : filtrados.length > p.limite ? filtrados[p.limite - 1]! : (ordenados.at(-1) ?? null);
  return { itens: filtrados.slice(0, p.limite), fim, ultimo };
}

/** A carrier of the registry by document: its shard, else (not yet migrated) the partition of before issue 36. */
export async function transportadorPorDocumento(documento: string): Promise<Transportador | null> {
  const { data } = await db().entities.transportador.get({ lista: 'transportadores', shard: shardDe(documento, REGISTRO_SHARDS), documento }).go();
  const t = data ?? (await fateLegado().entities.transportadorLegado.get({ documento }).go()).data;
  return t ? transportadorDe(t) : null;
}

/**
 * A carrier's counters of the periods from `de` to `ate` (sort key range), from its TRANSPORTADOR_SHARDS
 * partitions and the one of before the shards, in parallel, added up by period.
 */
async function contadoresDoTransportador(transportadorDoc: string, de: string, ate: string): Promise<Map<string, number>> {
  const pages = await Promise.all([
    // Bounded: one shard of one carrier's counters of at most a year (≤ 366 days or 13 months).
    ...shardsAte(TRANSPORTADOR_SHARDS).map((shard) => db().entities.contagemTransportador.query.byTransportador({ transportadorDoc, shard }).between({ periodo: de }, { periodo: ate }).go({ pages: 'all' })),
    // Bounded: the same, counted before the shards.
    fateLegado().entities.contagemTransportadorLegado.query.byTransportador({ transportadorDoc }).between({ periodo: de }, { periodo: ate }).go({ pages: 'all' }),
  ]);
  const porPeriodo = new Map<string, number>();
  for (const d of pages.flatMap((p) => p.data as { periodo: string; quantidade?: number }[])) porPeriodo.set(d.periodo, (porPeriodo.get(d.periodo) ?? 0) + (d.quantidade ?? 0));
  return porPeriodo;
}

/** A carrier's Fat-e per Bahia day in the months `deMes`..`ateMes` (its day counters, shards added up), days with Fat-e only. */
export async function contagemDiariaDoTransportador(transportadorDoc: string, deMes: string, ateMes: string): Promise<{ dia: string; quantidade: number }[]> {
  const porDia = await contadoresDoTransportador(transportadorDoc, `D${deMes}-01`, `D${ultimoDia(ateMes)}`);
  return [...porDia.entries()]
    .filter(([, quantidade]) => quantidade > 0)
    .sort(([a], [b]) => porCodigo(a, b))
    .map(([periodo, quantidade]) => ({ dia: periodo.slice(1), quantidade }));
}

/** A carrier's Fat-e in the months `deMes`..`ateMes` (its month counters, shards added up). */
export async function totalDoTransportador(transportadorDoc: string, deMes: string, ateMes: string): Promise<number> {
  const porMes = await contadoresDoTransportador(transportadorDoc, `M${deMes}`, `M${ateMes}`);
  return [...porMes.values()].reduce((s, n) => s + n, 0);
}

/**
 * Many carriers' Fat-e in the months `deMes`..`ateMes` (their month counters, shards added up), by
 * document. One month: its items by key, a BatchGet of 100 keys (each carrier's 4 shards and its item
 * of before: 20 carriers a request; what was left unprocessed is asked again), as many read units as the
 * 5 Queries of `totalDoTransportador` (one small item each) in a twentieth of the requests. More months:
 * those Queries, 40 carriers at a time (a key per month would read more units than a Query of the range).
 */
export async function totaisDosTransportadores(documentos: readonly string[], deMes: string, ateMes: string): Promise<Map<string, number>> {
  const totais = new Map(documentos.map((d) => [d, 0]));
  if (deMes !== ateMes) {
    for (let i = 0; i < documentos.length; i += 40) {
      const lote = documentos.slice(i, i + 40);
      const lidos = await Promise.all(lote.map((d) => totalDoTransportador(d, deMes, ateMes)));
      for (const [j, d] of lote.entries()) totais.set(d, lidos[j]!);
    }
    return totais;
  }
  const periodo = `M${deMes}`;
  type Chave = { transportadorDoc: string; shard?: number; periodo: string };
  const ler = async (chaves: Chave[], get: (c: Chave[]) => Promise<{ data: { transportadorDoc: string; quantidade?: number | undefined }[]; unprocessed: Chave[] }>) => {
    let pendentes = chaves;
    for (let tentativa = 0; pendentes.length > 0 && tentativa < 8; tentativa++) {
      const { data, unprocessed } = await get(pendentes);
      for (const c of data) totais.set(c.transportadorDoc, (totais.get(c.transportadorDoc) ?? 0) + (c.quantidade ?? 0));
      pendentes = unprocessed;
    }
    if (pendentes.length > 0) throw new Error(`${pendentes.length} carrier counters were left unprocessed`);
  };
  const unicos = [...totais.keys()];
  await Promise.all([
    ler(
      unicos.flatMap((transportadorDoc) => shardsAte(TRANSPORTADOR_SHARDS).map((shard) => ({ transportadorDoc, shard, periodo }))),
      (c) => db().entities.contagemTransportador.get(c as Required<Chave>[]).go({ concurrency: 4 }),
    ),
    ler(
      unicos.map((transportadorDoc) => ({ transportadorDoc, periodo })),
      (c) => fateLegado().entities.contagemTransportadorLegado.get(c).go({ concurrency: 4 }),
    ),
  ]);
  return totais;
}

/**
 * Fat-e naming any carrier in the months `deMes`..`ateMes`: one Query of the months on each of the
 * TRANSPORTE_SHARDS partitions and one on the partition of before issue 36 (until migrated), in
 * parallel, added up (at most 12 items each).
 */
export async function totalTransporte(deMes: string, ateMes: string): Promise<number> {
  const [novos, antigos] = await Promise.all([
    Promise.all(
      shardsAte(TRANSPORTE_SHARDS).map((shard) =>
        db()
          .entities.contagemTransporte.query.byMes({ lista: 'transporte', shard })
          .between({ mes: deMes }, { mes: ateMes })
          // Bounded: one shard's months of at most a year (≤ 12 items).
          .go({ pages: 'all' }),
      ),
    ),
    fateLegado()
      .entities.contagemTransporteLegado.query.byMes({})
      // '~' sorts after the shard suffix, so the last month's shards are inside the range.
      .between({ mes: deMes }, { mes: `${ateMes}~` })
      // Bounded: the months of at most a year, 16 shard items each (≤ 192), and none once migrated.
      .go({ pages: 'all' }),
  ]);
  return [...novos.flatMap((n) => n.data), ...antigos.data].reduce((s, d) => s + (d.quantidade ?? 0), 0);
}
