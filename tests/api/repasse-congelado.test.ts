import { randomUUID } from 'node:crypto';
import { monthOf, previousMonth } from '@plac/shared/domain';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { faturaIdDe } from '../../functions/faturamento/regras';
import { emitirFatura, lerFatura, registrarPagamento, registrarRecebimento, type FaturaRecord } from '../../functions/faturamento/store';
import { repartirComGrupoVigente, faturasDoRepasse, totaisPorBeneficiado } from '../../functions/rateio/repartir';
import { novoCliente } from './consulta-kit';
import { call } from './http';
import { sefazToken } from './people';
import { bearer } from './session';

/**
 * Issue 37 items 2 and 3 on the twin: a month of the sharing group in force (3 months ago: SEFAZ BA, PE,
 * RO 60%, FATEC 30%, Resíduo 10%) with an invoice over BA and RO, an invoice whose look-ups were all
 * free (its subscription over its UFs), one without lines, a paid invoice of a client in evaluation and
 * an invoice paid in part. Before and after the definitive run, the Pagamento de Serviços screen's totals,
 * the forecast CSV, the definitive CSV and the transfer orders agree to the centavo (one rule: which
 * invoices count, which UF each amount goes to). Then the group is changed (SEFAZ RO's agreement turned
 * off and on, FATEC's account changed): the month, read again, is what was distributed, to the centavo,
 * although the group as it is now would split it otherwise.
 */

const M = monthOf(new Date());
const Y = previousMonth(previousMonth(previousMonth(M)));
let admin: string;

const send = (method: string, path: string, body?: unknown) =>
  call(path, { method, headers: { 'content-type': 'application/json', ...bearer(admin) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

async function fatura(clienteId: string, itens: { uf: string; valor: number }[], valorTotal: number, razaoSocial = `CLIENTE CONGELADO ${clienteId.slice(4, 12)}`): Promise<FaturaRecord> {
  const record: FaturaRecord = {
    faturaId: faturaIdDe(clienteId, Y), clienteId, cnpj: '12345678000195', razaoSocial, mes: Y, situacao: 'A',
    itens: itens.map((i) => ({ servico: 1, descricao: 'Consulta Fat-e por Chave de Acesso', uf: i.uf, requisicoes: 10, valorUnitario: 150, valor: i.valor, promocional: false })),
    valorServicos: itens.reduce((s, i) => s + i.valor, 0), valorAssinatura: valorTotal - itens.reduce((s, i) => s + i.valor, 0), valorTotal, assinaturaMinima: 0,
    execucaoId: randomUUID(), emitidaEm: new Date().toISOString(), revisao: 1,
  };
  await emitirFatura(record);
  return record;
}

async function pagar(f: FaturaRecord) {
  expect(await registrarPagamento(f.faturaId, 1, { codigoBarras: '8'.repeat(44), dataPagamento: `${Y}-20`, dataRetornoBanco: `${Y}-21`, valorPago: f.valorTotal, valorAcrescimo: 0, importacaoId: 'congelado' })).toBe('paga');
}

const centavos = (texto: string) => Number(texto.replace(/\./g, '').replace(',', ''));
const linhasCsv = (texto: string) => texto.replace(/^\uFEFF/, '').trim().split('\r\n').slice(1).map((l) => l.split(';'));
function somarPor(linhas: string[][], chave: (c: string[]) => string, valor: (c: string[]) => string): Record<string, number> {
  const m: Record<string, number> = {};
  for (const c of linhas) m[chave(c)] = (m[chave(c)] ?? 0) + centavos(valor(c));
  return m;
}

interface Tela {
  totaisSefaz: { uf: string; nome: string; total: number }[];
  beneficiados: { nome: string; tipo: string; total: number }[];
  totalFatec: number;
  totalRepassado: number;
  linhas: { consumoId: string; uf: string; valorServicos: number; valorAssinatura: number; situacaoTexto: string }[];
}

/** Every figure of the month: the screen's totals per beneficiary, the CSVs' and the orders'. */
async function figuras() {
  const tela = (await send('GET', `/api/v1/pagamento-servico?de=${Y}&ate=${Y}&perPage=100`)).body as Tela;
  const previsao = linhasCsv((await send('GET', `/api/v1/repasse/previsao.csv?mes=${Y}`)).body as string);
  const definitivo = linhasCsv((await send('GET', `/api/v1/repasse/definitivo.csv?mes=${Y}`)).body as string);
  const ordens = linhasCsv((await send('GET', `/api/v1/repasse/ordens.csv?mes=${Y}`)).body as string);
  const telaPorNome: Record<string, number> = {};
  for (const t of [...tela.totaisSefaz, ...tela.beneficiados]) telaPorNome[t.nome] = t.total;
  return {
    tela: telaPorNome,
    totalRepassado: tela.totalRepassado,
    linhasTela: tela.linhas,
    previsao: somarPor(previsao, (c) => c[5]!, (c) => c[7]!),
    previsaoPorUf: somarPor(previsao, (c) => `${c[0]}|${c[5]}`, (c) => c[7]!),
    previsaoFaturas: new Set(previsao.map((c) => c[3]!)),
    definitivo: somarPor(definitivo, (c) => c[1]!, (c) => c[3]!),
    // The definitive CSV names an invoice without lines' UF '-' (written "'-": a cell never starts a formula).
    definitivoPorUf: somarPor(definitivo, (c) => `${c[0] === "'-" ? '' : c[0]}|${c[1]}`, (c) => c[3]!),
    ordens: somarPor(ordens, (c) => c[0]!, (c) => c[6]!),
    contas: ordens.map((c) => c.slice(0, 6).join(';')).sort(),
  };
}

async function aguardarDefinitivo() {
  await vi.waitUntil(async () => {
    const s = (await send('GET', `/api/v1/repasse/situacao?mes=${Y}`)).body as { definitivo: { situacao: string } | null };
    return s.definitivo?.situacao === 'CONCLUIDO' || s.definitivo?.situacao === 'FALHA';
  }, { timeout: 30_000, interval: 250 });
  expect(((await send('GET', `/api/v1/repasse/situacao?mes=${Y}`)).body as { definitivo: { situacao: string } }).definitivo.situacao).toBe('CONCLUIDO');
}

const f = {} as Record<'linhas' | 'gratis' | 'semLinhas' | 'avaliacao' | 'parcial', FaturaRecord>;

beforeAll(async () => {
  admin = await sefazToken();
  f.linhas = await fatura(`rcg-${randomUUID()}`, [{ uf: 'BA', valor: 600_00 }, { uf: 'RO', valor: 400_00 }], 1_000_01);
  // Every look-up free: the subscription goes over its UFs evenly (the screen did so; the files put it under no UF).
  f.gratis = await fatura(`rcg-${randomUUID()}`, [{ uf: 'BA', valor: 0 }, { uf: 'RO', valor: 0 }], 750_01);
  f.semLinhas = await fatura(`rcg-${randomUUID()}`, [], 500_00);
  const emAvaliacao = await novoCliente('ESF', 'E');
  f.avaliacao = await fatura(emAvaliacao.clienteId, [{ uf: 'BA', valor: 300_00 }], 300_00, emAvaliacao.razaoSocial);
  f.parcial = await fatura(`rcg-${randomUUID()}`, [{ uf: 'RO', valor: 800_00 }], 800_00);
  await Promise.all([f.linhas, f.gratis, f.semLinhas, f.avaliacao].map(pagar));
  const recebimento = {
    codigoBarras: '8'.repeat(44), dataPagamento: `${Y}-20`, dataRetornoBanco: `${Y}-21`, banco: '001', nomeBanco: 'BANCO DO BRASIL', nomeArquivo: 'parcial.ret', importacaoId: 'congelado', linha: 2,
    autenticacao: 'AUT-CONGELADO', saldoAnterior: 800_00, acrescimoDevido: 0, valorPago: 300_00, valorAcrescimo: 0, valorAmortizado: 300_00, valorExcedente: 0,
  };
  expect(await registrarRecebimento(f.parcial.faturaId, { revisao: 1, versao: 0 }, { recebimentos: [recebimento], chave: 'congelado', quitada: null })).toBe('gravado');
}, 120_000);

describe('the repasse, one rule and a frozen month (issue 37)', () => {
  it('before the run: the screen, the forecast CSV count the same invoices and put each amount under the same UF', async () => {
    const a = await figuras();
    expect(a.previsaoFaturas.has(f.linhas.faturaId)).toBe(true);
    expect(a.previsaoFaturas.has(f.gratis.faturaId)).toBe(true);
    expect(a.previsaoFaturas.has(f.semLinhas.faturaId)).toBe(true);
    // A client in evaluation and an invoice paid in part count nowhere.
    expect(a.previsaoFaturas.has(f.avaliacao.faturaId)).toBe(false);
    expect(a.previsaoFaturas.has(f.parcial.faturaId)).toBe(false);
    expect(a.linhasTela.some((l) => l.consumoId === f.avaliacao.faturaId)).toBe(false);
    expect(a.linhasTela.filter((l) => l.consumoId === f.parcial.faturaId).map((l) => l.situacaoTexto)).toEqual(['Pago parcialmente']);
    // The free invoice's subscription: evenly over BA and RO on the screen and in the forecast.
    expect(a.linhasTela.filter((l) => l.consumoId === f.gratis.faturaId).map((l) => [l.uf, l.valorServicos + l.valorAssinatura])).toEqual([
      ['BA', 375_01],
      ['RO', 375_00],
    ]);
    const previsao = linhasCsv((await send('GET', `/api/v1/repasse/previsao.csv?mes=${Y}`)).body as string).filter((c) => c[3] === f.gratis.faturaId);
    expect([...new Set(previsao.map((c) => `${c[0]}:${c[4]}`))]).toEqual(['BA:375,01', 'RO:375,00']);
    expect(a.tela).toEqual(a.previsao);
    expect(a.totalRepassado).toBe(Object.values(a.previsao).reduce((s, v) => s + v, 0));
  });

  it('distributed, then the group changed: the screen, the CSVs and the orders read what was distributed, to the centavo', async () => {
    const def = await send('POST', '/api/v1/repasse/definitivo', { mes: Y });
    expect(def.status, JSON.stringify(def.body)).toBe(202);
    await aguardarDefinitivo();
    expect((await lerFatura(f.linhas.faturaId))?.situacaoRepasse).toBe('DISTRIBUIDO');
    expect((await lerFatura(f.avaliacao.faturaId))?.situacaoRepasse).toBeUndefined();
    expect((await lerFatura(f.parcial.faturaId))?.situacaoRepasse).toBeUndefined();

    const distribuido = await figuras();
    // Screen, forecast, definitive and orders: the same per beneficiary; the definitive per UF as the forecast.
    expect(distribuido.tela).toEqual(distribuido.definitivo);
    expect(distribuido.previsao).toEqual(distribuido.definitivo);
    expect(distribuido.ordens).toEqual(distribuido.definitivo);
    expect(distribuido.definitivoPorUf).toEqual(distribuido.previsaoPorUf);
    // The run's history says what the record does (written in one transaction).
    const [run] = (await send('GET', `/api/v1/repasse/execucoes?mes=${Y}`)).body as { tipo: string; total: number; faturas: number }[];
    expect(run).toMatchObject({ tipo: 'DEFINITIVO', total: distribuido.totalRepassado });

    // The group changes: SEFAZ RO's agreement off and on again (it now starts today), FATEC's account.
    const vigente = (await send('GET', '/api/v1/grupo-rateio/beneficiados/vigente')).body as {
      id: string; descricao: string; dtVigenciaInicial: string; percentualSefaz: number;
      beneficiados: { idBeneficiado: string; idParticipante: string; nomeParticipante: string; percentualRateio: number; tipo: string; convenioAtivo: boolean | null; conta: Record<string, unknown> | null }[];
    };
    const corpo = (v: typeof vigente, mudar: (b: (typeof vigente)['beneficiados'][number]) => Record<string, unknown>) => ({
      grupoRateio: { idGrupoRateio: v.id, descricao: v.descricao, vigenciaInicial: v.dtVigenciaInicial, percentualSefaz: v.percentualSefaz },
      beneficiados: v.beneficiados.map((b) => ({ beneficiadoId: b.idBeneficiado, idParticipante: b.idParticipante, nomeParticipante: b.nomeParticipante, percentualRateio: b.percentualRateio, tipo: b.tipo, convenioAtivo: b.convenioAtivo ?? undefined, conta: b.conta, ...mudar(b) })),
    });
    const ro = vigente.beneficiados.find((b) => b.idParticipante === 'sefaz-RO')!;
    const fatec = vigente.beneficiados.find((b) => b.idParticipante === 'fatec')!;
    const desligado = await send('PUT', '/api/v1/grupo-rateio', corpo(vigente, (b) => (b === ro ? { convenioAtivo: false } : b === fatec ? { conta: { ...fatec.conta, conta: '999999' } } : {})));
    expect(desligado.status, JSON.stringify(desligado.body)).toBe(200);
    const meio = (await send('GET', '/api/v1/grupo-rateio/beneficiados/vigente')).body as typeof vigente;
    const religado = await send('PUT', '/api/v1/grupo-rateio', corpo(meio, (b) => (b.idParticipante === 'sefaz-RO' ? { convenioAtivo: true } : {})));
    expect(religado.status, JSON.stringify(religado.body)).toBe(200);
    // Split now, the month would differ: RO's SEFAZ share goes to the Resíduo (its agreement starts today).
    const agora = await repartirComGrupoVigente(Y, await faturasDoRepasse(Y));
    const nomes = Object.fromEntries(totaisPorBeneficiado(agora!.linhas).map((t) => [`${t.uf}|${t.nome}`, t.valor]));
    expect(nomes['RO|SEFAZ RO']).toBeUndefined();

    const depois = await figuras();
    expect(depois.tela).toEqual(distribuido.tela);
    expect(depois.previsao).toEqual(distribuido.previsao);
    expect(depois.previsaoPorUf).toEqual(distribuido.previsaoPorUf);
    expect(depois.definitivo).toEqual(distribuido.definitivo);
    expect(depois.ordens).toEqual(distribuido.ordens);
    // The orders name the accounts as they were when distributed.
    expect(depois.contas).toEqual(distribuido.contas);
    expect(depois.contas.some((c) => c.includes('999999'))).toBe(false);
    expect(depois.totalRepassado).toBe(distribuido.totalRepassado);
  });
});
