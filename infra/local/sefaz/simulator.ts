/**
 * The Sefaz distribution simulator of the local twin (docs/sefaz-simulator.md): one HTTPS server that
 * answers `POST /<UF>/NFeDistribuicaoDFe` like the NF-e distribution service (NFeDistribuicaoDFe),
 * with a per-UF NSU sequence of generated documents (documents.ts), files dropped in an inbox, and
 * faults that a test or a developer turns on per UF.
 *
 * State, under `<dataDir>/sefaz/`:
 *   <UF>/state.json     the seed, the highest NSU and the NSUs that are not plain generated documents
 *   <UF>/inbox/         XML files placed here are served, byte-identical, as the UF's next NSUs
 *   <UF>/served/        where they go afterwards, as `<NSU>-<original name>`
 * A generated document is a pure function of (seed, UF, index), so only these few facts are kept
 * and a restart continues where the sequence was (with the seed it started with).
 */
import { gzipSync } from 'node:zlib';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { isUf, UF_SIGLAS, type Uf } from '@plac/shared/domain';
import { generateDocument, NFE_NAMESPACE, SCHEMA_BY_ROOT } from './documents';

/**
 * Faults, per UF:
 *   '656'        every request is answered cStat 656 (Consumo Indevido), no documents
 *   'stall'      the trickle adds nothing to this UF (the drop folder still works)
 *   '9501'       every request is answered cStat 9501 (the UF does not share its documents), no documents
 *   'malformed'  one-shot: the UF's next NSU is a document cut in half (not well-formed XML)
 *   'schema'     one-shot: the UF's next NSU is an NF-e without `emit` and `cobr` (fails the schema)
 * The one-shot faults append their document when set and leave the UF without a fault.
 */
export type SefazFault = '656' | 'stall' | '9501' | 'malformed' | 'schema';
export const SEFAZ_FAULTS: readonly SefazFault[] = ['656', 'stall', '9501', 'malformed', 'schema'];

/** Status codes of the answers (cStat, xMotivo). 9501 is the simulator's own code. */
export const SEFAZ_STATUS = {
  nenhum: { cStat: '137', xMotivo: 'Nenhum documento localizado' },
  localizados: { cStat: '138', xMotivo: 'Documento(s) localizado(s)' },
  schema: { cStat: '215', xMotivo: 'Rejeição: Falha no schema XML' },
  consumoIndevido: { cStat: '656', xMotivo: 'Rejeição: Consumo Indevido' },
  naoCompartilha: { cStat: '9501', xMotivo: 'Rejeição: UF não compartilha documentos com a plataforma' },
} as const;

/** The most documents in one answer, as in the real service. */
export const MAX_DOCS_PER_ANSWER = 50;
const NSU_DIGITS = 15;

export interface SefazSimulatorOptions {
  port: number;
  host?: string;
  dataDir: string;
  /** Seed of the generated documents of a UF's first start (later starts keep the stored one). Default 1. */
  seed?: number;
  /** The UFs served; default all 27. */
  ufs?: readonly Uf[];
  /** Documents each UF holds on its first start. Default 300. */
  backlog?: number;
  /** `key`/`cert`: the server's; `ca`: the roots a client certificate must chain to. */
  tls: { key: string; cert: string; ca: string | string[] };
  faults?: Partial<Record<Uf, SefazFault>>;
  /** New documents while running: `perTick` per UF every `intervalMs`; `false` turns it off. Default 1 every 5 s. */
  trickle?: { intervalMs: number; perTick?: number } | false;
  /**
   * On a UF's first start with the `stall` fault: how many hours ago its last document was issued, so
   * that a load stalled for that long can be shown at once. Default 0.
   */
  stallHours?: Partial<Record<Uf, number>>;
}

export interface SefazSimulator {
  /** https://localhost:<port> (the server certificate names localhost). */
  url: string;
  /** Sets or clears (`null`) a UF's fault. */
  setFault(uf: Uf, fault: SefazFault | null): void;
  /** The UF's highest NSU. */
  maxNsu(uf: Uf): number;
  /** Adds `count` generated documents to the UF now (what a trickle tick does). */
  addDocuments(uf: Uf, count?: number): void;
  stop(): Promise<void>;
}

type Special = { drop: string } | { spoil: 'malformed' | 'schema' };

/** From generated index `fromIndex` on, document i is issued at atMs + (i - fromIndex) × spacingMs. */
interface ClockSegment {
  fromIndex: number;
  atMs: number;
  spacingMs: number;
}

interface UfState {
  seed: number;
  maxNsu: number;
  /** By NSU: the documents that are not plain generated ones. */
  special: Record<string, Special>;
  /**
   * When the generated documents were issued: the backlog ends at the UF's first start, later ones
   * when they were added. States written before the clock existed have none (fixed 2026-09 dates).
   */
  clock?: ClockSegment[];
}

/** The backlog's documents are this far apart, as in documents.ts. */
const BACKLOG_SPACING_MS = 17 * 60_000;

export const padNsu = (nsu: number) => String(nsu).padStart(NSU_DIGITS, '0');

/** ISO date-time with the -03:00 offset of Brasília. */
const brasiliaNow = () => `${new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 19)}-03:00`;

/** The root element's local name, skipping the XML declaration, comments and processing instructions. */
export function rootElementName(xml: string): string | undefined {
  const text = xml.replace(/^\uFEFF/, '').replace(/<\?[\s\S]*?\?>/g, '').replace(/<!--[\s\S]*?-->/g, '').replace(/<!DOCTYPE[^>]*>/gi, '');
  const match = /<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/.exec(text);
  return match?.[1];
}

const requestParser = new XMLParser({ removeNSPrefix: true, ignoreAttributes: true, parseTagValue: false });

/** Finds the first `distDFeInt` element at any depth (bare, or inside a SOAP envelope). */
function findDistDFeInt(node: unknown): Record<string, unknown> | undefined {
  if (!node || typeof node !== 'object') return undefined;
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === 'distDFeInt' && value && typeof value === 'object') return value as Record<string, unknown>;
    const found = findDistDFeInt(value);
    if (found) return found;
  }
  return undefined;
}

/** What the caller asks: the documents after `ultNSU`, or the one document `NSU` (consNSU). */
export function parseDistRequest(body: string): { ultNSU: number } | { nsu: number } | undefined {
  let parsed: unknown;
  try {
    parsed = requestParser.parse(body, true);
  } catch {
    return undefined;
  }
  const dist = findDistDFeInt(parsed);
  const ult = (dist?.distNSU as { ultNSU?: unknown } | undefined)?.ultNSU;
  if (typeof ult === 'string' && /^\d{1,15}$/.test(ult.trim())) return { ultNSU: Number(ult.trim()) };
  const one = (dist?.consNSU as { NSU?: unknown } | undefined)?.NSU;
  if (typeof one === 'string' && /^\d{1,15}$/.test(one.trim())) return { nsu: Number(one.trim()) };
  return undefined;
}

export async function startSefazSimulator(options: SefazSimulatorOptions): Promise<SefazSimulator> {
  const root = join(options.dataDir, 'sefaz');
  const ufs = [...(options.ufs ?? UF_SIGLAS)];
  const backlog = options.backlog ?? 300;
  const faults = new Map<Uf, SefazFault>();
  const states = new Map<Uf, UfState>();

  const dirs = (uf: Uf) => ({ base: join(root, uf), inbox: join(root, uf, 'inbox'), served: join(root, uf, 'served') });
  const save = (uf: Uf) => {
    const file = join(dirs(uf).base, 'state.json');
    // Written aside and renamed, so a crash never leaves half a state behind.
    writeFileSync(`${file}.tmp`, JSON.stringify(states.get(uf)));
    renameSync(`${file}.tmp`, file);
  };

  for (const uf of ufs) {
    const d = dirs(uf);
    for (const dir of [d.base, d.inbox, d.served]) mkdirSync(dir, { recursive: true });
    const file = join(d.base, 'state.json');
    if (existsSync(file)) {
      states.set(uf, JSON.parse(readFileSync(file, 'utf8')) as UfState);
    } else {
      const stalledMs = options.faults?.[uf] === 'stall' ? (options.stallHours?.[uf] ?? 0) * 3_600_000 : 0;
      const atMs = Date.now() - stalledMs - backlog * BACKLOG_SPACING_MS;
      states.set(uf, { seed: options.seed ?? 1, maxNsu: backlog, special: {}, clock: [{ fromIndex: 0, atMs, spacingMs: BACKLOG_SPACING_MS }] });
      save(uf);
    }
  }

  /** Generated-sequence index of an NSU: its position among the NSUs that are not dropped files. */
  const generatedIndex = (state: UfState, nsu: number) => {
    let drops = 0;
    for (const [key, special] of Object.entries(state.special)) if ('drop' in special && Number(key) < nsu) drops++;
    return nsu - 1 - drops;
  };

  /** Moves the inbox's XML files (by name) into the sequence as its next NSUs. */
  const takeInbox = (uf: Uf) => {
    const d = dirs(uf);
    const names = readdirSync(d.inbox).filter((n) => n.toLowerCase().endsWith('.xml')).sort();
    if (names.length === 0) return;
    const state = states.get(uf)!;
    for (const name of names) {
      const nsu = state.maxNsu + 1;
      const served = `${padNsu(nsu)}-${name}`;
      renameSync(join(d.inbox, name), join(d.served, served));
      state.maxNsu = nsu;
      state.special[String(nsu)] = { drop: served };
    }
    save(uf);
  };

  /** The time one call of addDocuments stands for: a trickle tick (its documents share it). */
  const tickMs = options.trickle ? options.trickle.intervalMs : 5000;

  const addDocuments = (uf: Uf, count = 1) => {
    const state = states.get(uf);
    if (!state) throw new Error(`the simulator does not serve ${uf}`);
    const last = state.clock?.at(-1);
    if (state.clock && last) {
      // New documents are issued now: a new clock segment when the last one does not put them near now.
      const next = generatedIndex(state, state.maxNsu + 1);
      const predicted = last.atMs + (next - last.fromIndex) * last.spacingMs;
      const spacingMs = tickMs / Math.max(count, 1);
      if (last.spacingMs !== spacingMs || Math.abs(predicted - Date.now()) > 60_000) state.clock.push({ fromIndex: next, atMs: Date.now(), spacingMs });
    }
    state.maxNsu += count;
    save(uf);
  };

  /** The issue slot of generated document `index` of the UF, from its clock. */
  const clockOf = (state: UfState) =>
    state.clock
      ? (index: number) => {
          const segment = [...state.clock!].reverse().find((c) => c.fromIndex <= index) ?? state.clock![0]!;
          return { atMs: segment.atMs + (index - segment.fromIndex) * segment.spacingMs, spacingMs: segment.spacingMs };
        }
      : undefined;

  const setFault = (uf: Uf, fault: SefazFault | null) => {
    const state = states.get(uf);
    if (!state) throw new Error(`the simulator does not serve ${uf}`);
    if (fault === 'malformed' || fault === 'schema') {
      state.maxNsu += 1;
      state.special[String(state.maxNsu)] = { spoil: fault };
      save(uf);
      faults.delete(uf);
      return;
    }
    if (fault) faults.set(uf, fault);
    else faults.delete(uf);
  };
  for (const [uf, fault] of Object.entries(options.faults ?? {})) if (isUf(uf)) setFault(uf, fault);

  /** The NSU's document as served: bytes and schema attribute. */
  const documentAt = (uf: Uf, nsu: number): { bytes: Buffer; schema: string } => {
    const state = states.get(uf)!;
    const special = state.special[String(nsu)];
    if (special && 'drop' in special) {
      const bytes = readFileSync(join(dirs(uf).served, special.drop));
      const rootName = rootElementName(bytes.toString('utf8')) ?? 'desconhecido';
      return { bytes, schema: SCHEMA_BY_ROOT[rootName] ?? rootName };
    }
    const index = generatedIndex(state, nsu);
    const clock = clockOf(state);
    if (special?.spoil === 'schema') {
      const doc = generateDocument(state.seed, uf, index, { breakSchema: true, ...(clock ? { clock } : {}) });
      return { bytes: Buffer.from(doc.xml), schema: doc.schema };
    }
    const doc = generateDocument(state.seed, uf, index, clock ? { clock } : {});
    // 'malformed': the document cut in the middle of an element, so its closing tags are missing.
    const xml = special?.spoil === 'malformed' ? `${doc.xml.slice(0, Math.floor(doc.xml.length / 2))}<` : doc.xml;
    return { bytes: Buffer.from(xml), schema: doc.schema };
  };

  const answer = (fields: { cStat: string; xMotivo: string }, ultNSU: number, maxNSU: number, nsus: number[], uf: Uf) => {
    const docs = nsus.map((nsu) => {
      const doc = documentAt(uf, nsu);
      return `<docZip NSU="${padNsu(nsu)}" schema="${doc.schema}">${gzipSync(doc.bytes).toString('base64')}</docZip>`;
    });
    return (
      `<retDistDFeInt versao="1.01" xmlns="${NFE_NAMESPACE}">` +
      `<tpAmb>2</tpAmb><verAplic>SIMULADOR-PLAC-1.0</verAplic><cStat>${fields.cStat}</cStat><xMotivo>${fields.xMotivo}</xMotivo>` +
      `<dhResp>${brasiliaNow()}</dhResp><ultNSU>${padNsu(ultNSU)}</ultNSU><maxNSU>${padNsu(maxNSU)}</maxNSU>` +
      (docs.length ? `<loteDistDFeInt>${docs.join('')}</loteDistDFeInt>` : '') +
      `</retDistDFeInt>`
    );
  };

  const respond = (uf: Uf, body: string): string => {
    const request = parseDistRequest(body);
    const fault = faults.get(uf);
    const state = states.get(uf)!;
    if (!request) return answer(SEFAZ_STATUS.schema, 0, state.maxNsu, [], uf);
    const asked = 'ultNSU' in request ? request.ultNSU : request.nsu;
    if (fault === '656') return answer(SEFAZ_STATUS.consumoIndevido, asked, asked, [], uf);
    if (fault === '9501') return answer(SEFAZ_STATUS.naoCompartilha, asked, asked, [], uf);
    takeInbox(uf);
    const max = state.maxNsu;
    if ('nsu' in request) {
      if (request.nsu < 1 || request.nsu > max) return answer(SEFAZ_STATUS.nenhum, max, max, [], uf);
      return answer(SEFAZ_STATUS.localizados, request.nsu, max, [request.nsu], uf);
    }
    if (request.ultNSU >= max) return answer(SEFAZ_STATUS.nenhum, max, max, [], uf);
    const last = Math.min(request.ultNSU + MAX_DOCS_PER_ANSWER, max);
    const nsus = Array.from({ length: last - request.ultNSU }, (_, i) => request.ultNSU + 1 + i);
    return answer(SEFAZ_STATUS.localizados, last, max, nsus, uf);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/([A-Z]{2})\/NFeDistribuicaoDFe\/?$/.exec((req.url ?? '').split('?')[0]!);
    const uf = match?.[1];
    if (!uf || !isUf(uf) || !states.has(uf)) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Serviço não encontrado');
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain; charset=utf-8' }).end('Use POST');
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const ret = respond(uf, body);
    // A SOAP 1.2 request gets a SOAP 1.2 answer, as the real web service gives.
    if (/Envelope/.test(body.slice(0, 2000))) {
      res.writeHead(200, { 'content-type': 'application/soap+xml; charset=utf-8' }).end(
        `<?xml version="1.0" encoding="utf-8"?><soap12:Envelope xmlns:soap12="http://www.w3.org/2003/05/soap-envelope"><soap12:Body>` +
          `<nfeDistDFeInteresseResponse xmlns="http://www.portalfiscal.inf.br/nfe/wsdl/NFeDistribuicaoDFe"><nfeDistDFeInteresseResult>` +
          `${ret}</nfeDistDFeInteresseResult></nfeDistDFeInteresseResponse></soap12:Body></soap12:Envelope>`,
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'application/xml; charset=utf-8' }).end(`<?xml version="1.0" encoding="utf-8"?>${ret}`);
  };

  const server: Server = createServer(
    // Mutual TLS: a caller without a certificate chaining to `ca` does not get past the handshake.
    { key: options.tls.key, cert: options.tls.cert, ca: options.tls.ca, requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        console.error('Sefaz simulator:', error);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('Erro interno do simulador');
      });
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });

  const trickle = options.trickle === undefined ? { intervalMs: 5000, perTick: 1 } : options.trickle;
  const timer = trickle
    ? setInterval(() => {
        for (const uf of ufs) {
          try {
            takeInbox(uf);
            if (faults.get(uf) !== 'stall') addDocuments(uf, trickle.perTick ?? 1);
          } catch (error) {
            console.error(`Sefaz simulator (${uf}):`, error);
          }
        }
      }, trickle.intervalMs)
    : undefined;
  timer?.unref();

  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://localhost:${port}`,
    setFault,
    maxNsu: (uf) => states.get(uf)?.maxNsu ?? 0,
    addDocuments,
    stop: async () => {
      if (timer) clearInterval(timer);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/**
 * The company whose e-CNPJ (from the twin's test ICP-Brasil) the platform presents to the simulator,
 * as it presents its own e-CNPJ to the real Sefaz. The CNPJ's check digits are valid.
 */
export const SEFAZ_CLIENT_COMPANY = { cnpj: '45123987000170', razaoSocial: 'PLAC FAT-E PLATAFORMA LOCAL' } as const;
