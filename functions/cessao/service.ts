import type { Principal } from '@plac/shared/access';
import { SERVICO, splitChaveAcesso, ufByCodigo } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { clienteImfDaInstituicao } from '../clientes';
import { instituicoesDoSacador } from '../consentimento';
import { medirUso } from '../consumo';
import { fatePorChave, type FateRecord } from '../fate';
import { forbidden, HttpError, invalid } from '../platform/errors';
import { avaliarCessao, mesmaCessao, type PedidoCessao } from './regras';
import * as store from './store';

export { comCessoes } from './com-cessoes';

/**
 * 'Registro de Cessão' (service 8, docs/cessao.md). Rules, in the order they are checked:
 * - the Fat-e of the key is stored (404 fateNaoEncontrada);
 * - the caller's client is its bookkeeper: an IMF client named by the drawer's (issuer's) consent,
 *   the same rule by which ESCR_FAT deliveries are addressed (functions/webhooks/produtores); anyone
 *   else: 403 cessaoNaoPermitida (the list of a Fat-e's assignments too);
 * - regras.ts: not cancelled, an instalment it has, a date neither future nor before its issue, a value
 *   at most the instalment's (422 each);
 * - the instalment is assigned at most once: a conditional create keyed by (key, nDup), never a read
 *   before the write. The loser of a race, or any later registration, gets 409 cessaoParcelaJaCedida —
 *   except the same client repeating the same data: an idempotent retry, answered 200 with the stored
 *   registration;
 * - metered as 'Registro de Cessão' through the consumo service, once per (key, nDup), after the create
 *   succeeded (a loser is never charged) and again on the idempotent retry (medirUso counts its chave
 *   once, so a crash between the create and the meter is healed by the retry, never charged twice).
 */

export interface Registro {
  /** False for an idempotent retry (answered 200 instead of 201). */
  criada: boolean;
  resposta: { message: string; cessao: ReturnType<typeof view> };
}

function view(r: store.CessaoRecord) {
  return { chave: r.chave, nDup: r.nDup, cnpjCessionario: r.cnpjCessionario, dataCessao: r.dataCessao, valor: r.valor, registradaEm: r.registradaEm };
}

/** The key's UF (its cUF); the contract has already refused an invalid key, so this only re-checks. */
function ufDaChave(chave: string): string {
  const p = splitChaveAcesso(chave);
  const uf = p ? ufByCodigo(Number(p.cUF)) : undefined;
  if (!uf) throw invalid('chaveMonitoradaInvalida');
  return uf;
}

/** The clients that are the Fat-e's bookkeepers: the active IMF clients of the institutions its drawer's consent names. */
async function escrituradores(f: FateRecord, agora: Date): Promise<Set<string>> {
  const bases = await instituicoesDoSacador(f.emitenteCnpj, agora);
  const clientes = await Promise.all([...new Set(bases)].map((b) => clienteImfDaInstituicao(b)));
  return new Set(clientes.filter((c) => c !== null).map((c) => c.id));
}

/** The stored Fat-e of the key, when the caller's client is its bookkeeper. */
async function fateDoEscriturador(p: Principal, chave: string, agora: Date): Promise<{ f: FateRecord; clienteId: string }> {
  const f = await fatePorChave(chave);
  if (!f) throw new HttpError(404, 'fateNaoEncontrada');
  if (!p.clienteId || !(await escrituradores(f, agora)).has(p.clienteId)) throw forbidden('cessaoNaoPermitida');
  return { f, clienteId: p.clienteId };
}

async function medir(r: store.CessaoRecord): Promise<void> {
  await medirUso({
    chave: `cessao:${r.chave}:${r.nDup}`,
    clienteId: r.clienteId,
    servico: SERVICO.registroCessao,
    uf: r.uf,
    documento: r.chave,
    // The registration's instant: a retry's meter lands in the same month as the registration.
    agora: new Date(r.registradaEm),
  });
}

export async function registrar(p: Principal, b: PedidoCessao & { chave: string }, agora: Date = new Date()): Promise<Registro> {
  const { f, clienteId } = await fateDoEscriturador(p, b.chave, agora);
  const avaliacao = avaliarCessao(f, b, agora);
  if ('recusa' in avaliacao) throw new HttpError(422, avaliacao.recusa.key, undefined, avaliacao.recusa.vars);
  const record: store.CessaoRecord = {
    chave: f.chave,
    nDup: avaliacao.parcela.numero,
    clienteId,
    cnpjCessionario: b.cnpjCessionario,
    dataCessao: b.dataCessao,
    valor: b.valor,
    uf: ufDaChave(f.chave),
    registradaEm: agora.toISOString(),
    registradaPor: p.name,
  };
  if (await store.criar(record)) {
    await medir(record);
    return { criada: true, resposta: { message: message('cessaoRegistrada'), cessao: view(record) } };
  }
  const registrada = await store.cessaoDa(record.chave, record.nDup);
  if (registrada && mesmaCessao(registrada, clienteId, b)) {
    await medir(registrada);
    return { criada: false, resposta: { message: message('cessaoRegistrada'), cessao: view(registrada) } };
  }
  throw new HttpError(409, 'cessaoParcelaJaCedida', undefined, { nDup: record.nDup });
}

/** The assignments of a Fat-e's instalments, by whoever registered them, for its bookkeeper. */
export async function listar(p: Principal, chave: string, agora: Date = new Date()) {
  const { f } = await fateDoEscriturador(p, chave, agora);
  return { chave: f.chave, cessoes: (await store.cessoesDaFate(f.chave)).map(view) };
}

