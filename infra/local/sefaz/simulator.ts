/**
 * The Sefaz distribution simulator of the local twin (docs/sefaz-simulator.md): one HTTPS server that
 * answers `POST /<UF>/NFeDistribuicaoDFe` like the NF-e distribution service (NFeDistribuicaoDFe) and
 * `POST /<UF>/CTeDistribuicaoDFe` like the CT-e one (CTeDistribuicaoDFe), each with a per-UF NSU
 * sequence of generated documents (documents.ts, cte-documents.ts), files dropped in an inbox, and
 * faults that a test or a developer turns on per UF.
 *
 * State, under `<dataDir>/sefaz/` (stream.ts):
 *   <UF>/state.json, inbox/, served/            the NF-e stream
 *   <UF>/cte/state.json, cte/inbox/, cte/served/ the CT-e stream
 * A generated document is a pure function of (seed, UF, index, clock), so only these few facts are
 * kept and a restart continues where each sequence was (with the seed it started with).
 */
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { isUf, UF_SIGLAS, type Uf } from '@plac/shared/domain';
import { CTE_NAMESPACE, CTE_SCHEMA_BY_ROOT, generateCte } from './cte-documents';
import { generateDocument, NFE_NAMESPACE, SCHEMA_BY_ROOT } from './documents';
import { answer as soapAnswer, fault as soapFault, readRequest, SoapRefusal, type SoapAnswer } from './soap';
import { openStream, padNsu, type Fluxo, type Stream } from './stream';

export { padNsu, type Fluxo } from './stream';

/**
 * Faults, per UF:
 *   '656'        every request is answered cStat 656 (Consumo Indevido), no documents
 *   'stall'      the trickle adds nothing to this UF (the drop folder still works)
 *   '9501'       every request is answered cStat 9501 (the UF does not share its documents), no documents
 *   'malformed'  one-shot: the UF's next NF-e NSU is a document cut in half (not well-formed XML)
 *   'schema'     one-shot: the UF's next NF-e NSU is an NF-e without `emit` and `cobr` (fails the schema)
 *   'soapFault'  every request is answered a SOAP Fault (soap:Receiver, HTTP 500), as a failing web service does
 * '656', '9501', 'soapFault' and 'stall' apply to both services (NF-e and CT-e); the one-shot faults append their
 * document to the NF-e stream when set and leave the UF without a fault (given at start, only on the
 * stream's first start).
 */
export type SefazFault = '656' | 'stall' | '9501' | 'malformed' | 'schema' | 'soapFault';
export const SEFAZ_FAULTS: readonly SefazFault[] = ['656', 'stall', '9501', 'malformed', 'schema', 'soapFault'];

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
  /**
   * Volume mode: the NF-e a given UF holds on its first start, of any size (e.g. `{ SP: 100_000 }`), in
   * place of `backlog`. Generated documents are a function of their index, so a backlog costs nothing
   * until it is read.
   */
  backlogs?: Partial<Record<Uf, number>>;
  /** CT-e each UF holds on its CT-e stream's first start. Default a fifth of `backlog`. */
  cteBacklog?: number;
  /** `key`/`cert`: the server's; `ca`: the roots a client certificate must chain to. */
  tls: { key: string; cert: string; ca: string | string[] };
  faults?: Partial<Record<Uf, SefazFault>>;
  /**
   * New documents while running: `perTick` NF-e per UF every `intervalMs`, and one CT-e per UF every 5
   * ticks; `false` turns it off. Default 1 every 5 s.
   */
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
  /** The UF's highest NSU of the stream (default the NF-e's). */
  maxNsu(uf: Uf, fluxo?: Fluxo): number;
  /** Adds `count` generated documents to the UF's stream (default the NF-e's) now, as the trickle does. */
  addDocuments(uf: Uf, count?: number, fluxo?: Fluxo): void;
  stop(): Promise<void>;
}

/** The backlog's NF-e are this far apart, as in documents.ts; its CT-e five times as far (one CT-e per five NF-e). */
const BACKLOG_SPACING_MS = 17 * 60_000;
const BACKLOG_MAX_SPAN_MS = 30 * 24 * 3_600_000;
/** The trickle adds one CT-e per UF every this many ticks. */
const CTE_TICKS = 5;

/** Per service: its path, the documents' and the WSDL's namespaces, the SOAP operation, and its drop folder's schemas. */
const SERVICES = {
  nfe: {
    path: 'NFeDistribuicaoDFe',
    namespace: NFE_NAMESPACE,
    wsdl: `${NFE_NAMESPACE}/wsdl/NFeDistribuicaoDFe`,
    operation: 'nfeDistDFeInteresse',
    dadosMsg: 'nfeDadosMsg',
    schemas: SCHEMA_BY_ROOT,
  },
  cte: {
    path: 'CTeDistribuicaoDFe',
    namespace: CTE_NAMESPACE,
    wsdl: `${CTE_NAMESPACE}/wsdl/CTeDistribuicaoDFe`,
    operation: 'cteDistDFeInteresse',
    dadosMsg: 'cteDadosMsg',
    schemas: CTE_SCHEMA_BY_ROOT,
  },
} as const;

/** ISO date-time with the -03:00 offset of Brasília. */
const brasiliaNow = () => `${new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 19)}-03:00`;

/** The root element's local name, skipping the XML declaration, comments and processing instructions. */
export function rootElementName(xml: string): string | undefined {
  const text = xml.replace(/^\uFEFF/, '').replace(/<\?[\s\S]*?\?>/g, '').replace(/<!--[\s\S]*?-->/g, '').replace(/<!DOCTYPE[^>]*>/gi, '');
  const match = /<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/.exec(text);
  return match?.[1];
}

/** A child element's value (text or element) by local name, whatever its prefix. */
function childOf(node: unknown, local: string): unknown {
  if (!node || typeof node !== 'object') return undefined;
  return Object.entries(node as Record<string, unknown>).find(([key]) => key.slice(key.indexOf(':') + 1) === local)?.[1];
}

/** What the caller asks, from its distDFeInt: the documents after `ultNSU`, or the one document `NSU` (consNSU). */
export function parseDistRequest(dist: Record<string, unknown>): { ultNSU: number } | { nsu: number } | undefined {
  const ult = childOf(childOf(dist, 'distNSU'), 'ultNSU');
  if (typeof ult === 'string' && /^\d{1,15}$/.test(ult.trim())) return { ultNSU: Number(ult.trim()) };
  const one = childOf(childOf(dist, 'consNSU'), 'NSU');
  if (typeof one === 'string' && /^\d{1,15}$/.test(one.trim())) return { nsu: Number(one.trim()) };
  return undefined;
}

export async function startSefazSimulator(options: SefazSimulatorOptions): Promise<SefazSimulator> {
  const root = join(options.dataDir, 'sefaz');
  const ufs = [...(options.ufs ?? UF_SIGLAS)];
  const backlog = options.backlog ?? 300;
  const cteBacklog = options.cteBacklog ?? Math.floor(backlog / 5);
  const faults = new Map<Uf, SefazFault>();
  const streams = new Map<Uf, Record<Fluxo, Stream>>();

  for (const uf of ufs) {
    const stalledMs = options.faults?.[uf] === 'stall' ? (options.stallHours?.[uf] ?? 0) * 3_600_000 : 0;
    const ufBacklog = options.backlogs?.[uf] ?? backlog;
    // A big backlog is squeezed into the last 30 days (the emission dates stay plausible), a small one is 17 minutes apart.
    const spacingMs = Math.min(BACKLOG_SPACING_MS, Math.floor(BACKLOG_MAX_SPAN_MS / Math.max(ufBacklog, 1)));
    const nfe = openStream(join(root, uf), { seed: options.seed ?? 1, backlog: ufBacklog, spacingMs, stalledMs });
    // A CT-e stream created next to an existing NF-e one starts with the UF's stored seed.
    const cte = openStream(join(root, uf, 'cte'), { seed: nfe.state.seed, backlog: cteBacklog, spacingMs: CTE_TICKS * BACKLOG_SPACING_MS, stalledMs });
    streams.set(uf, { nfe, cte });
  }

  const streamOf = (uf: Uf, fluxo: Fluxo) => {
    const stream = streams.get(uf)?.[fluxo];
    if (!stream) throw new Error(`the simulator does not serve ${uf}`);
    return stream;
  };

  /** The time one call of addDocuments stands for: a trickle tick for the NF-e, 5 ticks for the CT-e. */
  const tickMs = options.trickle ? options.trickle.intervalMs : 5000;
  const addDocuments = (uf: Uf, count = 1, fluxo: Fluxo = 'nfe') => streamOf(uf, fluxo).add(count, fluxo === 'cte' ? CTE_TICKS * tickMs : tickMs);

  const setFault = (uf: Uf, fault: SefazFault | null) => {
    const stream = streamOf(uf, 'nfe');
    if (fault === 'malformed' || fault === 'schema') {
      stream.spoil(fault);
      faults.delete(uf);
      return;
    }
    if (fault) faults.set(uf, fault);
    else faults.delete(uf);
  };
  for (const [uf, fault] of Object.entries(options.faults ?? {})) {
    if (!isUf(uf)) continue;
    // A one-shot fault's document is part of the stream once written: a restart on the same data (the
    // twin started again, the fault test's kill) must not append another (issue 42).
    if ((fault === 'malformed' || fault === 'schema') && !streamOf(uf, 'nfe').fresh) continue;
    setFault(uf, fault);
  }

  /** The NSU's document as served: bytes and schema attribute. */
  const documentAt = (uf: Uf, fluxo: Fluxo, nsu: number): { bytes: Buffer; schema: string } => {
    const stream = streamOf(uf, fluxo);
    const { state } = stream;
    const special = state.special[String(nsu)];
    if (special && 'drop' in special) {
      const bytes = readFileSync(join(stream.served, special.drop));
      const rootName = rootElementName(bytes.toString('utf8')) ?? 'desconhecido';
      return { bytes, schema: SERVICES[fluxo].schemas[rootName] ?? rootName };
    }
    const index = stream.generatedIndex(nsu);
    const clock = stream.clock();
    const timing = clock ? { clock } : {};
    if (fluxo === 'cte') {
      const doc = generateCte(state.seed, uf, index, timing);
      return { bytes: Buffer.from(doc.xml), schema: doc.schema };
    }
    if (special?.spoil === 'schema') {
      const doc = generateDocument(state.seed, uf, index, { breakSchema: true, ...timing });
      return { bytes: Buffer.from(doc.xml), schema: doc.schema };
    }
    const doc = generateDocument(state.seed, uf, index, timing);
    // 'malformed': the document cut in the middle of an element, so its closing tags are missing.
    const xml = special?.spoil === 'malformed' ? `${doc.xml.slice(0, Math.floor(doc.xml.length / 2))}<` : doc.xml;
    return { bytes: Buffer.from(xml), schema: doc.schema };
  };

  const respond = (uf: Uf, fluxo: Fluxo, dist: Record<string, unknown>): string => {
    const stream = streamOf(uf, fluxo);
    const answer = (fields: { cStat: string; xMotivo: string }, ultNSU: number, maxNSU: number, nsus: number[] = []) => {
      const docs = nsus.map((nsu) => {
        const doc = documentAt(uf, fluxo, nsu);
        return `<docZip NSU="${padNsu(nsu)}" schema="${doc.schema}">${gzipSync(doc.bytes).toString('base64')}</docZip>`;
      });
      return (
        `<retDistDFeInt versao="1.01" xmlns="${SERVICES[fluxo].namespace}">` +
        `<tpAmb>2</tpAmb><verAplic>SIMULADOR-PLAC-1.0</verAplic><cStat>${fields.cStat}</cStat><xMotivo>${fields.xMotivo}</xMotivo>` +
        `<dhResp>${brasiliaNow()}</dhResp><ultNSU>${padNsu(ultNSU)}</ultNSU><maxNSU>${padNsu(maxNSU)}</maxNSU>` +
        (docs.length ? `<loteDistDFeInt>${docs.join('')}</loteDistDFeInt>` : '') +
        `</retDistDFeInt>`
      );
    };
    const request = parseDistRequest(dist);
    const fault = faults.get(uf);
    if (!request) return answer(SEFAZ_STATUS.schema, 0, stream.state.maxNsu);
    const asked = 'ultNSU' in request ? request.ultNSU : request.nsu;
    if (fault === '656') return answer(SEFAZ_STATUS.consumoIndevido, asked, asked);
    if (fault === '9501') return answer(SEFAZ_STATUS.naoCompartilha, asked, asked);
    stream.takeInbox();
    const max = stream.state.maxNsu;
    if ('nsu' in request) {
      if (request.nsu < 1 || request.nsu > max) return answer(SEFAZ_STATUS.nenhum, max, max);
      return answer(SEFAZ_STATUS.localizados, request.nsu, max, [request.nsu]);
    }
    if (request.ultNSU >= max) return answer(SEFAZ_STATUS.nenhum, max, max);
    const last = Math.min(request.ultNSU + MAX_DOCS_PER_ANSWER, max);
    const nsus = Array.from({ length: last - request.ultNSU }, (_, i) => request.ultNSU + 1 + i);
    return answer(SEFAZ_STATUS.localizados, last, max, nsus);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/([A-Z]{2})\/(NFe|CTe)DistribuicaoDFe\/?$/.exec((req.url ?? '').split('?')[0]!);
    const uf = match?.[1];
    const fluxo: Fluxo = match?.[2] === 'CTe' ? 'cte' : 'nfe';
    if (!uf || !isUf(uf) || !streams.has(uf)) {
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
    const service = SERVICES[fluxo];
    let out: SoapAnswer;
    try {
      const dist = readRequest(service, req.headers['content-type'], body);
      out =
        faults.get(uf) === 'soapFault'
          ? soapFault(500, 'soap12:Receiver', 'Server was unable to process request. ---> Falha simulada do Web Service de distribuição')
          : soapAnswer(service, respond(uf, fluxo, dist));
    } catch (error) {
      if (!(error instanceof SoapRefusal)) throw error;
      out = soapFault(error.status, error.code, error.message);
    }
    res.writeHead(out.status, { 'content-type': out.contentType }).end(out.body);
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
  let ticks = 0;
  const timer = trickle
    ? setInterval(() => {
        ticks++;
        for (const uf of ufs) {
          try {
            const { nfe, cte } = streams.get(uf)!;
            nfe.takeInbox();
            cte.takeInbox();
            if (faults.get(uf) === 'stall') continue;
            addDocuments(uf, trickle.perTick ?? 1, 'nfe');
            if (ticks % CTE_TICKS === 0) addDocuments(uf, 1, 'cte');
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
    maxNsu: (uf, fluxo = 'nfe') => streams.get(uf)?.[fluxo].state.maxNsu ?? 0,
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
