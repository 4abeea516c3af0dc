import type { Principal } from '@plac/shared/access';
import { SERVICOS_DO_TIPO } from '@plac/shared/domain';
import { certificadoDoChamador } from '../auth';
import { clientePorCnpj, clienteResumo, type ClienteResumo } from '../clientes/direto';
import { HttpError } from '../platform/errors';
import { ativos as servicosAtivos } from '../servicos/direto';

/**
 * Who is looking up, and whether it may use the service. The client pays; the authority's staff
 * (sefaz_admin on the portal) look up without a client and are not charged.
 *
 * Rules:
 * - integrator (mutual TLS): the e-CNPJ's CNPJ must be a client's registered CNPJ, in situação ATIVO;
 * - portal (bearer): the user's client, ATIVO or EM_AVALIACAO (the `avaliacao` role exists to try it);
 * - either way the service must be active in the catalogue and allowed to the client's type
 *   (SERVICOS_DO_TIPO).
 * A Lambda keeps what it read for CACHE_MS, so a busy integrator costs no extra reads per look-up; a
 * client suspended or a service switched off takes effect within that time.
 */
export interface Chamador {
  /** Null for the authority's staff. */
  cliente: ClienteResumo | null;
}

const CACHE_MS = 30_000;
const clientes = new Map<string, { at: number; cliente: ClienteResumo | null }>();
let catalogo: { at: number; ativos: Map<number, string> } | undefined;

async function cached(key: string, load: () => Promise<ClienteResumo | null>): Promise<ClienteResumo | null> {
  const hit = clientes.get(key);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.cliente;
  const cliente = await load();
  if (clientes.size > 1000) clientes.clear();
  clientes.set(key, { at: Date.now(), cliente });
  return cliente;
}

/**
 * Certificates this Lambda has checked, by PEM: an integrator presents the same one on every call, and
 * parsing it and its chain costs more than the look-up. Kept CACHE_MS, and never past its validity:
 * a revocation therefore takes effect within CACHE_MS of the CRL that lists it being read.
 */
const certificados = new Map<string, { at: number; cert: Awaited<ReturnType<typeof certificadoDoChamador>> }>();

async function certificadoVerificado(pem: string | undefined) {
  const hit = pem ? certificados.get(pem) : undefined;
  if (hit && Date.now() - hit.at < CACHE_MS && Date.parse(hit.cert.notAfter) > Date.now()) return hit.cert;
  const cert = await certificadoDoChamador(pem);
  if (certificados.size > 100) certificados.clear();
  certificados.set(pem!, { at: Date.now(), cert });
  return cert;
}

/** The integrator: its certificate, checked, names an ATIVO client. */
export async function chamadorDoCertificado(pem: string | undefined): Promise<Chamador> {
  const cert = await certificadoVerificado(pem);
  const cliente = await cached(`cnpj:${cert.cnpj}`, () => clientePorCnpj(cert.cnpj));
  if (!cliente || cliente.situacao !== 'A') throw new HttpError(403, 'certificadoSemCliente');
  return { cliente };
}

/** A portal user: the staff without a client, a client user with its own (ATIVO or in evaluation). */
export async function chamadorDoUsuario(principal: Principal): Promise<Chamador> {
  if (principal.tipo === 'S') return { cliente: null };
  const cliente = principal.clienteId ? await cached(`id:${principal.clienteId}`, () => clienteResumo(principal.clienteId!)) : null;
  if (!cliente || (cliente.situacao !== 'A' && cliente.situacao !== 'E')) throw new HttpError(403, 'clienteSemConsulta');
  return { cliente };
}

async function catalogoAtivo(): Promise<Map<number, string>> {
  if (catalogo && Date.now() - catalogo.at < CACHE_MS) return catalogo.ativos;
  const ativos = new Map((await servicosAtivos()).map((s) => [s.idModuloServico, s.descricaoModuloServico]));
  catalogo = { at: Date.now(), ativos };
  return ativos;
}

/** The service is active and the client's type may use it (403 servicoNaoPermitido otherwise). */
export async function exigirServico(chamador: Chamador, servico: number): Promise<void> {
  const ativos = await catalogoAtivo();
  const permitido = chamador.cliente === null || SERVICOS_DO_TIPO[chamador.cliente.tipo_cliente].includes(servico);
  if (!ativos.has(servico) || !permitido) {
    throw new HttpError(403, 'servicoNaoPermitido', undefined, { servico: ativos.get(servico) ?? String(servico) });
  }
}

/** For tests: forget what was cached. */
export function esquecerCache(): void {
  clientes.clear();
  certificados.clear();
  catalogo = undefined;
}
