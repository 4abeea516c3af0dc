/**
 * Cancelling an NF-e through the Sefaz simulator's drop folder (docs/sefaz-simulator.md, "Drop
 * folder"): writes a cancellation event (procEventoNFe, tpEvento 110111) of the key into
 * `<dataDir>/sefaz/<UF>/inbox/`, which the simulator serves as the UF's next NSU. The next Sefaz load
 * stores it, cancels the Fat-e, publishes its domain event, and the producers deliver it to the
 * clients monitoring the key (EVENTO) and those whose consent names the drawer or the carrier
 * (docs/webhooks.md, "Producers"). For demos and end-to-end tests.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isValidChaveAcesso, UFS, type Uf } from '@plac/shared/domain';
import { cancelamentoXml as eventoDeCancelamento } from './documents';

export interface Cancelamento {
  /**
   * The NF-e's authorisation protocol: the loader cancels a stored Fat-e only when the event names its
   * protocol (as a Sefaz accepts only such an event). Without it, the drop folder finds the NF-e among
   * the UF's dropped documents; `cancelamentoXml` alone then names a protocol of zeros.
   */
  protocoloNfe?: string;
  justificativa?: string;
  /** When the cancellation happened; now unless said. */
  em?: Date;
}

/** The procEventoNFe of a cancellation of the key, as the Sefaz distributes it. */
export function cancelamentoXml(chave: string, c: Cancelamento = {}): string {
  if (!isValidChaveAcesso(chave)) throw new RangeError(`not an access key: ${chave}`);
  const cUF = chave.slice(0, 2);
  const em = (c.em ?? new Date()).getTime();
  return eventoDeCancelamento({
    chave,
    cnpj: chave.slice(6, 20),
    eventoMs: em,
    protocoloNfe: c.protocoloNfe ?? `1${cUF}${'0'.repeat(12)}`,
    protocoloEvento: `1${cUF}${String(em).slice(-13)}`,
    justificativa: c.justificativa ?? 'Operação cancelada a pedido do destinatário',
  });
}

/** The UF of a key (its cUF). */
export function ufDaChave(chave: string): Uf {
  const uf = UFS.find((u) => String(u.codigo) === chave.slice(0, 2))?.uf;
  if (!uf) throw new RangeError(`no UF for key ${chave}`);
  return uf;
}

/**
 * Drops the cancellation of the key into its UF's inbox; answers the file written. The event names the
 * NF-e's authorisation protocol: the one given, or the one of the NF-e dropped earlier in that UF.
 */
export async function cancelarPelaPastaDeEntrada(dataDir: string, chave: string, c: Cancelamento = {}): Promise<string> {
  const pasta = join(dataDir, 'sefaz', ufDaChave(chave));
  const inbox = join(pasta, 'inbox');
  await mkdir(inbox, { recursive: true });
  const protocoloNfe = c.protocoloNfe ?? (await protocoloDaNfeDepositada(pasta, chave));
  const file = join(inbox, `${Date.now()}-cancelamento-${chave}.xml`);
  await writeFile(file, cancelamentoXml(chave, { ...c, protocoloNfe }));
  return file;
}

/** The authorisation protocol (protNFe nProt) of the key's nfeProc among the UF's dropped files, served or not. */
async function protocoloDaNfeDepositada(pasta: string, chave: string): Promise<string> {
  for (const dir of ['served', 'inbox'].map((d) => join(pasta, d))) {
    const nomes = await readdir(dir).catch(() => [] as string[]);
    for (const nome of nomes.filter((n) => n.toLowerCase().endsWith('.xml'))) {
      const xml = await readFile(join(dir, nome), 'utf8');
      if (!xml.includes('<nfeProc') || !xml.includes(`<chNFe>${chave}</chNFe>`)) continue;
      const nProt = /<infProt[^>]*>[\s\S]*?<nProt>(\d{15})<\/nProt>/.exec(xml)?.[1];
      if (nProt) return nProt;
    }
  }
  throw new Error(`No dropped NF-e ${chave} with an authorisation protocol: pass protocoloNfe.`);
}
