import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@plac/shared/access';
import { addDays, fimDoProximoMes, formatDate, monthOf, previousMonth, todayInBahia } from '@plac/shared/domain';
import { faturaIdDe } from '../../functions/faturamento/regras';
import { daePorCodigoBarras } from '../../functions/faturamento/dae-fatura';
import { codigoBarrasValido, linhaDigitavel } from '../../functions/dae/febraban';
import { daesDaFatura } from '../../functions/dae/store';
import { emitirFatura, lerFatura, type FaturaRecord } from '../../functions/faturamento/store';
import { call } from './http';
import { bearer, tokenFor } from './session';

/**
 * The DAE of an invoice on the twin (issue 14 item 3): invoices written straight into the billing store
 * (the billing run has its own test), then POST /api/v1/fatura/{idConsumo}/dae by role, with the due-date
 * rules, the idempotency, the barcode index and the PDF behind the presigned URL.
 */

const admin: Principal = { userId: 'dae-admin', name: 'Admin DAE', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const gestor: Principal = { userId: 'dae-gestor', name: 'Gestor DAE', tipo: 'S', roles: ['sefaz_gestor'], uf: 'BA' };
const hoje = todayInBahia();
/** Two months ago: its default due date (the 15th of last month) is always past. */
const mesAntigo = previousMonth(previousMonth(monthOf(new Date())));

async function fatura(situacao: 'A' | 'P', valorTotal = 750_60): Promise<FaturaRecord> {
  const clienteId = `dae-${randomUUID()}`;
  const record: FaturaRecord = {
    faturaId: faturaIdDe(clienteId, mesAntigo),
    clienteId,
    cnpj: '12345678000195',
    razaoSocial: `CLIENTE DAE ${clienteId.slice(4, 12)}`,
    mes: mesAntigo,
    situacao,
    itens: [],
    valorServicos: 0,
    valorAssinatura: valorTotal,
    valorTotal,
    assinaturaMinima: 750_00,
    execucaoId: randomUUID(),
    emitidaEm: new Date().toISOString(),
    revisao: 1,
  };
  await emitirFatura(record);
  return record;
}

const cliente = (clienteId: string): Principal => ({ userId: `u-${clienteId}`, name: 'Cliente DAE', tipo: 'C', roles: ['cliente'], clienteId });

function gerar(f: FaturaRecord, body: unknown, token?: string) {
  return call(`/api/v1/fatura/${f.faturaId}/dae`, { method: 'POST', headers: { ...(token ? bearer(token) : {}), 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

interface DaeBody {
  urlDAE: string;
  dtVencimento: string;
  numero: number;
  valor: number;
  codigoBarras: string;
  linhaDigitavel: string;
}

let aberta: FaturaRecord;
let outra: FaturaRecord;
let paga: FaturaRecord;
let tokenAdmin: string;

beforeAll(async () => {
  [aberta, outra, paga] = await Promise.all([fatura('A'), fatura('A', 1_234_56), fatura('P')]);
  tokenAdmin = await tokenFor(admin);
});

describe('POST /api/v1/fatura/{idConsumo}/dae', () => {
  it('asks for a new due date when the default one (the 15th of the month after the reference) has passed', async () => {
    const r = await gerar(aberta, {}, tokenAdmin);
    const [ano, mes] = mesAntigo.split('-').map(Number) as [number, number];
    const padrao = formatDate(`${mes === 12 ? ano + 1 : ano}-${String((mes % 12) + 1).padStart(2, '0')}-15`);
    expect(r).toMatchObject({ status: 400, body: { error: 'daeVencimentoExpirado', message: `A data de vencimento ${padrao} já passou. Informe uma nova data de vencimento.` } });
  });

  it('refuses a new due date before today or after the end of next month, and one that is not a date', async () => {
    const fim = fimDoProximoMes(hoje);
    for (const data of [addDays(hoje, -1), addDays(fim, 1)]) {
      expect(await gerar(aberta, { dataVencimento: data }, tokenAdmin)).toMatchObject({
        status: 400,
        body: { error: 'daeVencimentoForaDoPrazo', message: `A data de vencimento deve estar entre ${formatDate(hoje)} e ${formatDate(fim)}.` },
      });
    }
    for (const data of ['2026-02-30', '15/12/2026', 'x', 20261215]) expect((await gerar(aberta, { dataVencimento: data }, tokenAdmin)).status).toBe(400);
  });

  it('issues the DAE (admin): a valid barcode of the invoice’s value and due date, the PDF behind an inline URL', async () => {
    const r = await gerar(aberta, { dataVencimento: hoje }, tokenAdmin);
    expect(r.status).toBe(200);
    const dae = r.body as DaeBody;
    expect(dae).toMatchObject({ dtVencimento: hoje, valor: 750_60 });
    expect(codigoBarrasValido(dae.codigoBarras)).toBe(true);
    expect(dae.codigoBarras.slice(0, 3)).toBe('856');
    expect(dae.codigoBarras.slice(4, 15)).toBe('00000075060');
    expect(dae.codigoBarras.slice(19, 27)).toBe(hoje.replaceAll('-', ''));
    expect(dae.codigoBarras.slice(27, 33)).toBe(mesAntigo.replace('-', ''));
    expect(Number(dae.codigoBarras.slice(33))).toBe(dae.numero);
    expect(dae.linhaDigitavel).toBe(linhaDigitavel(dae.codigoBarras));
    const pdf = await fetch(dae.urlDAE);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe('inline');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // The invoice now carries its DAE's due date (the next default), in the list too.
    expect((await lerFatura(aberta.faturaId))?.dae).toMatchObject({ dtVencimento: hoje, codigoBarras: dae.codigoBarras, revisao: 1 });
    const lista = await call(`/api/v1/fatura?dataInicio=${mesAntigo}&dataFim=${mesAntigo}`, { headers: bearer(await tokenFor(cliente(aberta.clienteId))) });
    expect(lista.body).toMatchObject({ items: [{ id: aberta.faturaId, dae: { urlDae: null, dtVencimento: hoje, valorPago: null } }] });
    // The detail names the DAE the invoice is filed with: its number and due date (issue 28 item 4).
    const detalhe = await call(`/api/v1/fatura/${aberta.faturaId}`, { headers: bearer(tokenAdmin) });
    expect(detalhe.body).toMatchObject({ situacao: 'A', dae: { numero: dae.numero, dtVencimento: hoje }, pagamento: null });
  });

  it('is idempotent: the same request, and one without a date (the DAE’s own due date is the default), give the same DAE', async () => {
    const primeiro = (await gerar(aberta, { dataVencimento: hoje }, tokenAdmin)).body as DaeBody;
    const [segundo, semData, doCliente] = await Promise.all([
      gerar(aberta, { dataVencimento: hoje }, tokenAdmin),
      gerar(aberta, {}, tokenAdmin),
      gerar(aberta, { dataVencimento: hoje }, await tokenFor(cliente(aberta.clienteId))),
    ]);
    for (const r of [segundo, semData, doCliente]) {
      expect(r.status).toBe(200);
      const dae = r.body as DaeBody;
      expect(dae).toMatchObject({ codigoBarras: primeiro.codigoBarras, numero: primeiro.numero, linhaDigitavel: primeiro.linhaDigitavel, dtVencimento: hoje });
      expect(new URL(dae.urlDAE).pathname).toBe(new URL(primeiro.urlDAE).pathname); // the same stored PDF
    }
    expect(await daesDaFatura(aberta.faturaId)).toHaveLength(1);
  });

  it('two first requests at once store one DAE and answer it to both', async () => {
    const amanha = addDays(hoje, 1);
    const rs = await Promise.all([0, 1, 2].map(() => gerar(outra, { dataVencimento: amanha }, tokenAdmin)));
    const codigos = new Set(rs.map((r) => (r.body as DaeBody).codigoBarras));
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(codigos.size).toBe(1);
    expect(await daesDaFatura(outra.faturaId)).toHaveLength(1);
  });

  it('points the invoice at the DAE last asked for: one created by a request that died before answering is pointed at by its retry, and an earlier due date asked again points back (issue 42)', async () => {
    const f = await fatura('A', 2_000_00);
    const depois = addDays(hoje, 2);
    const primeiro = (await gerar(f, { dataVencimento: hoje }, tokenAdmin)).body as DaeBody;
    expect((await lerFatura(f.faturaId))?.dae).toMatchObject({ codigoBarras: primeiro.codigoBarras, dtVencimento: hoje });
    // As a request that died after creating the DAE left it before issue 42: the DAE stored, the invoice not pointed at it.
    const { novoDae } = await import('../../functions/dae/emissao');
    const orfao = await novoDae({ origem: 'FATURA', revisao: 1, clienteId: f.clienteId, razaoSocial: f.razaoSocial, cnpj: f.cnpj, mes: f.mes, documentoId: f.faturaId, rotulo: 'Fatura', valor: f.valorTotal }, depois, 'teste', new Date());
    expect((await lerFatura(f.faturaId))?.dae?.codigoBarras).toBe(primeiro.codigoBarras);
    const retry = (await gerar(f, { dataVencimento: depois }, tokenAdmin)).body as DaeBody;
    expect(retry.codigoBarras).toBe(orfao.codigoBarras);
    expect((await lerFatura(f.faturaId))?.dae).toMatchObject({ codigoBarras: orfao.codigoBarras, dtVencimento: depois });
    const devolta = (await gerar(f, { dataVencimento: hoje }, tokenAdmin)).body as DaeBody;
    expect(devolta.codigoBarras).toBe(primeiro.codigoBarras);
    expect((await lerFatura(f.faturaId))?.dae).toMatchObject({ codigoBarras: primeiro.codigoBarras, dtVencimento: hoje });
  });

  it('creates a DAE and points its invoice at it in one transaction: when the invoice cannot be written, no DAE is left (issue 42)', async () => {
    const { novoDae } = await import('../../functions/dae/emissao');
    const { marcacaoDoDae } = await import('../../functions/faturamento/store');
    const inexistente = `dae-inexistente-${randomUUID()}`;
    const documento = { origem: 'FATURA' as const, revisao: 1, clienteId: 'ninguem', razaoSocial: 'NINGUEM', cnpj: '12345678000195', mes: mesAntigo, documentoId: inexistente, rotulo: 'Fatura', valor: 100_00 };
    // The invoice's update is conditional on the invoice existing (ElectroDB's patch): it fails, so does the DAE's creation.
    await expect(novoDae(documento, hoje, 'teste', new Date(), (d) => [marcacaoDoDae(inexistente, { dtVencimento: d.dtVencimento, codigoBarras: d.codigoBarras, revisao: d.revisao })])).rejects.toThrow();
    expect(await daesDaFatura(inexistente)).toEqual([]);
  });

  it('finds a DAE by its barcode (the index the bank-return import will use)', async () => {
    const dae = (await gerar(aberta, { dataVencimento: hoje }, tokenAdmin)).body as DaeBody;
    expect(await daePorCodigoBarras(dae.codigoBarras)).toMatchObject({ faturaId: aberta.faturaId, numero: dae.numero, valor: 750_60, dtVencimento: hoje });
    expect(await daePorCodigoBarras('8'.repeat(44))).toBeNull();
    expect(await daePorCodigoBarras('nope')).toBeNull();
  });

  it('a client user only for its own client’s invoice; a gestor never; nobody anonymous', async () => {
    expect((await gerar(aberta, { dataVencimento: hoje }, await tokenFor(cliente(aberta.clienteId)))).status).toBe(200);
    expect(await gerar(aberta, { dataVencimento: hoje }, await tokenFor(cliente(outra.clienteId)))).toMatchObject({ status: 403, body: { error: 'clienteNaoPermitido' } });
    expect((await gerar(aberta, { dataVencimento: hoje }, await tokenFor(gestor))).status).toBe(403);
    expect((await gerar(aberta, { dataVencimento: hoje })).status).toBe(401);
  });

  it('refuses a paid invoice and answers 404 for an unknown one', async () => {
    expect(await gerar(paga, { dataVencimento: hoje }, tokenAdmin)).toMatchObject({
      status: 400,
      body: { error: 'daeFaturaNaoAberta', message: 'Somente uma fatura em aberto pode ter DAE emitido.' },
    });
    const r = await call(`/api/v1/fatura/${faturaIdDe(`dae-${randomUUID()}`, mesAntigo)}/dae`, { method: 'POST', headers: { ...bearer(tokenAdmin), 'content-type': 'application/json' }, body: '{}' });
    expect(r.status).toBe(404);
  });
});
