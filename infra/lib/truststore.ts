/**
 * The mutual-TLS truststore: the ICP-Brasil roots in infra/truststore/icp-brasil/, concatenated into
 * one PEM bundle at synth time. The object key carries a hash of the bundle because API Gateway only
 * reloads a truststore when its key (or version) changes.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { truststoreDir } from './paths';

export interface Truststore {
  /** File names included, sorted. */
  readonly files: readonly string[];
  readonly pem: string;
  readonly key: string;
}

export function readTruststore(dir = truststoreDir): Truststore {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.pem'))
    .sort();
  if (files.length === 0) throw new Error(`no .pem files in ${dir}`);
  const pem = files
    .map((f) => {
      const text = readFileSync(join(dir, f), 'utf8').trim();
      if (!/^-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----$/.test(text)) throw new Error(`${f} is not one PEM certificate`);
      return `${text}\n`;
    })
    .join('');
  const hash = createHash('sha256').update(pem).digest('hex').slice(0, 16);
  return { files, pem, key: `truststore/icp-brasil-${hash}.pem` };
}
