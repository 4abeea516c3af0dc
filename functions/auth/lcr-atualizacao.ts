/**
 * The LcrRefresh job's work (lcr-refresh.ts runs it: every 15 minutes, one task per CRL): each CRL a
 * request registered (lcr-compartilhada.ts) is fetched, checked and applied to the table, so that a
 * request reads its revocation by key instead of downloading it.
 *
 * Rules:
 * - The CRL is fetched from its URLs in order (baixar-crl.ts, within CRL_FETCH_TIMEOUT_MS for all of
 *   them, at most CRL_MAX_BYTES) and used only if it parses as a complete base CRL (crl.ts), is signed by
 *   the registered issuer (which must allow cRLSign), is current (thisUpdate not in the future, beyond
 *   five minutes of skew; nextUpdate not past) and is not older than the CRL applied before (an old CRL
 *   served again, over plain http, must not take a revocation back).
 * - Applying writes only what changed: the serials the new CRL adds are put, those it no longer lists
 *   are deleted (the applied list is read through gsi3, keys only), and only then is the CRL's record
 *   updated (aplicadaEm, proximaEm). A task stopped half-way leaves the record as it was: requests keep
 *   reading the CRL applied before (plus some of the new serials), and the next run writes the rest.
 * - When no URL gives a usable CRL, the record only notes the attempt (tentadaEm, ultimaFalha): the CRL
 *   applied before stays in force until its own nextUpdate, as a container's cached CRL did.
 */
import { X509Certificate } from 'node:crypto';
import { BatchWriteCommand, QueryCommand } from '../platform/aws-direto/dynamodb';
import { dynamoDb } from '../platform/aws';
import { config } from '../platform/env';
import { logger } from '../platform/observability';
import { atualizar, chave, consultaDaParticao, consultarParticao, criar, ler } from '../platform/tabela-direta';
import { baixarCrl, type Baixar } from './baixar-crl';
import { parseCrl, type Crl } from './crl';
import { MODELO_LCR, MODELO_LCR_REVOGADO, type LcrRecord } from './modelos';
import { conferirLcr } from './revocation';

/** BatchWriteItem's most per request, and the requests in flight (a CRL's first application writes every entry). */
const POR_LOTE = 25;
const EM_VOO = 8;

export interface ResultadoDaLcr {
  url: string;
  aplicada: boolean;
  revogados?: number;
  inseridos?: number;
  removidos?: number;
  falha?: string;
}

/** Every CRL registered, by its first URL: one partition of gsi1. */
export async function listarLcrs(): Promise<string[]> {
  // Bounded: one item per CRL that a verified chain has named, a few hundred for all of ICP-Brasil.
  return (await consultarParticao<LcrRecord>(MODELO_LCR, 'todas', { todas: 'lcr' })).map((l) => l.url);
}

export interface OpcoesDaAtualizacao {
  now?: Date;
  baixar?: Baixar;
  timeoutMs?: number;
  maxBytes?: number;
}

/** Fetches, checks and applies one registered CRL (the rules above). */
export async function atualizarLcr(url: string, opcoes: OpcoesDaAtualizacao = {}): Promise<ResultadoDaLcr> {
  const now = opcoes.now ?? new Date();
  const lcr = await ler<LcrRecord>(MODELO_LCR, { url }, { consistente: true });
  if (!lcr) return { url, aplicada: false, falha: 'CRL not registered' };
  const emissor = new X509Certificate(lcr.emissorPem);
  const obtida = await obter(lcr, emissor, now, opcoes);
  if ('falha' in obtida) {
    await atualizar(MODELO_LCR, { url }, { tentadaEm: now.toISOString(), ultimaFalha: obtida.falha });
    logger.warn('CRL not refreshed; the one applied before stays in force until its nextUpdate', { url, falha: obtida.falha, proximaEm: lcr.proximaEm });
    return { url, aplicada: false, falha: obtida.falha };
  }
  const { crl } = obtida;
  const aplicados = await serialsAplicados(url);
  const inserir = [...crl.revoked].filter((s) => !aplicados.has(s));
  const remover = [...aplicados].filter((s) => !crl.revoked.has(s));
  await gravarEmLotes([
    ...inserir.map((serial) => ({ PutRequest: { Item: criar(MODELO_LCR_REVOGADO, { url, serial }).Put!.Item } })),
    ...remover.map((serial) => ({ DeleteRequest: { Key: chave(MODELO_LCR_REVOGADO, { url, serial }) } })),
  ]);
  await atualizar(MODELO_LCR, { url }, {
    emitidaEm: crl.thisUpdate.toISOString(),
    proximaEm: crl.nextUpdate.toISOString(),
    escopo: crl.scope,
    aplicadaEm: now.toISOString(),
    tentadaEm: now.toISOString(),
    revogados: crl.revoked.size,
  });
  logger.info('CRL applied', { url, revogados: crl.revoked.size, inseridos: inserir.length, removidos: remover.length });
  return { url, aplicada: true, revogados: crl.revoked.size, inseridos: inserir.length, removidos: remover.length };
}

/** The first URL's usable CRL, or why none was. */
async function obter(lcr: LcrRecord, emissor: X509Certificate, now: Date, opcoes: OpcoesDaAtualizacao): Promise<{ crl: Crl } | { falha: string }> {
  const baixar = opcoes.baixar ?? baixarCrl;
  const prazo = Date.now() + (opcoes.timeoutMs ?? config.crlFetchTimeoutMs);
  const falhas: string[] = [];
  for (const url of lcr.urls) {
    const restante = prazo - Date.now();
    if (restante <= 0) break;
    try {
      const crl = parseCrl(await baixar(url, { timeoutMs: restante, maxBytes: opcoes.maxBytes ?? config.crlMaxBytes }));
      conferirLcr(crl, emissor, now.getTime(), 'the registered issuer');
      if (lcr.emitidaEm && crl.thisUpdate.getTime() < Date.parse(lcr.emitidaEm)) throw new Error('CRL older than the one applied');
      return { crl };
    } catch (error) {
      falhas.push(`${url}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { falha: falhas.join('; ') || 'no URL tried within the deadline' };
}

/** The serials applied for this CRL, from gsi3 (keys only: the serial is the end of its sort key). */
async function serialsAplicados(url: string): Promise<Set<string>> {
  const consulta = consultaDaParticao(MODELO_LCR_REVOGADO, 'daLcr', { url });
  const prefixo = String(consulta.ExpressionAttributeValues[':sk1']);
  const serials = new Set<string>();
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  // Bounded: the job's own read of one CRL's entries (up to a few hundred thousand keys, a page per MB).
  do {
    const pagina = await dynamoDb().send(new QueryCommand({ ...consulta, ExclusiveStartKey }));
    for (const item of pagina.Items ?? []) serials.add(String(item.gsi3sk).slice(prefixo.length));
    ExclusiveStartKey = pagina.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return serials;
}

type Pedido = NonNullable<ConstructorParameters<typeof BatchWriteCommand>[0]['RequestItems']>[string][number];

/**
 * BatchWriteItem 25 at a time, EM_VOO requests in flight; what DynamoDB leaves unprocessed is sent again
 * after a pause (puts and deletes are idempotent). Each serial is its own partition: no hot key.
 */
async function gravarEmLotes(pedidos: Pedido[]): Promise<void> {
  const lotes: Pedido[][] = [];
  for (let i = 0; i < pedidos.length; i += POR_LOTE) lotes.push(pedidos.slice(i, i + POR_LOTE));
  let proximo = 0;
  const trabalhador = async () => {
    while (proximo < lotes.length) {
      let pendentes = lotes[proximo++]!;
      for (let tentativa = 0; pendentes.length > 0; tentativa++) {
        if (tentativa === 8) throw new Error(`BatchWriteItem left ${pendentes.length} CRL entries unprocessed eight times`);
        if (tentativa > 0) await new Promise((r) => setTimeout(r, Math.min(2000, 50 * 2 ** tentativa)));
        const { UnprocessedItems } = await dynamoDb().send(new BatchWriteCommand({ RequestItems: { [config.tableName]: pendentes } }));
        pendentes = UnprocessedItems?.[config.tableName] ?? [];
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(EM_VOO, lotes.length) }, trabalhador));
}
