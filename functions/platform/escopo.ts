import { isAdmin, type Principal } from '@plac/shared/access';
import { forbidden } from './errors';

/**
 * The client a caller may see on a screen with a client filter (consumption, webhook monitoring): the
 * one an administrator asks for (or every client, when none), always the own one for a client user,
 * who asking for another gets 403 clienteNaoPermitido.
 */
export function clienteDoFiltro(principal: Principal, pedido: string | undefined): string | undefined {
  if (isAdmin(principal)) return pedido;
  if (!principal.clienteId) throw forbidden('clienteNaoPermitido');
  if (pedido && pedido !== principal.clienteId) throw forbidden('clienteNaoPermitido');
  return principal.clienteId;
}
