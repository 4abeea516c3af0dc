import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { cnpjCheckDigits, foldText } from '@plac/shared/domain';
import { putCliente } from '../../functions/clientes/store';
import { faturaIdDe } from '../../functions/faturamento/regras';
import { emitirFatura } from '../../functions/faturamento/store';

/**
 * The invoice specs' shared setup: a client of this run (a fresh CNPJ, never a demo client) and its open
 * invoice of a month, written to the e2e twin's table (call after signIn, which points this worker at
 * it); and the invoice list's filter as a user would have left it, so consultar-fatura opens on it.
 */

export interface ClienteE2e {
  id: string;
  cnpj: string;
  razao: string;
}

export function novoClienteE2e(prefixo: string, nome: string): ClienteE2e {
  const sufixo = randomUUID().slice(0, 8);
  const first12 = String(Math.floor(Math.random() * 1e12)).padStart(12, '0');
  return { id: `e2e-${prefixo}-${sufixo}`, cnpj: first12 + cnpjCheckDigits(first12), razao: `${nome} ${sufixo}` };
}

export async function gravarCliente(c: ClienteE2e, uf = 'BA') {
  const now = new Date().toISOString();
  await putCliente({
    clienteId: c.id, cnpj: c.cnpj, razaoSocial: c.razao, razaoFolded: foldText(c.razao), tipoCliente: 'ESF', situacao: 'A',
    email: `${c.id}@faturas.e2e`, uf, createdAt: now, updatedAt: now, updatedBy: 'e2e',
  });
}

/** The client's open invoice of `mes` (the minimum subscription only, R$ 750,00 unless said); its id. */
export async function emitirFaturaAberta(c: ClienteE2e, mes: string, valorTotal = 750_00): Promise<string> {
  const faturaId = faturaIdDe(c.id, mes);
  await emitirFatura({
    faturaId, clienteId: c.id, cnpj: c.cnpj, razaoSocial: c.razao, mes, situacao: 'A', itens: [],
    valorServicos: 0, valorAssinatura: valorTotal, valorTotal, assinaturaMinima: 750_00, execucaoId: randomUUID(), emitidaEm: new Date().toISOString(), revisao: 1,
  });
  return faturaId;
}

/** The session's saved invoice filter: this client, that month. */
export async function filtrarFaturas(page: Page, cnpj: string, mes: string) {
  await page.evaluate(
    ([c, m]) => {
      const s = JSON.parse(sessionStorage.getItem('plac-fate.session')!) as { filters: Record<string, unknown> };
      s.filters.fatura = { cliente: c, mesInicio: m, mesFim: m, situacao: null };
      sessionStorage.setItem('plac-fate.session', JSON.stringify(s));
    },
    [cnpj, mes] as const,
  );
}
