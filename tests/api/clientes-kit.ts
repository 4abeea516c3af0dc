import { foldText } from '@plac/shared/domain';
import { putCliente } from '../../functions/clientes/store';

type ClienteGravado = Parameters<typeof putCliente>[0];

/**
 * A client written straight to the twin's table as a released registration leaves it (with its
 * address, contact and category), for the tests that need one without going through the onboarding.
 * `c` gives what a test cares about; the rest is a plausible client of the UF.
 */
export async function gravarCliente(c: Pick<ClienteGravado, 'clienteId' | 'cnpj' | 'razaoSocial'> & Partial<ClienteGravado>): Promise<ClienteGravado> {
  const at = new Date().toISOString();
  const record: ClienteGravado = {
    razaoFolded: foldText(c.razaoSocial),
    tipoCliente: 'ESF',
    situacao: 'A',
    email: `${c.clienteId}@teste.local`,
    uf: 'BA',
    logradouro: 'Rua 1',
    numero: '1',
    bairro: 'Centro',
    cidade: 'Salvador',
    cep: '40000000',
    telefone: '71999990000',
    nomeResponsavel: 'Resp',
    categoria: 'PRIVADA',
    createdAt: at,
    updatedAt: at,
    updatedBy: 'teste',
    ...c,
  };
  await putCliente(record);
  return record;
}
