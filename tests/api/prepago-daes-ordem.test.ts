import { randomInt, randomUUID } from 'node:crypto';
import type { Principal } from '@plac/shared/access';
import { cnpjCheckDigits, foldText, todayInBahia } from '@plac/shared/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { putCliente } from '../../functions/clientes/store';
import { abrirCiclo, type ContaRecord, type ReservaRecord } from '../../functions/prepago/store';
import { call } from './http';
import { bearer, tokenFor } from './session';

/**
 * DAE lists sort by number (issue 37 item 3): a bookkeeper with 11 reservation cycles sees its DAEs
 * newest cycle first by number (11, 10, 9, …, 2, 1), on one page and across pages, never cycle 10
 * between 2 and 1 as the sort key's text (`…#ciclo_10` < `…#ciclo_2`) had it. The cycles are opened
 * through the store (each after the one before ended), dated 2001 so that they sit at the end of the
 * admin's every-bookkeeper list (newest first) that other tests read.
 */

const admin: Principal = { userId: 'pre-ordem-admin', name: 'Admin', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const clienteId = `pre-ordem-${randomUUID()}`;
const first12 = `${String(randomInt(10_000_000, 99_999_999))}0001`;
const cnpj = `${first12}${cnpjCheckDigits(first12)}`;
const CICLOS = 11;

function conta(ciclo: number): ContaRecord {
  // Each cycle in force and already past its deadline: the next reservation may open.
  return {
    clienteId, cnpj, razaoSocial: `Escriturador ${clienteId}`, ciclo, situacao: 'VIGENTE', valorContratado: 500_000_00, saldoMilesimos: 0, prazoConsumo: '2001-12-31',
    valores: { envioFate: 10, monitoramento: 25, registroCessao: 350 }, updatedAt: '2001-01-01T00:00:00.000Z',
  };
}

function reserva(ciclo: number): ReservaRecord {
  const dois = String(ciclo).padStart(2, '0');
  return {
    clienteId, ciclo, reservaId: `PA-${clienteId}-${ciclo}`, cnpj, razaoSocial: `Escriturador ${clienteId}`, emailContato: 'ordem@teste.local',
    qtdEnvioFate: 50_000_000, qtdMonitoramentoDe: 0, qtdRegistroCessao: 0, valor: 500_000_00, faixaId: 'f4', mes: '2001-01', situacao: 'P',
    dtVencimento: '2001-01-31', numeroDae: ciclo, codigoBarras: '8'.repeat(44), linhaDigitavel: '8'.repeat(48), chavePdf: `prepago/${clienteId}/${ciclo}.pdf`,
    pagoEm: '2001-01-20', createdAt: `2001-01-01T00:00:${dois}.000Z`, createdBy: 'teste', lista: 'reservas',
  };
}

let token: string;

beforeAll(async () => {
  const at = new Date().toISOString();
  const razaoSocial = `Escriturador ${clienteId}`;
  await putCliente({ clienteId, cnpj, razaoSocial, razaoFolded: foldText(razaoSocial), tipoCliente: 'IMF', situacao: 'A', email: `${clienteId}@teste.local`, createdAt: at, updatedAt: at });
  let anterior: ContaRecord | null = null;
  for (let ciclo = 1; ciclo <= CICLOS; ciclo++) {
    expect(await abrirCiclo(conta(ciclo), reserva(ciclo), anterior, todayInBahia(), 1)).toBe(true);
    anterior = conta(ciclo);
  }
  token = await tokenFor(admin);
});

type Lista = { items: { dae: { id: string; numero: number } }[]; nextCursor?: string };
const listar = async (query: string) => {
  const r = await call(`/api/v1/pagamento-antecipado/daes?cnpj=${cnpj}&${query}`, { headers: bearer(token) });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as Lista;
};
const ciclos = (l: Lista) => l.items.map((i) => Number(i.dae.id.slice(i.dae.id.lastIndexOf('-') + 1)));
const decrescente = Array.from({ length: CICLOS }, (_, i) => CICLOS - i);

describe('a bookkeeper’s DAE list', () => {
  it('lists cycles 11, 10, …, 2, 1 on one page, the DAE numbers in the same order', async () => {
    const lista = await listar('perPage=25');
    expect(ciclos(lista)).toEqual(decrescente);
    expect(lista.items.map((i) => i.dae.numero)).toEqual(decrescente);
    expect(lista.nextCursor).toBeUndefined();
  });

  it('pages by number: 10 a page gives 11…2, then 1', async () => {
    const primeira = await listar('perPage=10');
    expect(ciclos(primeira)).toEqual(decrescente.slice(0, 10));
    expect(primeira.nextCursor).toEqual(expect.any(String));
    const segunda = await listar(`perPage=10&cursor=${primeira.nextCursor}`);
    expect(ciclos(segunda)).toEqual([1]);
    expect(segunda.nextCursor).toBeUndefined();
  });

  it('keeps the order under a status filter, and refuses a cursor of another query', async () => {
    const primeira = await listar('situacao=P&perPage=10');
    expect(ciclos(primeira)).toEqual(decrescente.slice(0, 10));
    expect(ciclos(await listar(`situacao=P&perPage=10&cursor=${primeira.nextCursor}`))).toEqual([1]);
    const outra = await call(`/api/v1/pagamento-antecipado/daes?cnpj=${cnpj}&perPage=25&cursor=${primeira.nextCursor}`, { headers: bearer(token) });
    expect(outra).toMatchObject({ status: 400, body: { error: 'cursorInvalido' } });
  });
});
