import { clientes, type ResponseOf } from '@plac/shared/contracts';
import { formatCnpj } from '@plac/shared/domain';
import { useMemo } from 'react';
import { useApiQuery } from './api';

type ClienteResumo = ResponseOf<typeof clientes.allClientes>[number];

/** A client as every client filter names it: 'Razão Social - CNPJ'. */
export const rotuloDoCliente = (razaoSocial: string, cnpj: string) => `${razaoSocial} - ${formatCnpj(cnpj)}`;

/**
 * The clients an administrator filters by (the whole list, GET …/get-all-cliente, asked only for an
 * administrator), as a Dropdown's options keyed by the client's id or CNPJ, as the screen's API takes
 * it. `sem` leaves some out (billing's screens: the clients in evaluation). The screen adds its
 * 'Todos' and, for a client user, its own client.
 */
export function useOpcoesDeClientes(admin: boolean, valor: 'id' | 'cnpj', sem?: (c: ClienteResumo) => boolean) {
  const consulta = useApiQuery(clientes.allClientes, {}, { enabled: admin });
  const opcoes = useMemo(
    () => (consulta.data ?? []).filter((c) => !sem?.(c)).map((c) => ({ value: c[valor], label: rotuloDoCliente(c.razao_social, c.cnpj) })),
    // `sem` is a module-level function where given: not a dependency.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [consulta.data, valor],
  );
  return { consulta, opcoes };
}
