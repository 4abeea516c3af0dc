import { randomUUID } from 'node:crypto';
import { monthOf, nextMonth, previousMonth } from '@plac/shared/domain';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { faturaIdDe } from '../../functions/faturamento/regras';
import { emitirFatura, lerFatura, registrarPagamento, type FaturaRecord } from '../../functions/faturamento/store';
import { call } from './http';
import { sefazToken } from './people';
import { bearer, tokenFor } from './session';

/**
 * The repasse (issue 15 item 4) on the twin: paid invoices of a month of the demo's deactivated sharing
 * group (9 months ago: SEFAZ BA 70%, FATEC 25%, Resíduo 5%), the forecast CSV, a simulation (the
 * invoices PREVIA_ANALISADA, its CSV), the definitive run through the Step Functions machine (the
 * invoices DISTRIBUIDO, the transfer orders), a second definitive run and a later simulation refused.
 */

let admin: string;
const M = monthOf(new Date());
let X = M;
for (let i = 0; i < 9; i++) X = previousMonth(X);

async function faturaPaga(itens: { uf: string; valor: number }[], valorTotal: number): Promise<FaturaRecord> {
  const clienteId = `rep-${randomUUID()}`;
  const record: FaturaRecord = {
    faturaId: faturaIdDe(clienteId, X), clienteId, cnpj: '12345678000195', razaoSocial: `CLIENTE REPASSE ${clienteId.slice(4, 12)}`, mes: X, situacao: 'A',
    itens: itens.map((i) => ({ servico: 1, descricao: 'Consulta Fat-e por Chave de Acesso', uf: i.uf, requisicoes: 10, valorUnitario: 150, valor: i.valor, promocional: false })),
    valorServicos: itens.reduce((s, i) => s + i.valor, 0), valorAssinatura: valorTotal - itens.reduce((s, i) => s + i.valor, 0), valorTotal, assinaturaMinima: 0,
    execucaoId: randomUUID(), emitidaEm: new Date().toISOString(), revisao: 1,
  };
  await emitirFatura(record);
  expect(await registrarPagamento(record.faturaId, 1, { codigoBarras: '8'.repeat(44), dataPagamento: `${X}-20`, dataRetornoBanco: `${X}-21`, valorPago: valorTotal, valorAcrescimo: 0, importacaoId: 'teste' })).toBe('paga');
  return record;
}

const send = (method: string, path: string, body?: unknown) =>
  call(path, { method, headers: { 'content-type': 'application/json', ...bearer(admin) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

async function aguardar(tipo: 'simulacao' | 'definitivo') {
  await vi.waitUntil(async () => {
    const s = (await send('GET', `/api/v1/repasse/situacao?mes=${X}`)).body as Record<string, { situacao: string } | null>;
    return s[tipo]?.situacao === 'CONCLUIDO' || s[tipo]?.situacao === 'FALHA';
  }, { timeout: 20_000, interval: 200 });
  const s = (await send('GET', `/api/v1/repasse/situacao?mes=${X}`)).body as Record<string, { situacao: string; erro: string | null }>;
  expect(s[tipo], JSON.stringify(s[tipo])).toMatchObject({ situacao: 'CONCLUIDO' });
}

let a: FaturaRecord;
let b: FaturaRecord;

beforeAll(async () => {
  admin = await sefazToken();
  a = await faturaPaga([{ uf: 'BA', valor: 600_00 }, { uf: 'RO', valor: 400_00 }], 1_000_01);
  b = await faturaPaga([], 750_00);
}, 60_000);

describe('the repasse', () => {
  it('forecasts each paid invoice per origin UF and beneficiary, to the centavo', async () => {
    const r = await send('GET', `/api/v1/repasse/previsao.csv?mes=${X}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toContain('previsao-repasse.csv');
    const linhas = (r.body as string).replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(linhas[0]).toBe('UF;CNPJ;Razão Social;Fatura;Valor UF;Beneficiado;Tipo;Valor');
    const minhas = linhas.filter((l) => l.includes(a.faturaId)).map((l) => l.split(';'));
    // 1.000,01 over BA 600 / RO 400 → 600,01 and 400,00; BA: 70% to SEFAZ BA; RO has no SEFAZ: its 70% to the Resíduo.
    expect(minhas.map((c) => [c[0], c[4], c[5], c[7]])).toEqual([
      ['BA', '600,01', 'SEFAZ BA', '420,01'],
      ['BA', '600,01', 'FATEC', '150,00'],
      ['BA', '600,01', 'Fundo de Resíduo da Distribuição', '30,00'],
      ['RO', '400,00', 'Fundo de Resíduo da Distribuição', '280,00'],
      ['RO', '400,00', 'FATEC', '100,00'],
      ['RO', '400,00', 'Fundo de Resíduo da Distribuição', '20,00'],
    ]);
    expect(linhas.filter((l) => l.includes(b.faturaId))).toHaveLength(3);
    const vazio = await send('GET', `/api/v1/repasse/previsao.csv?mes=1990-01`);
    expect((vazio.body as string).replace(/^\uFEFF/, '').trim().split('\r\n')).toHaveLength(1);
  });

  it('simulates (invoices PREVIA_ANALISADA), then distributes once (DISTRIBUIDO, transfer orders); a second run is refused', async () => {
    expect((await send('GET', `/api/v1/repasse/definitivo?mes=${X}`)).body).toBe(false);
    const sim = await send('POST', '/api/v1/repasse/simulacao', { mes: X });
    expect(sim.status, JSON.stringify(sim.body)).toBe(202);
    await aguardar('simulacao');
    expect((await lerFatura(a.faturaId))?.situacaoRepasse).toBe('PREVIA_ANALISADA');
    const csv = (await send('GET', `/api/v1/repasse/simulacao.csv?mes=${X}`)).body as string;
    expect(csv).toContain('SEFAZ BA');

    const def = await send('POST', '/api/v1/repasse/definitivo', { mes: X });
    expect(def.status, JSON.stringify(def.body)).toBe(202);
    await aguardar('definitivo');
    expect((await lerFatura(a.faturaId))?.situacaoRepasse).toBe('DISTRIBUIDO');
    expect((await lerFatura(b.faturaId))?.situacaoRepasse).toBe('DISTRIBUIDO');
    expect((await send('GET', `/api/v1/repasse/definitivo?mes=${X}`)).body).toBe(true);
    const ordens = ((await send('GET', `/api/v1/repasse/ordens.csv?mes=${X}`)).body as string).replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(ordens[0]).toBe('Beneficiado;Banco;Agência;DV Agência;Conta;DV Conta;Valor');
    expect(ordens.some((l) => l.startsWith('SEFAZ BA;001;3832;1;100200;0;'))).toBe(true);

    // The definitive report: the totals per UF and beneficiary (issue 28 item 2).
    const definitivo = await send('GET', `/api/v1/repasse/definitivo.csv?mes=${X}`);
    expect(definitivo.headers.get('content-disposition')).toContain('definitivo-repasse.csv');
    const totais = (definitivo.body as string).replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(totais[0]).toBe('UF;Beneficiado;Tipo;Valor');
    expect(totais.some((l) => l.startsWith('BA;SEFAZ BA;'))).toBe(true);

    // The month's history: both runs, newest first, who started them, concluded, with their totals.
    const h = await send('GET', `/api/v1/repasse/execucoes?mes=${X}`);
    expect(h.status, JSON.stringify(h.body)).toBe(200);
    const runs = h.body as { execucaoId: string; tipo: string; situacao: string; iniciadoPor: string; concluidoEm: string | null; faturas: number | null; total: number | null; ordens: number | null }[];
    expect(runs.map((r) => [r.execucaoId, r.tipo, r.situacao])).toEqual([
      [(def.body as { execucaoId: string }).execucaoId, 'DEFINITIVO', 'CONCLUIDO'],
      [(sim.body as { execucaoId: string }).execucaoId, 'SIMULACAO', 'CONCLUIDO'],
    ]);
    expect(runs[0]!.iniciadoPor).toBeTruthy();
    expect(runs[0]!.concluidoEm).toBeTruthy();
    // Both invoices (1.000,01 and 750,00) split entirely.
    expect(runs[0]).toMatchObject({ faturas: 2, total: 1_750_01 });
    expect(runs[0]!.ordens).toBeGreaterThan(0);
    expect(((await send('GET', '/api/v1/repasse/execucoes?mes=1990-01')).body as unknown[])).toEqual([]);

    const outra = await send('POST', '/api/v1/repasse/definitivo', { mes: X });
    expect(outra.status).toBe(409);
    expect(outra.body).toMatchObject({ error: 'repasseDefinitivoJaGerado' });
    expect((await send('POST', '/api/v1/repasse/simulacao', { mes: X })).status).toBe(409);
  });

  it('the payment query shows the repasse status per invoice and UF; a manager only the own UF, without the admin’s totals', async () => {
    // One page of 100 holds the month's rows here (the twin's few invoices of it; the screen pages by 10).
    const r = await send('GET', `/api/v1/pagamento-servico?de=${X}&ate=${X}&perPage=100`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const body = r.body as { linhas: { consumoId: string; uf: string; valorServicos: number; valorAssinatura: number; valorTotal: number; situacaoTexto: string }[]; totaisUf: { uf: string }[]; totalFatec: number | null; totalGeral: number | null };
    const minhas = body.linhas.filter((l) => l.consumoId === a.faturaId);
    expect(minhas.map((l) => [l.uf, l.valorServicos, l.valorAssinatura, l.valorTotal, l.situacaoTexto])).toEqual([
      ['BA', 600_00, 1, 600_01, 'Pago - Distribuído'],
      ['RO', 400_00, 0, 400_00, 'Pago - Distribuído'],
    ]);
    expect(body.totalGeral).toBeGreaterThanOrEqual(1_000_01 + 750_00);
    expect(body.totalFatec).toBeGreaterThan(0);
    const gestor = await tokenFor({ userId: 'rep-gestor', name: 'Gestor BA', tipo: 'S', roles: ['sefaz_gestor'], uf: 'BA' });
    const g = await call(`/api/v1/pagamento-servico?de=${X}&ate=${X}&uf=TODOS`, { headers: bearer(gestor) });
    const gb = g.body as typeof body;
    expect(gb.linhas.every((l) => l.uf === 'BA')).toBe(true);
    expect(gb.totalFatec).toBeNull();
    expect(gb.totalGeral).toBeNull();
    // A client: its own rows and their grand total, without the FATEC total.
    const cliente = await tokenFor({ userId: `rep-cli-${a.clienteId}`, name: 'Cliente', tipo: 'C', roles: ['cliente'], clienteId: a.clienteId });
    const cb = (await call(`/api/v1/pagamento-servico?de=${X}&ate=${X}`, { headers: bearer(cliente) })).body as typeof body;
    expect(cb.linhas.map((l) => l.consumoId)).toEqual([a.faturaId, a.faturaId]);
    expect(cb.totalGeral).toBe(1_000_01);
    expect(cb.totalFatec).toBeNull();
    const det = await send('GET', `/api/v1/pagamento-servico/${a.faturaId}/BA`);
    // The detail's UF totals are the list rows' (services and the subscription's part: BA 600,00 + 0,01).
    expect(det.body).toMatchObject({ situacaoTexto: 'Pago - Distribuído', ufs: [{ uf: 'BA', valorServicos: 600_00, valorAssinatura: 1, total: 600_01 }, { uf: 'RO', total: 400_00 }] });
    const detB = (await send('GET', `/api/v1/pagamento-servico/${b.faturaId}/-`)).body as { ufs: { uf: string; total: number }[] };
    expect(detB.ufs).toEqual([expect.objectContaining({ uf: '', valorAssinatura: 750_00, total: 750_00 })]);
    expect((det.body as { sumarizado: unknown[] }).sumarizado).toHaveLength(1);
    const detGestor = await call(`/api/v1/pagamento-servico/${a.faturaId}/BA`, { headers: bearer(gestor) });
    expect((detGestor.body as { ufs: { uf: string }[]; sumarizado: unknown }).ufs.map((u) => u.uf)).toEqual(['BA']);
    expect((await send('GET', `/api/v1/pagamento-servico?de=${M}&ate=${M}`)).body).toMatchObject({ error: 'pagamentoMesInvalido' });
  });

  it('the payment query’s totals equal the CSVs’ for the month: each Sefaz, each other beneficiary, Total FATEC and the gross of the paid rows', async () => {
    const somar = (texto: string, chave: (c: string[]) => string, valor: (c: string[]) => string, unico?: (c: string[]) => string) => {
      const m = new Map<string, number>();
      const vistos = new Set<string>();
      for (const c of texto.replace(/^\uFEFF/, '').trim().split('\r\n').slice(1).map((l) => l.split(';'))) {
        if (unico) {
          if (vistos.has(unico(c))) continue;
          vistos.add(unico(c));
        }
        m.set(chave(c), (m.get(chave(c)) ?? 0) + Number(valor(c).replace(',', '')));
      }
      return m;
    };
    const previsao = (await send('GET', `/api/v1/repasse/previsao.csv?mes=${X}`)).body as string;
    const definitivo = (await send('GET', `/api/v1/repasse/definitivo.csv?mes=${X}`)).body as string;
    const tela = (await send('GET', `/api/v1/pagamento-servico?de=${X}&ate=${X}&perPage=100`)).body as {
      linhas: { consumoId: string; uf: string; situacao: string; valorServicos: number; valorAssinatura: number; valorAcrescimo: number }[];
      totaisSefaz: { uf: string; nome: string; total: number }[];
      beneficiados: { nome: string; tipo: string; total: number }[];
      totalFatec: number;
      totalRepassado: number;
    };
    // Per beneficiary (previsao: UF;CNPJ;Razão Social;Fatura;Valor UF;Beneficiado;Tipo;Valor; definitivo: UF;Beneficiado;Tipo;Valor).
    const porBeneficiado = somar(previsao, (c) => `${c[6]}|${c[5]}`, (c) => c[7]!);
    expect(somar(definitivo, (c) => `${c[2]}|${c[1]}`, (c) => c[3]!)).toEqual(porBeneficiado);
    const doTipo = (sefaz: boolean) => new Map([...porBeneficiado].filter(([k]) => k.startsWith('SEFAZ|') === sefaz).map(([k, v]) => [k.split('|')[1]!, v]));
    expect(new Map(tela.totaisSefaz.map((t) => [t.nome, t.total]))).toEqual(doTipo(true));
    expect(new Map(tela.beneficiados.map((t) => [t.nome, t.total]))).toEqual(doTipo(false));
    expect(tela.totalFatec).toBe([...doTipo(false).values()].reduce((s, v) => s + v, 0));
    expect(tela.totalRepassado).toBe([...porBeneficiado.values()].reduce((s, v) => s + v, 0));
    expect(tela.totalFatec + tela.totaisSefaz.reduce((s, t) => s + t.total, 0)).toBe(tela.totalRepassado);
    // The gross per UF of the paid rows (without the surcharge, which is not shared) is the CSV's 'Valor UF' per invoice and UF.
    const brutoCsv = somar(previsao, (c) => c[0]!, (c) => c[4]!, (c) => `${c[3]}|${c[0]}`);
    const brutoTela = new Map<string, number>();
    for (const l of tela.linhas.filter((x) => x.situacao === 'P' && x.valorServicos + x.valorAssinatura > 0)) brutoTela.set(l.uf, (brutoTela.get(l.uf) ?? 0) + l.valorServicos + l.valorAssinatura);
    expect(brutoTela).toEqual(brutoCsv);
    // A manager: only its own Sefaz's share, the same as the CSV's.
    const gestor = await tokenFor({ userId: 'rep-gestor', name: 'Gestor BA', tipo: 'S', roles: ['sefaz_gestor'], uf: 'BA' });
    const g = (await call(`/api/v1/pagamento-servico?de=${X}&ate=${X}`, { headers: bearer(gestor) })).body as typeof tela;
    expect(g.totaisSefaz).toEqual([{ uf: 'BA', nome: 'SEFAZ BA', total: porBeneficiado.get('SEFAZ|SEFAZ BA') }]);
    expect(g.beneficiados).toBeNull();
  });

  it('refuses a month that has not ended, and bad input, writing nothing', async () => {
    expect((await send('POST', '/api/v1/repasse/simulacao', { mes: M })).body).toMatchObject({ error: 'repasseMesInvalido' });
    expect((await send('POST', '/api/v1/repasse/definitivo', { mes: nextMonth(M) })).body).toMatchObject({ error: 'repasseMesInvalido' });
    const ruim = await send('POST', '/api/v1/repasse/definitivo', { mes: '2026-13' });
    expect(ruim.status).toBe(400);
    expect((await send('GET', '/api/v1/repasse/previsao.csv?mes=abc')).status).toBe(400);
    expect((await send('GET', '/api/v1/pagamento-servico/000000-nenhum/BA')).status).toBe(404);
    expect((await send('GET', '/api/v1/pagamento-servico/abc/BA')).status).toBe(404);
  });
});
