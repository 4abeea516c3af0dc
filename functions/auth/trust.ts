/**
 * The certificates that client-certificate logins are checked against.
 *
 * API Gateway's mutual-TLS domain only hands the Lambda the leaf, so the chain is rebuilt here from the
 * intermediates we ship and must end at one of the roots we ship: the ICP-Brasil roots published by
 * ITI and the known ICP-Brasil intermediates, bundled as constants (see trust/icp-brasil.ts and
 * trust/generate.ts). Nothing is read from disk in AWS.
 *
 * The local twin, and only it (`APP_STAGE=local`), may add the test hierarchy that
 * infra/local/emulators/test-pki.ts writes to the folder named by `PLAC_LOCAL_TRUST_DIR`: exactly the
 * two files named in LOCAL_TRUST_FILES, nothing else from that folder. In every other stage the
 * variable is ignored, so a stray variable in a deployed function can never widen the trust.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { logger } from '../platform/observability';
import { ICP_BRASIL_INTERMEDIATES, ICP_BRASIL_ROOTS } from './trust/icp-brasil';

export interface TrustStore {
  /** Trust anchors: a chain is accepted only when it ends at one of these. */
  roots: X509Certificate[];
  /** Known CA certificates used to link a leaf to a root; never trusted on their own. */
  intermediates: X509Certificate[];
}

/** The files the twin's test PKI writes into `PLAC_LOCAL_TRUST_DIR` (test-pki.ts imports these names). */
export const LOCAL_TRUST_FILES = {
  root: 'raiz-teste.cert.pem',
  intermediate: 'ac-teste.cert.pem',
} as const;

export const LOCAL_TRUST_DIR_VARIABLE = 'PLAC_LOCAL_TRUST_DIR';

export interface TrustStoreOptions {
  /** `APP_STAGE`; the local trust folder is read only when this is exactly 'local'. */
  stage: string | undefined;
  /** `PLAC_LOCAL_TRUST_DIR`. */
  localTrustDir: string | undefined;
  /** Where to report certificates that cannot be loaded (they are skipped). */
  warn?: (message: string, details: Record<string, unknown>) => void;
}

const defaultWarn = (message: string, details: Record<string, unknown>) => logger.warn(message, details);

/** Builds a store from the bundled ICP-Brasil certificates, plus the twin's test hierarchy when allowed. */
export function buildTrustStore(options: TrustStoreOptions): TrustStore {
  const warn = options.warn ?? defaultWarn;
  const store: TrustStore = {
    roots: parseAll(ICP_BRASIL_ROOTS, 'root', warn),
    intermediates: parseAll(ICP_BRASIL_INTERMEDIATES, 'intermediate', warn),
  };
  if (options.stage === 'local' && options.localTrustDir) {
    const dir = options.localTrustDir;
    store.roots.push(...readLocal(join(dir, LOCAL_TRUST_FILES.root), 'root', warn));
    store.intermediates.push(...readLocal(join(dir, LOCAL_TRUST_FILES.intermediate), 'intermediate', warn));
  }
  return store;
}

let cached: { key: string; store: TrustStore } | undefined;

/**
 * The store for this process, built once (per combination of the two variables, so that tests that
 * change them get a fresh one). Cheap after the first call: reuse it across invocations.
 */
export function loadTrustStore(): TrustStore {
  const stage = process.env.APP_STAGE;
  const localTrustDir = process.env[LOCAL_TRUST_DIR_VARIABLE];
  const key = `${stage ?? ''}\u0000${localTrustDir ?? ''}`;
  if (cached?.key !== key) cached = { key, store: buildTrustStore({ stage, localTrustDir }) };
  return cached.store;
}

function parseAll(
  items: readonly { file: string; pem: string }[],
  kind: 'root' | 'intermediate',
  warn: NonNullable<TrustStoreOptions['warn']>,
): X509Certificate[] {
  return items.flatMap((item) => parse(item.pem, item.file, kind, warn));
}

function readLocal(path: string, kind: 'root' | 'intermediate', warn: NonNullable<TrustStoreOptions['warn']>): X509Certificate[] {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (error) {
    warn('Local test certificate not loaded', { kind, path, error: String(error) });
    return [];
  }
  return parse(pem, path, kind, warn);
}

/**
 * One certificate; a file that Node's OpenSSL cannot parse (e.g. an ECDSA root with explicit curve
 * parameters on some builds) or that is not a CA is skipped with a warning rather than failing every login.
 */
function parse(pem: string, source: string, kind: 'root' | 'intermediate', warn: NonNullable<TrustStoreOptions['warn']>): X509Certificate[] {
  try {
    const cert = new X509Certificate(pem);
    if (!cert.ca) {
      warn('Trust store certificate is not a CA; skipped', { kind, source, subject: cert.subject });
      return [];
    }
    // A root is only usable if its key can check signatures (its own, being self-signed).
    if (kind === 'root') cert.verify(cert.publicKey);
    return [cert];
  } catch (error) {
    warn('Trust store certificate could not be parsed; skipped', { kind, source, error: String(error) });
    return [];
  }
}
