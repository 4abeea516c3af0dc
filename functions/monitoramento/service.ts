import type { Principal } from '@plac/shared/access';
import { MAX_CHAVES_MONITORADAS } from '@plac/shared/contracts/monitoramento';
import { monthOf, SERVICO, splitChaveAcesso, ufByCodigo } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { clienteResumo } from '../clientes/service';
import { medirUso } from '../consumo/service';
import { conflict, forbidden, invalid, notFound } from '../platform/errors';
import * as store from './store';

/**
 * Monitored keys ('Monitoramento de Documentos', webhook operation EVENTO): a client registers the
 * access keys whose events it wants delivered, lists them and removes them. Rules:
 * - an administrator works on the client it names (required); a client user only on its own
 *   (another's: 403 clienteNaoPermitido); a client that does not exist: 404;
 * - the key is a valid access key (the contract checks its shape, UF, month, CNPJ, model and check digit);
 * - a key the client already monitors is refused (409 chaveJaMonitorada) and changes nothing;
 * - a client monitors at most MAX_CHAVES_MONITORADAS keys at once;
 * - each registration is metered as 'Monitoramento de Documentos' (service 6) through the consumo
 *   service, once per client, key and month: removing a key and registering it again in the same
 *   month is not charged twice. The charge is made before the item is created, so a registration is
 *   never left uncharged; a retry after a failure charges nothing more.
 */

const isAdmin = (p: Principal) => p.roles.includes('sefaz_admin');

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
  if (!(await clienteResumo(clienteId))) throw notFound();
  return clienteId;
}

/** The key's parts; the contract has already refused an invalid key, so this only re-checks. */
function partes(chave: string) {
  const p = splitChaveAcesso(chave);
  const uf = p ? ufByCodigo(Number(p.cUF)) : undefined;
  if (!p || !uf) throw invalid('chaveMonitoradaInvalida');
  return { ...p, uf };
}

function view(r: store.ChaveMonitoradaRecord) {
  const p = splitChaveAcesso(r.chave);
  return { chave: r.chave, uf: r.uf, emitenteCnpj: p?.cnpj ?? '', modelo: p?.mod ?? '', cadastradaEm: r.createdAt, cadastradaPor: r.createdBy };
}

export async function listar(p: Principal, q: { idCliente?: string | undefined; page: number; size: number }) {
  const clienteId = await clienteDe(p, q.idCliente);
  const todas = await store.chavesDoCliente(clienteId);
  return { items: todas.slice((q.page - 1) * q.size, q.page * q.size).map(view), total: todas.length, page: q.page, size: q.size };
}

export async function cadastrar(p: Principal, b: { idCliente?: string | undefined; chave: string }, agora: Date = new Date()) {
  const clienteId = await clienteDe(p, b.idCliente);
  const { uf } = partes(b.chave);
  if (await store.chaveDoCliente(clienteId, b.chave)) throw conflict('chaveJaMonitorada', ['chave']);
  if ((await store.chavesDoCliente(clienteId)).length >= MAX_CHAVES_MONITORADAS) {
    throw invalid('chavesMonitoradasLimite', { max: String(MAX_CHAVES_MONITORADAS) });
  }
  await medirUso({
    chave: `monitoramento:${clienteId}:${b.chave}:${monthOf(agora)}`,
    clienteId,
    servico: SERVICO.monitoramentoDocumentos,
    uf,
    documento: b.chave,
    agora,
  });
  const record: store.ChaveMonitoradaRecord = { clienteId, chave: b.chave, uf, createdAt: agora.toISOString(), createdBy: p.name };
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
