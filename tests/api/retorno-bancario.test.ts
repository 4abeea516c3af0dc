import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@plac/shared/access';
import { addDays, monthOf, previousMonth, todayInBahia } from '@plac/shared/domain';
import { montarCodigoBarras } from '../../functions/faturamento/dae/febraban';
import { faturaIdDe } from '../../functions/faturamento/regras';
import { escreverRetorno } from '../../functions/faturamento/retorno/layout';
import { emitirFatura, lerFatura, type FaturaRecord } from '../../functions/faturamento/store';
import { call } from './http';
import { bearer, tokenFor } from './session';

/**
 * The bank-return import (issue 14 item 4) on the twin: open invoices of our own, their DAEs issued
 * through the API, then a FEBRABAN return file as a bank would write it — a payment on time, a late
 * one with its surcharge, one paid short, and a barcode no DAE has — imported by the admin; the same
 * file again changes nothing; an altered trailer and a wrong extension are refused whole.
 */

const admin: Principal = { userId: 'ret-admin', name: 'Admin Retorno', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
const hoje = todayInBahia();
const mes = previousMonth(previousMonth(monthOf(new Date())));

async function fatura(valorTotal: number): Promise<FaturaRecord> {
  const clienteId = `ret-${randomUUID()}`;
  const record: FaturaRecord = {
    faturaId: faturaIdDe(clienteId, mes), clienteId, cnpj: '12345678000195', razaoSocial: `CLIENTE RETORNO ${clienteId.slice(4, 12)}`, mes, situacao: 'A',
    itens: [], valorServicos: 0, valorAssinatura: valorTotal, valorTotal, assinaturaMinima: 750_00, execucaoId: randomUUID(), emitidaEm: new Date().toISOString(), revisao: 1,
  };
  await emitirFatura(record);
  return record;
}

interface Dae {
  codigoBarras: string;
  valor: number;
  dtVencimento: string;
}

let token: string;
async function dae(f: FaturaRecord, dataVencimento: string): Promise<Dae> {
  const r = await call(`/api/v1/fatura/${f.faturaId}/dae`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ dataVencimento }) });
  expect(r.status).toBe(200);
  return r.body as Dae;
}

const importar = (nomeArquivo: string, conteudo: string, t = token) =>
  call('/api/v1/faturamento-mensal/retornos', { method: 'POST', headers: { ...bearer(t), 'content-type': 'application/json' }, body: JSON.stringify({ nomeArquivo, conteudo }) });

const f = {} as Record<'emDia' | 'atrasada' | 'aMenor', FaturaRecord>;
const d = {} as Record<'emDia' | 'atrasada' | 'aMenor', Dae>;
let arquivo: string;
const vencimento = addDays(hoje, 2);
const atraso = addDays(vencimento, 3);
const desconhecido = montarCodigoBarras({ segmento: '5', identificadorValor: '6', valorCentavos: 123_45, codigoOrgao: '0001', campoLivre: '9'.repeat(25) });

beforeAll(async () => {
  token = await tokenFor(admin);
  f.emDia = await fatura(750_00);
  f.atrasada = await fatura(1_000_00);
  f.aMenor = await fatura(900_00);
  d.emDia = await dae(f.emDia, vencimento);
  d.atrasada = await dae(f.atrasada, vencimento);
  d.aMenor = await dae(f.aMenor, vencimento);
  arquivo = escreverRetorno({
    convenio: '000777', banco: '001', nomeBanco: 'Banco do Brasil', dataGeracao: addDays(atraso, 1), nsa: Math.floor(Math.random() * 900_000) + 1,
    pagamentos: [
      { dataPagamento: vencimento, dataCredito: addDays(vencimento, 1), codigoBarras: d.emDia.codigoBarras, valorRecebido: 750_00 },
      // 3 days late on R$ 1.000,00: fee 0,99% = 9,90; interest 1 month = 10,00.
      { dataPagamento: atraso, dataCredito: addDays(atraso, 1), codigoBarras: d.atrasada.codigoBarras, valorRecebido: 1_019_90 },
      { dataPagamento: vencimento, dataCredito: addDays(vencimento, 1), codigoBarras: d.aMenor.codigoBarras, valorRecebido: 899_00 },
      { dataPagamento: vencimento, dataCredito: addDays(vencimento, 1), codigoBarras: desconhecido, valorRecebido: 123_45 },
    ],
  });
}, 60_000);

describe('the bank-return import', () => {
  it('marks the DAEs paid, with the surcharge of a late one, and reports the rest', async () => {
    const r = await importar('retorno-001.ret', arquivo);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ jaImportado: false, banco: '001', registros: 6, valorTotal: 750_00 + 1_019_90 + 899_00 + 123_45, pagas: 2, jaPagas: 0, naoEncontradas: 1, inconsistentes: 1 });
    const linhas = (r.body as { linhas: { situacao: string; motivo?: string; faturaId?: string; valorAcrescimo?: number }[] }).linhas;
    expect(linhas.map((l) => [l.situacao, l.faturaId ?? null, l.valorAcrescimo ?? null])).toEqual([
      ['PAGA', f.emDia.faturaId, 0],
      ['PAGA', f.atrasada.faturaId, 19_90],
      ['INCONSISTENTE', f.aMenor.faturaId, null],
      ['NAO_ENCONTRADA', null, null],
    ]);
    expect(linhas[2]!.motivo).toBe('Pago a menor: devido R$ 900,00.');

    expect(await lerFatura(f.emDia.faturaId)).toMatchObject({ situacao: 'P', pagamento: { valorPago: 750_00, valorAcrescimo: 0, dataPagamento: vencimento, dataRetornoBanco: addDays(atraso, 1) } });
    expect(await lerFatura(f.atrasada.faturaId)).toMatchObject({ situacao: 'P', pagamento: { valorPago: 1_019_90, valorAcrescimo: 19_90, dataPagamento: atraso } });
    expect(await lerFatura(f.aMenor.faturaId)).toMatchObject({ situacao: 'A' });
    expect((await lerFatura(f.aMenor.faturaId))!.pagamento).toBeUndefined();
  });

  it('changes nothing when the same file is imported again', async () => {
    const antes = await Promise.all([f.emDia, f.atrasada, f.aMenor].map((x) => lerFatura(x.faturaId)));
    const again = await importar('retorno-001-copia.ret', arquivo.replaceAll('\r\n', '\n'));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ jaImportado: true, nomeArquivo: 'retorno-001.ret', pagas: 2 });
    expect(await Promise.all([f.emDia, f.atrasada, f.aMenor].map((x) => lerFatura(x.faturaId)))).toEqual(antes);
  });

  it('refuses an altered trailer and a foreign extension whole, writing nothing', async () => {
    const outro = await fatura(500_00);
    const outroDae = await dae(outro, vencimento);
    const bom = escreverRetorno({ convenio: '1', banco: '237', nomeBanco: 'Bradesco', dataGeracao: hoje, nsa: 7, pagamentos: [{ dataPagamento: hoje, dataCredito: hoje, codigoBarras: outroDae.codigoBarras, valorRecebido: 500_00 }] });
    const alterado = bom.replace(/^Z(\d{6})\d{17}/m, (_, n: string) => `Z${n}${'1'.padStart(17, '0')}`);
    const r = await importar('alterado.ret', alterado);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'retornoInvalido', errors: { arquivo: ['Linha 3: O trailer informa o total de R$ 0,01; os registros G somam R$ 500,00.'] } });
    expect(await importar('retorno.pdf', bom)).toMatchObject({ status: 400, body: { error: 'retornoExtensao' } });
    expect(await lerFatura(outro.faturaId)).toMatchObject({ situacao: 'A' });
    // The good file then pays it.
    expect(await importar('bom.txt', bom)).toMatchObject({ status: 200, body: { pagas: 1 } });
    expect(await lerFatura(outro.faturaId)).toMatchObject({ situacao: 'P' });
  });

  it('lists the imports newest first, for the admin only', async () => {
    const lista = await call('/api/v1/faturamento-mensal/retornos', { headers: bearer(token) });
    expect(lista.status).toBe(200);
    expect((lista.body as { nomeArquivo: string }[]).map((r) => r.nomeArquivo).slice(0, 2)).toEqual(['bom.txt', 'retorno-001.ret']);
    const cliente = await tokenFor({ userId: 'ret-cli', name: 'Cliente', tipo: 'C', roles: ['cliente'], clienteId: f.emDia.clienteId });
    expect((await importar('x.ret', arquivo, cliente)).status).toBe(403);
  });
});
