import { QueryCommand, type QueryCommandInput } from '../platform/aws-direto/dynamodb';
import { createConversions } from 'electrodb';
import { porCodigo, toTransportDate } from '@plac/shared/domain';
import { dynamoDb } from '../platform/aws';
import { transactWithRetry } from '../platform/table';
import { paginaIntercalada, type Ler, type Pagina } from '../platform/paginas';
import { EMITENTE_SHARDS, shardDe, shardsAte, TRANSPORTADOR_SHARDS, TRANSPORTE_SHARDS } from './contagem-entities';
import type { Gravacao } from './store-comum';
import { fateAtual, fatePorChave } from './fate-por-chave';
import { db, expiraEm, fateLegado, type FateDuplicataRecord, type FateRecord } from './store-entities';
import { registroDe } from './transportadores-store';

export { fateAtual, fatePorChave } from './fate-por-chave';

/**
 * The Fat-e aggregate: the document, its instalment items and its links (docs/data-model.md, "Fat-e").
 * - a Fat-e by access key (table key); its cancellation event and its summary share that partition;
 * - an issuer's and a carrier's Fat-e by emission instant: small link items in the issuer's and the
 *   carrier's partitions (contagem-entities.ts), not secondary indexes, so the Fat-e is stored once;
 * - the composite-key look-up (issuer, recipient, due date, value, instalment number): the instalment
 *   item's table key, so one Query answers it (several Fat-e may share a composite: sort by key); one
 *   small item per instalment written in the Fat-e's transaction;
 * - the same look-up without the instalment number: an index of the instalment items (issuer,
 *   recipient, due date and value; sort number + key), so it too is one Query of one partition.
 * The Fat-e and its instalments are one conditional transaction, so writing the same document twice
 * changes nothing; its counters and links follow its `contagem` mark, moved by the counting
 * transaction (`contabilizar`) exactly once per status.
 */

/** A transaction that lost only on its conditions (the items exist) is a repeat; anything else is a failure. */
function settle(result: { canceled: boolean; data: { rejected: boolean; code: string; message?: string }[] }): Gravacao {
  if (!result.canceled) return 'criado';
  const rejected = result.data.filter((d) => d.rejected || d.code !== 'None');
  if (rejected.length > 0 && rejected.every((d) => d.code === 'ConditionalCheckFailed')) return 'existente';
  throw new Error(`transaction cancelled: ${rejected.map((d) => `${d.code} ${d.message ?? ''}`).join('; ')}`);
}

/** The instalment items of a Fat-e, keyed from the Fat-e's own fields. */
function itensDuplicata(record: FateRecord): FateDuplicataRecord[] {
  return record.duplicatas.map((d) => ({
    emitenteCnpj: record.emitenteCnpj,
    destinatarioDoc: record.destinatarioDoc,
    vencimento: d.vencimento,
    valor: d.valor,
    numero: d.numero,
    chave: record.chave,
    status: record.status,
    uf: record.uf,
    ...(record.expiresAt !== undefined ? { expiresAt: record.expiresAt } : {}),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }));
}

/** Carriers this process has already registered: the registry item is written once per carrier, not per Fat-e. */
const transportadoresRegistrados = new Set<string>();

/**
 * The Fat-e and one item per instalment in one transaction; the same key a second time changes nothing.
 * Then, also on a repeat (a run that stopped between the writes completes them): its carrier is
 * registered (an idempotent put) and it is counted and linked (`contabilizar`, once per Fat-e).
 */
export async function gravarFate(record: FateRecord): Promise<Gravacao> {
  const item: FateRecord = { ...record, expiresAt: record.expiresAt ?? expiraEm(record.emissao) };
  const result = await db()
    .transaction.write(({ fate: f, fateDuplicata: d }) => [f.create(item).commit(), ...itensDuplicata(item).map((dup) => d.create(dup).commit())])
    .go();
  const gravacao = settle(result);
  if (item.transportadorDoc && !transportadoresRegistrados.has(item.transportadorDoc)) {
    const nome = item.transportadorNome ?? '';
    await db().entities.transportador.put(registroDe(item.transportadorDoc, nome)).go();
    transportadoresRegistrados.add(item.transportadorDoc);
  }
  await contabilizar(item.chave);
  return gravacao;
}

/**
 * Bulk load for benchmarks (bench/volume.ts): active Fat-e written as the loader and the counting
 * transaction together leave them (Fat-e marked counted, instalments, links, counters added up per
 * item), by BatchWriteItem without conditions. Never used by a request path: it is not idempotent.
 */
export async function carregarFatesEmMassa(records: readonly FateRecord[]): Promise<void> {
  const e = db().entities;
  const fates = records.map((r) => ({ ...r, status: 'ATIVA' as const, contagem: 'ATIVA' as const, expiresAt: r.expiresAt ?? expiraEm(r.emissao) }));
  const emitentes = new Map<
    string,
    { emitenteCnpj: string; modelo: string; shard: number; periodo: string; quantidade: number; valor: number; emitenteNome: string; uf: string; expiresAt: number }
  >();
  const transportadores = new Map<string, { transportadorDoc: string; shard: number; periodo: string; quantidade: number; expiresAt: number }>();
  const transporte = new Map<string, { mes: string; shard: number; quantidade: number }>();
  for (const f of fates) {
    const dia = toTransportDate(f.emissao);
    // The shards the counting transaction would choose for this Fat-e (its key's hash).
    const shard = shardDe(f.chave, EMITENTE_SHARDS);
    for (const periodo of [`D${dia}`, `M${dia.slice(0, 7)}`]) {
      const k = `${f.emitenteCnpj}|${f.modelo}|${shard}|${periodo}`;
      const c = emitentes.get(k) ?? { emitenteCnpj: f.emitenteCnpj, modelo: f.modelo, shard, periodo, quantidade: 0, valor: 0, emitenteNome: f.emitenteNome, uf: f.uf, expiresAt: f.expiresAt + 32 * 86_400 };
      emitentes.set(k, { ...c, quantidade: c.quantidade + 1, valor: c.valor + f.valorNota });
      if (f.transportadorDoc) {
        const shardT = shardDe(f.chave, TRANSPORTADOR_SHARDS);
        const kt = `${f.transportadorDoc}|${shardT}|${periodo}`;
        const t = transportadores.get(kt) ?? { transportadorDoc: f.transportadorDoc, shard: shardT, periodo, quantidade: 0, expiresAt: f.expiresAt + 32 * 86_400 };
        transportadores.set(kt, { ...t, quantidade: t.quantidade + 1 });
      }
    }
    if (f.transportadorDoc) {
      const mes = dia.slice(0, 7);
      const t = { mes, shard: shardDe(f.chave, TRANSPORTE_SHARDS) };
      const k = `${t.mes}|${t.shard}`;
      transporte.set(k, { ...t, quantidade: (transporte.get(k)?.quantidade ?? 0) + 1 });
    }
  }
  const lotes: { unprocessed: unknown[] }[] = await Promise.all([
    e.fate.put(fates).go({ concurrency: 4 }),
    e.fateDuplicata.put(fates.flatMap(itensDuplicata)).go({ concurrency: 4 }),
    e.fateDoEmitente.put(fates.map((f) => ({ emitenteCnpj: f.emitenteCnpj, emissao: f.emissao, chave: f.chave, modelo: f.modelo, expiresAt: f.expiresAt }))).go({ concurrency: 4 }),
    e.fateDoTransportador
      .put(fates.filter((f) => f.transportadorDoc).map((f) => ({ transportadorDoc: f.transportadorDoc!, shard: shardDe(f.chave, TRANSPORTADOR_SHARDS), emissao: f.emissao, chave: f.chave, expiresAt: f.expiresAt })))
      .go({ concurrency: 4 }),
  ]);
  const perdidos = lotes.reduce((s, l) => s + l.unprocessed.length, 0);
  if (perdidos > 0) throw new Error(`${perdidos} items were not written`);
  await Promise.all([
    ...[...emitentes.values()].map(({ quantidade, valor, ...k }) => e.contagemEmitente.upsert(k).add({ quantidade, valor }).go()),
    ...[...transportadores.values()].map(({ quantidade, ...k }) => e.contagemTransportador.upsert(k).add({ quantidade }).go()),
    ...[...transporte.values()].map(({ quantidade, ...k }) => e.contagemTransporte.upsert({ lista: 'transporte', ...k }).add({ quantidade }).go()),
    ...[...new Map(fates.filter((f) => f.transportadorDoc).map((f) => [f.transportadorDoc!, f.transportadorNome ?? ''])).entries()].map(([documento, nome]) =>
      e.transportador.put(registroDe(documento, nome)).go(),
    ),
  ]);
}

type MarcaContagem = NonNullable<FateRecord['contagem']>;

/**
 * Brings the counters and links of a Fat-e in line with its status, exactly once: one transaction
 * moves the Fat-e's `contagem` mark on the condition that it still holds what was read, together
 * with every counter and link it implies. First time (no mark): the issuer and carrier links are
 * written, the carrier's counters add one, and, when it is active, the issuer's add it (quantity and
 * value). Later, an active Fat-e that was cancelled: the issuer's counters take it out and the
 * carrier's count it as cancelled. A lost condition (another process moved the mark) reads again.
 */
export async function contabilizar(chave: string): Promise<void> {
  for (let tentativa = 1; tentativa <= 5; tentativa++) {
    const f = await fateAtual(chave);
    if (!f || f.contagem === f.status || f.contagem === 'CANCELADA') return;
    const result = await transactWithRetry(() => db().transaction.write((e) => itensDaContagem(e, f, f.status)).go(), 8);
    if (!result.canceled) return;
    const motivos = (result.data as { code?: string }[]).map((d) => d.code ?? 'None');
    if (!motivos.every((m) => m === 'None' || m === 'ConditionalCheckFailed')) throw new Error(`counting ${chave} was cancelled: ${motivos.join(', ')}`);
  }
  throw new Error(`counting ${chave}: its mark kept moving`);
}

type Entities = Parameters<Parameters<ReturnType<typeof db>['transaction']['write']>[0]>[0];

function itensDaContagem(e: Entities, f: FateRecord, alvo: MarcaContagem) {
  const dia = toTransportDate(f.emissao);
  const mes = dia.slice(0, 7);
  const primeira = f.contagem === undefined;
  const expiresAt = f.expiresAt ?? expiraEm(f.emissao);
  // Counters of a month outlive its last Fat-e by the month's length.
  const expiraContador = expiresAt + 32 * 86_400;
  const sinal = primeira ? 1 : -1;
  const itens = [
    e.fate
      .patch({ chave: f.chave })
      .set({ contagem: alvo })
      .where((attr, op) => `${primeira ? op.notExists(attr.contagem) : op.eq(attr.contagem, 'ATIVA')} AND ${op.eq(attr.status, alvo)}`)
      .commit(),
  ];
  if (primeira) itens.push(e.fateDoEmitente.put({ emitenteCnpj: f.emitenteCnpj, emissao: f.emissao, chave: f.chave, modelo: f.modelo, expiresAt }).commit());
  // The issuer's counters hold active Fat-e only: added when first counted active, taken out when cancelled.
  // Both in the shard of the Fat-e's key: its removal on cancellation takes it from the shard that counted it.
  if (primeira ? alvo === 'ATIVA' : true) {
    const shard = shardDe(f.chave, EMITENTE_SHARDS);
    for (const periodo of [`D${dia}`, `M${mes}`]) {
      itens.push(
        e.contagemEmitente
          .upsert({ emitenteCnpj: f.emitenteCnpj, modelo: f.modelo, shard, periodo, emitenteNome: f.emitenteNome, uf: f.uf, expiresAt: expiraContador })
          .add({ quantidade: sinal, valor: sinal * f.valorNota })
          .commit(),
      );
    }
  }
  if (f.transportadorDoc) {
    const doc = f.transportadorDoc;
    const shardT = shardDe(f.chave, TRANSPORTADOR_SHARDS);
    if (primeira) {
      itens.push(e.fateDoTransportador.put({ transportadorDoc: doc, shard: shardT, emissao: f.emissao, chave: f.chave, expiresAt }).commit());
      const shard = shardDe(f.chave, TRANSPORTE_SHARDS);
      itens.push(e.contagemTransporte.upsert({ lista: 'transporte', shard, mes, expiresAt: expiraContador }).add({ quantidade: 1 }).commit());
    }
    for (const periodo of [`D${dia}`, `M${mes}`]) {
      const soma = primeira ? { quantidade: 1, canceladas: alvo === 'CANCELADA' ? 1 : 0 } : { canceladas: 1 };
      itens.push(e.contagemTransportador.upsert({ transportadorDoc: doc, shard: shardT, periodo, expiresAt: expiraContador }).add(soma).commit());
    }
  }
  return itens;
}

/** Records that the Fat-e's domain event was published (the outbox mark: a later repeat publishes nothing). */
export async function marcarFatePublicada(chave: string, em: string): Promise<void> {
  await db().entities.fate.patch({ chave }).set({ publicadoEm: em }).go();
}

/**
 * Marks an active Fat-e and its instalment items cancelled, in one transaction. Answers `ausente` when
 * no Fat-e has that key, and `protocoloDivergente` (changing nothing) when the cancellation names
 * another authorisation protocol than the Fat-e's (`protocoloDocumento`; the protocol is written once,
 * at creation, so the read cannot be stale); a Fat-e already cancelled is left as it is.
 */
export async function cancelarFate(
  chave: string,
  cancelamento: { data: string; protocolo: string; protocoloDocumento?: string | undefined },
): Promise<'cancelada' | 'ausente' | 'protocoloDivergente'> {
  const atual = await fatePorChave(chave);
  if (!atual) return 'ausente';
  if (cancelamento.protocoloDocumento && atual.protocolo && atual.protocolo !== cancelamento.protocoloDocumento) return 'protocoloDivergente';
  // Already cancelled: only its counters may be behind (a run that stopped between the two writes).
  if (atual.status === 'CANCELADA') {
    await contabilizar(chave);
    return 'cancelada';
  }
  const now = new Date().toISOString();
  const result = await db()
    .transaction.write(({ fate: f, fateDuplicata: d }) => [
      f
        .patch({ chave })
        .set({ status: 'CANCELADA', canceladaEm: cancelamento.data, protocoloCancelamento: cancelamento.protocolo, updatedAt: now })
        .where((attr, op) => op.eq(attr.status, 'ATIVA'))
        .commit(),
      ...itensDuplicata(atual).map((item) =>
        d
          .patch({ emitenteCnpj: item.emitenteCnpj, destinatarioDoc: item.destinatarioDoc, vencimento: item.vencimento, valor: item.valor, numero: item.numero, chave })
          .set({ status: 'CANCELADA', updatedAt: now })
          .commit(),
      ),
    ])
    .go();
  // Lost only to a concurrent cancellation: the Fat-e is cancelled either way.
  settle(result);
  await contabilizar(chave);
  return 'cancelada';
}

/** The Fat-e of these keys, in that order (BatchGet, 100 a request; what was left unprocessed is asked again). */
export async function fatesPorChaves(chaves: readonly string[]): Promise<FateRecord[]> {
  if (chaves.length === 0) return [];
  let pendentes = chaves.map((chave) => ({ chave }));
  const lidas = new Map<string, FateRecord>();
  for (let tentativa = 0; pendentes.length > 0 && tentativa < 8; tentativa++) {
    const { data, unprocessed } = await db().entities.fate.get(pendentes).go({ concurrency: 4 });
    for (const f of data) lidas.set(f.chave, f);
    pendentes = unprocessed.map((u) => ({ chave: u.chave }));
  }
  if (pendentes.length > 0) throw new Error(`${pendentes.length} Fat-e were left unprocessed`);
  return chaves.map((c) => lidas.get(c)).filter((f): f is FateRecord => f !== undefined);
}

/** An issuer's newest Fat-e, at most `limite`, newest first: one Query of its links, descending, then the Fat-e (the trial keys). */
export async function fatesRecentesDoEmitente(emitenteCnpj: string, limite: number): Promise<FateRecord[]> {
  const { data } = await db().entities.fateDoEmitente.query.byEmitente({ emitenteCnpj }).go({ order: 'desc', limit: limite });
  return fatesPorChaves(data.map((l) => l.chave));
}

/**
 * One page of the Fat-e of a carrier (service 7) or of an issuer, issued from `de` (inclusive) to `ate`
 * (exclusive), ISO instants, oldest first, then one BatchGet. An issuer's: one Query of its links from
 * `posicao` (the previous page's). A carrier's: its TRANSPORTADOR_SHARDS link partitions and the one of
 * before the shards, merged by (emission, key) (`paginaIntercalada`); `posicao` is then the last link's
 * position. `posicao` is null on the last page.
 */
export async function fatesPorEmissaoPagina(
  dono: { transportadorDoc: string } | { emitenteCnpj: string },
  de: string,
  ate: string,
  limite: number,
  posicao: string | null,
): Promise<{ fates: FateRecord[]; posicao: string | null }> {
  const e = db().entities;
  if ('transportadorDoc' in dono) {
    const pagina = await linksDoTransportador(dono.transportadorDoc, de, ate, limite, posicao);
    return { fates: await fatesPorChaves(pagina.items.map((l) => l.chave)), posicao: pagina.posicao };
  }
  const { data, cursor } = await e.fateDoEmitente.query.byEmitente(dono).between({ emissao: de }, { emissao: ate }).go({ limit: limite, cursor: posicao });
  const chaves = data.filter((l) => l.emissao >= de && l.emissao < ate).map((l) => l.chave);
  return { fates: await fatesPorChaves(chaves), posicao: cursor };
}

type PosicaoDoLink = [emissao: string, chave: string];

async function linksDoTransportador(transportadorDoc: string, de: string, ate: string, limite: number, posicao: string | null): Promise<Pagina<{ emissao: string; chave: string }>> {
  const novo = db().entities.fateDoTransportador;
  const antigo = fateLegado().entities.fateDoTransportadorLegado;
  const fontes: Ler<{ emissao: string; chave: string }>[] = [
    ...shardsAte(TRANSPORTADOR_SHARDS).map(
      (shard): Ler<{ emissao: string; chave: string }> =>
        async (desde, lim) => {
          const { data, cursor } = await novo.query.byTransportador({ transportadorDoc, shard }).between({ emissao: de }, { emissao: ate }).go({ limit: lim, cursor: desde ?? null });
          return { data, cursor };
        },
    ),
    async (desde, lim) => {
      const { data, cursor } = await antigo.query.byTransportador({ transportadorDoc }).between({ emissao: de }, { emissao: ate }).go({ limit: lim, cursor: desde ?? null });
      return { data, cursor };
    },
  ];
  return paginaIntercalada<{ emissao: string; chave: string }, PosicaoDoLink>(fontes, {
    perPage: limite,
    posicao: posicao ?? undefined,
    // `between` is inclusive at both ends; the period ends before `ate`.
    aceita: (l) => l.emissao >= de && l.emissao < ate,
    chave: (l) => [l.emissao, l.chave],
    comparar: (a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0),
    apos: (fonte, [emissao, chave]) =>
      fonte < TRANSPORTADOR_SHARDS
        ? createConversions(novo).byAccessPattern.byTransportador.fromComposite.toCursor({ transportadorDoc, shard: fonte, emissao, chave })!
        : createConversions(antigo).byAccessPattern.byTransportador.fromComposite.toCursor({ transportadorDoc, emissao, chave })!,
    validarChave: (k): k is PosicaoDoLink => Array.isArray(k) && k.length === 2 && typeof k[0] === 'string' && typeof k[1] === 'string',
  });
}

/** An instalment found by the look-up without the number: its Fat-e's key and its number. */
export interface ParcelaAchada {
  chave: string;
  numero: string;
}

/**
 * The instalments of an issuer and a recipient due on a day with a value, whatever their number (service
 * 2 without the instalment number), by key and number: one Query of one gsi3 partition (`bySemNumero`),
 * which holds only those instalments, so its cost does not grow with the recipient's other instalments,
 * and answers their keys only (the index projects nothing else; key and number are the sort key's).
 * Beside it, until infra/migrations/duplicatas-chave.ts has run, the two gsi2 forms of before (whole
 * items): the same partition in gsi2, and the recipient's due dates of that day filtered by issuer and
 * value, as the look-up read them first. An item is in one of the forms; one moved by the migration
 * between the reads could be read twice, so the merge keeps each (key, number) once.
 */
export async function duplicatasSemNumero(c: Omit<ChaveComposta, 'numero'>): Promise<ParcelaAchada[]> {
  const { emitenteCnpj, destinatarioDoc, vencimento, valor } = c;
  const [novos, gsi2, antigos] = await Promise.all([
    // Bounded: the instalments sharing issuer, recipient, due date and value (a handful), nothing else of the recipient's.
    chavesDoIndice(db().entities.fateDuplicata.query.bySemNumero({ emitenteCnpj, destinatarioDoc, vencimento, valor }).params()),
    // Legacy (until infra/migrations/duplicatas-chave.ts has run; then they find nothing and go in a later release).
    fateLegado()
      .entities.fateDuplicataGsi2.query.porGsi2({ emitenteCnpj, destinatarioDoc, vencimento, valor })
      // Bounded: as gsi3's partition, only the items not yet moved.
      .go({ pages: 'all' }),
    fateLegado()
      .entities.fateDuplicataLegado.query.porGsi2({ destinatarioDoc })
      // The old sort key continues after the day (…#chave_…), so the upper bound is the day's last character.
      .between({ vencimento }, { vencimento: `${vencimento}~` })
      .where((attr, op) => `${op.eq(attr.emitenteCnpj, emitenteCnpj)} AND ${op.eq(attr.valor, valor)}`)
      // Bounded: one recipient's instalments due that one day, only those still keyed as before issue 38 (none once migrated).
      .go({ pages: 'all' }),
  ]);
  const porItem = new Map<string, ParcelaAchada>();
  for (const p of novos) porItem.set(`${p.chave}#${p.numero}`, p);
  // ElectroDB lower-cased gsi2's keys (an alphanumeric CNPJ matched in either case there): the item's own
  // attributes must equal the ones asked, as the look-up always required. gsi3's keep their case.
  for (const d of [...gsi2.data, ...(antigos.data as FateDuplicataRecord[])]) {
    if (d.emitenteCnpj === emitenteCnpj && d.destinatarioDoc === destinatarioDoc && d.vencimento === vencimento && d.valor === valor) porItem.set(`${d.chave}#${d.numero}`, { chave: d.chave, numero: d.numero });
  }
  return [...porItem.values()].sort((a, b) => porCodigo(a.chave, b.chave) || porCodigo(a.numero, b.numero));
}

/**
 * The instalments a gsi3 Query finds, read from their sort keys (`…#numero_<n>#chave_<44 digits>`, the
 * values' own case): the index holds the keys only, so ElectroDB cannot make records of them.
 */
async function chavesDoIndice(params: Record<string, unknown>): Promise<ParcelaAchada[]> {
  const achadas: ParcelaAchada[] = [];
  let desde: Record<string, unknown> | undefined;
  do {
    const page = await dynamoDb().send(new QueryCommand({ ...(params as unknown as QueryCommandInput), ...(desde ? { ExclusiveStartKey: desde } : {}) }));
    for (const item of page.Items ?? []) {
      const sk = String(item.gsi3sk);
      const emChave = sk.lastIndexOf('#chave_');
      const emNumero = sk.indexOf('#numero_');
      if (emChave < 0 || emNumero < 0) continue;
      achadas.push({ chave: sk.slice(emChave + '#chave_'.length), numero: sk.slice(emNumero + '#numero_'.length, emChave) });
    }
    desde = page.LastEvaluatedKey;
  } while (desde);
  return achadas;
}

export interface ChaveComposta {
  emitenteCnpj: string;
  destinatarioDoc: string;
  /** YYYY-MM-DD */
  vencimento: string;
  /** Centavos. */
  valor: number;
  numero: string;
}

/** The instalments matching the composite key (one per Fat-e that has it). */
export async function duplicatasPorChaveComposta(key: ChaveComposta): Promise<FateDuplicataRecord[]> {
  // Bounded: the Fat-e sharing one composite key (issuer, recipient, due date, value, number): a handful.
  const { data } = await db().entities.fateDuplicata.query.byComposta(key).go({ pages: 'all' });
  return data;
}
