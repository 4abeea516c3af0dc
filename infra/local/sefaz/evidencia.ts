/**
 * The receivable's evidence through the Sefaz simulator's drop folder (docs/sefaz-simulator.md,
 * "Evidence"): writes an NF-e event of the key (manifestation, delivery proof and its cancellation,
 * correction letter) or an NF-e of return naming it into `<dataDir>/sefaz/<UF>/inbox/`, served as the
 * UF's next NSU. The next Sefaz load stores it, publishes it, and the producers deliver it to the
 * clients monitoring the key (EVENTO) and those whose consent names the drawer (ESCR_EVENTO). For demos
 * (`npm run evento`) and end-to-end tests.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildChaveAcesso, isValidChaveAcesso } from '@plac/shared/domain';
import { ufDaChave } from './cancelamento';
import { devolucaoXml, eventoXml, type TipoEvento } from './evidencia-documents';

export interface EventoNaPasta {
  tpEvento: TipoEvento;
  /** The author: the recipient for a manifestation (required then), the issuer otherwise (the key's CNPJ by default). */
  cnpjAutor?: string;
  justificativa?: string;
  correcao?: string;
  seq?: number;
  /** 110130: who received the goods. */
  recebedor?: { documento: string; nome: string };
  /** 110131: the delivery proof's protocol. */
  protocoloEntrega?: string;
  em?: Date;
}

async function depositar(dataDir: string, chave: string, nome: string, xml: string): Promise<string> {
  const inbox = join(dataDir, 'sefaz', ufDaChave(chave), 'inbox');
  await mkdir(inbox, { recursive: true });
  const file = join(inbox, `${Date.now()}-${nome}.xml`);
  await writeFile(file, xml);
  return file;
}

/** A protocol of 15 digits unique enough for a hand-made document: 8, the cUF and the instant's last 12 digits. */
const protocoloDe = (chave: string, ms: number) => `8${chave.slice(0, 2)}${String(ms).padStart(12, '0').slice(-12)}`;

/** Drops one event of the key; answers the file written. */
export async function eventoPelaPastaDeEntrada(dataDir: string, chave: string, e: EventoNaPasta): Promise<string> {
  if (!isValidChaveAcesso(chave)) throw new RangeError(`not an access key: ${chave}`);
  const manifestacao = e.tpEvento.startsWith('210');
  if (manifestacao && !e.cnpjAutor) throw new Error('A manifestation is the recipient’s: pass cnpjAutor (the NF-e’s destinatário).');
  const ms = (e.em ?? new Date()).getTime();
  const xml = eventoXml({
    chave,
    tpEvento: e.tpEvento,
    cnpjAutor: e.cnpjAutor ?? chave.slice(6, 20),
    eventoMs: ms,
    protocolo: protocoloDe(chave, ms),
    ...(e.seq ? { seq: e.seq } : {}),
    ...(e.justificativa ? { justificativa: e.justificativa } : {}),
    ...(e.correcao ? { correcao: e.correcao } : {}),
    ...(e.recebedor ? { entrega: { em: ms - 600_000, ...e.recebedor, latitude: '-12.971600', longitude: '-38.501600' } } : {}),
    ...(e.protocoloEntrega ? { protocoloEntrega: e.protocoloEntrega } : {}),
  });
  return depositar(dataDir, chave, `evento-${e.tpEvento}-${chave}`, xml);
}

/**
 * Drops an NF-e of return (finNFe 4) of `valor` centavos naming the key, issued by the original
 * recipient (`cnpjEmitente`) in the key's UF; answers the file and the return's own key.
 */
export async function devolucaoPelaPastaDeEntrada(dataDir: string, chave: string, d: { valor: number; cnpjEmitente: string; em?: Date }): Promise<{ file: string; chave: string }> {
  if (!isValidChaveAcesso(chave)) throw new RangeError(`not an access key: ${chave}`);
  const ms = (d.em ?? new Date()).getTime();
  const cUF = Number(chave.slice(0, 2));
  const aamm = new Date(ms - 3 * 3_600_000).toISOString().slice(2, 7).replace('-', '');
  const nNF = Number(String(ms).slice(-8));
  const cNF = String(ms).slice(-8).split('').reverse().join('');
  const propria = buildChaveAcesso({ cUF, aamm, cnpj: d.cnpjEmitente, mod: '55', serie: 2, nNF, tpEmis: 1, cNF });
  const empresa = (cnpj: string, xNome: string) => ({ cnpj, xNome, ie: 'ISENTO' });
  const xml = devolucaoXml({
    chaveOriginal: chave,
    chave: propria,
    cNF,
    nNF,
    emitidaMs: ms,
    vNF: d.valor,
    nProt: protocoloDe(propria, ms),
    emit: empresa(d.cnpjEmitente, 'Destinatario da NF-e original'),
    dest: empresa(chave.slice(6, 20), 'Emitente da NF-e original'),
    uf: ufDaChave(chave),
    cUF,
  });
  return { file: await depositar(dataDir, chave, `devolucao-${chave}`, xml), chave: propria };
}
