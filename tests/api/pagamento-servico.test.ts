import { randomUUID } from 'node:crypto';
import { foldText, monthOf, previousMonth } from '@plac/shared/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { putCliente } from '../../functions/clientes/store';
import { faturaIdDe } from '../../functions/faturamento/regras';
import { emitirFatura, registrarPagamento, type FaturaRecord } from '../../functions/faturamento/store';
import { call } from './http';
import { sefazToken } from './people';
import { bearer } from './session';

/**
 * Pagamento de Serviços by key (issue 38): the rows a page at a time (months newest first, then UF,
 * then client name) and the period's totals from the counters kept as invoices are issued and paid,
 * not from reading the period's invoices. The month is one of the demo's sharing group (as in
 * repasse.test.ts), shared with other files, so the totals are checked as the change this file makes.
 */

const M = monthOf(new Date());
let X = M;
for (let i = 0; i < 10; i++) X = previousMonth(X);
const marca = randomUUID().slice(0, 8).toUpperCase();
let admin: string;

type Tela = {
  linhas: { consumoId: string; uf: string; mesReferencia: string; razaoSocial: string; valorTotal: number; situacao: 'A' | 'P' }[];
  nextCursor?: string;
  totaisUf: { uf: string; total: number }[];
  totaisSefaz: { uf: string; nome: string; total: number }[] | null;
  totalRepassado: number | null;
  totalGeral: number | null;
};

const consultar = async (filtro: string) => {
  const r = await call(`/api/v1/pagamento-servico?de=${X}&ate=${X}${filtro}`, { headers: bearer(admin) });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as Tela;
};
const totalUf = (t: Tela, uf: string) => t.totaisUf.find((x) => x.uf === uf)?.total ?? 0;

async function fatura(n: number, uf: string, valor: number, clienteId = `pag-${marca}-${n}`): Promise<FaturaRecord> {
  const record: FaturaRecord = {
    faturaId: faturaIdDe(clienteId, X), clienteId, cnpj: '12345678000195', razaoSocial: `PAG ${marca} ${String(n).padStart(2, '0')}`, mes: X, situacao: 'A',
    itens: [{ servico: 1, descricao: 'Consulta Fat-e por Chave de Acesso', uf, requisicoes: 10, valorUnitario: 150, valor, promocional: false }],
    valorServicos: valor, valorAssinatura: 0, valorTotal: valor, assinaturaMinima: 0,
    execucaoId: randomUUID(), emitidaEm: new Date().toISOString(), revisao: 1,
  };
  await emitirFatura(record);
  return record;
}
const pagar = async (f: FaturaRecord) =>
  expect(await registrarPagamento(f.faturaId, 1, { codigoBarras: '8'.repeat(44), dataPagamento: `${X}-20`, dataRetornoBanco: `${X}-21`, valorPago: f.valorTotal, valorAcrescimo: 0, importacaoId: 'teste' })).toBe('paga');

let antes: { todos: Tela; abertas: Tela; pagas: Tela };
let faturas: FaturaRecord[];

beforeAll(async () => {
  admin = await sefazToken();
  antes = { todos: await consultar('&uf=TODOS'), abertas: await consultar('&situacao=A'), pagas: await consultar('&situacao=P') };
  // 23 invoices of BA (more than two pages of 10), 1 of SP; the even ones paid.
  faturas = [];
  for (let n = 0; n < 24; n++) faturas.push(await fatura(n, n === 23 ? 'SP' : 'BA', 100_00 + n));
  for (const f of faturas.filter((_, n) => n % 2 === 0)) await pagar(f);
  // A client in evaluation: its invoice is left out of the Sefaz's rows and totals.
  const avaliacao = `pag-${marca}-aval`;
  const em = new Date().toISOString();
  await putCliente({ clienteId: avaliacao, cnpj: '66342187000110', razaoSocial: 'Em Avaliação', razaoFolded: foldText('Em Avaliação'), tipoCliente: 'ESF', situacao: 'E', email: `${avaliacao}@teste.test`, uf: 'BA', createdAt: em, updatedAt: em, updatedBy: 'teste' });
  await pagar(await fatura(99, 'BA', 777_77, avaliacao));
}, 120_000);

describe('Pagamento de Serviços, paged and counted', () => {
  it('pages the rows of a UF past two pages, each row once, in client-name order, with the whole period’s totals on every page', async () => {
    const vistas: Tela['linhas'] = [];
    let cursor: string | undefined;
    let paginas = 0;
    do {
      const t = await consultar(`&uf=BA&perPage=10${cursor ? `&cursor=${cursor}` : ''}`);
      expect(t.linhas.length).toBeLessThanOrEqual(10);
      vistas.push(...t.linhas);
      // The totals do not depend on the page.
      expect(totalUf(t, 'BA')).toBe(totalUf(await consultar('&uf=BA'), 'BA'));
      cursor = t.nextCursor;
      paginas++;
    } while (cursor && paginas < 50);
    expect(vistas.every((l) => l.uf === 'BA' && l.mesReferencia === X)).toBe(true);
    const minhas = vistas.filter((l) => l.razaoSocial.startsWith(`PAG ${marca} `));
    expect(minhas.map((l) => l.razaoSocial)).toEqual(faturas.slice(0, 23).map((f) => f.razaoSocial));
    expect(new Set(vistas.map((l) => l.consumoId)).size).toBe(vistas.length);
    expect(vistas.some((l) => l.razaoSocial === 'Em Avaliação')).toBe(false);
    expect(paginas).toBeGreaterThanOrEqual(3);
  });

  it('moves the totals by what was issued and paid, per UF and status, leaving the client in evaluation out', async () => {
    const depois = { todos: await consultar('&uf=TODOS'), abertas: await consultar('&situacao=A'), pagas: await consultar('&situacao=P') };
    const soma = (fs: FaturaRecord[]) => fs.reduce((s, f) => s + f.valorTotal, 0);
    const ba = faturas.slice(0, 23);
    expect(totalUf(depois.todos, 'BA') - totalUf(antes.todos, 'BA')).toBe(soma(ba));
    expect(totalUf(depois.todos, 'SP') - totalUf(antes.todos, 'SP')).toBe(soma(faturas.slice(23)));
    expect(totalUf(depois.abertas, 'BA') - totalUf(antes.abertas, 'BA')).toBe(soma(ba.filter((_, n) => n % 2 === 1)));
    expect(totalUf(depois.pagas, 'BA') - totalUf(antes.pagas, 'BA')).toBe(soma(ba.filter((_, n) => n % 2 === 0)));
    expect(depois.todos.totalGeral! - antes.todos.totalGeral!).toBe(soma(faturas));
    // What the paid ones share: the whole of them (the surcharge is none here), among the beneficiaries.
    expect(depois.pagas.totalRepassado! - antes.pagas.totalRepassado!).toBe(soma(faturas.filter((_, n) => n % 2 === 0)));
    expect(depois.todos.totalRepassado).toBe(depois.pagas.totalRepassado);
    // Open ones share nothing.
    expect(depois.abertas.totalRepassado).toBe(0);
  });

  it('binds the cursor to its search: another filter’s cursor is refused with 400', async () => {
    const primeira = await consultar('&uf=BA&perPage=10');
    expect(primeira.nextCursor).toBeTruthy();
    const r = await call(`/api/v1/pagamento-servico?de=${X}&ate=${X}&uf=SP&perPage=10&cursor=${primeira.nextCursor}`, { headers: bearer(admin) });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'cursorInvalido' });
    expect((await call(`/api/v1/pagamento-servico?de=${X}&ate=${X}&perPage=7`, { headers: bearer(admin) })).status).toBe(400);
  });
});
