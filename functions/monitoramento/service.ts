import { isAdmin, type Principal } from '@plac/shared/access';
import { monthOf, SERVICO, splitChaveAcesso, ufByCodigo } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { clienteResumo } from '../clientes';
import { medirUso } from '../consumo';
import { conflict, forbidden, invalid, notFound } from '../platform/errors';
import { paginaComCursor, vinculoDoCursor } from '../platform/paginas';
import * as store from './store';

/**
 * Monitored keys ('Monitoramento de Documentos', webhook operation EVENTO): a client registers the
 * access keys whose events it wants delivered, lists them and removes them. Rules:
 * - an administrator works on the client it names (required); a client user only on its own
 *   (another's: 403 clienteNaoPermitido); a client that does not exist: 404;
 * - the key is a valid access key (the contract checks its shape, UF, month, CNPJ, model and check digit);
 * - a key the client already monitors is refused (409 chaveJaMonitorada) and changes nothing;
 * - a client monitors as many keys as it wants (a bookkeeper may monitor millions: issue 36): the
 *   registration reads only the key itself, the list is a page read from the client's shards, its
 *   total a count kept with the keys;
 * - each registration is metered as 'Monitoramento de Documentos' (service 6) through the consumo
 *   service, once per client, key and month: removing a key and registering it again in the same
 *   month is not charged twice. The charge is made before the item is created, so a registration is
 *   never left uncharged; a retry after a failure charges nothing more.
 */

/**
 * Clients this Lambda found, kept CACHE_MS: a bookkeeper registering thousands of keys a second does
 * not read its client's item each time (issue 36: that one key would take 2,000 reads a second). A
 * client that does not exist is read again each time (a 404 is rare and must not be remembered).
 */
const CACHE_MS = 30_000;
const existentes = new Map<string, number>();

async function clienteExiste(clienteId: string): Promise<boolean> {
  const ate = existentes.get(clienteId);
  if (ate !== undefined && Date.now() < ate) return true;
  if (!(await clienteResumo(clienteId))) return false;
  if (existentes.size > 10_000) existentes.clear();
  existentes.set(clienteId, Date.now() + CACHE_MS);
  return true;
}

/** Whose keys: the named client for an administrator (required), always the own for a client user. */
async function clienteDe(p: Principal, pedido: string | undefined): Promise<string> {
  let clienteId: string;
  if (isAdmin(p)) {
    if (!pedido) throw invalid('monitoramentoClienteObrigatorio');
    clienteId = pedido;
  } else {
    if (!p.clienteId || (pedido && pedido !== p.clienteId)) throw forbidden('clienteNaoPermitido');
    clienteId = p.clienteId;
  }
  if (!(await clienteExiste(clienteId))) throw notFound();
  return clienteId;
}

/** The key's parts; the contract has already refused an invalid key, so this only re-checks. */
function partes(chave: string) {
  const p = splitChaveAcesso(chave);
  const uf = p ? ufByCodigo(Number(p.cUF)) : undefined;
  if (!p || !uf) throw invalid('chaveMonitoradaInvalida');
  return { ...p, uf };
}

function view(r: store.NovaChave) {
  const p = splitChaveAcesso(r.chave);
  return { chave: r.chave, uf: r.uf, emitenteCnpj: p?.cnpj ?? '', modelo: p?.mod ?? '', cadastradaEm: r.createdAt, cadastradaPor: r.createdBy };
}

/** One page of the client's keys in key order, from the caller's cursor, and the client's total (its counts). */
export async function listar(p: Principal, q: { idCliente?: string | undefined; cursor?: string | undefined; perPage: number }) {
  const clienteId = await clienteDe(p, q.idCliente);
  const vinculo = vinculoDoCursor(p, 'monitoramento.listarChaves', { clienteId, perPage: q.perPage });
  const [pagina, total] = await Promise.all([
    paginaComCursor(vinculo, q.cursor, (posicao) => store.paginaDoCliente(clienteId, { perPage: q.perPage, posicao })),
    store.totalDoCliente(clienteId),
  ]);
  return { ...pagina, items: pagina.items.map(view), total };
}

export async function cadastrar(p: Principal, b: { idCliente?: string | undefined; chave: string }, agora: Date = new Date()) {
  const clienteId = await clienteDe(p, b.idCliente);
  const { uf } = partes(b.chave);
  if (await store.chaveDoCliente(clienteId, b.chave)) throw conflict('chaveJaMonitorada', ['chave']);
  await medirUso({
    chave: `monitoramento:${clienteId}:${b.chave}:${monthOf(agora)}`,
    clienteId,
    servico: SERVICO.monitoramentoDocumentos,
    uf,
    documento: b.chave,
    agora,
  });
  const record: store.NovaChave = { clienteId, chave: b.chave, uf, createdAt: agora.toISOString(), createdBy: p.name };
  // Lost only to a concurrent registration of the same key: the month's charge is the same one.
  if (!(await store.criar(record))) throw conflict('chaveJaMonitorada', ['chave']);
  return { message: message('chaveMonitoradaCadastrada'), chave: view(record) };
}

export async function remover(p: Principal, chave: string, idCliente: string | undefined) {
  const clienteId = await clienteDe(p, idCliente);
  if (!(await store.remover(clienteId, chave))) throw notFound();
  return { message: message('chaveMonitoradaRemovida') };
}

/** For the EVENTO producer: the clients monitoring a key. */
export async function clientesQueMonitoram(chave: string): Promise<string[]> {
  return store.clientesDaChave(chave);
}
