import { Agent } from 'node:https';
import type { Principal } from '@plac/shared/access';
import { formatDate, monthOf } from '@plac/shared/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { esquecerCache } from '../../functions/consulta/chamador';
import { naoEncontradasDaUf } from '../../functions/consumo/store';
import { consumoDoCliente } from '../../functions/consumo';
import { eventoXml, nfeXml } from '../../functions/fate/fixtures/builder';
import { fatePorChave } from '../../functions/fate';
import { ingerir } from '../../functions/fate/service';
import { autorizar, consentir, novoCliente, novoCnpj } from './consulta-kit';
import { call } from './http';
import { mtlsRequest } from './mtls';
import { bearer, tokenFor } from './session';

/**
 * The look-ups over the twin: the integrator API on the mutual-TLS port with a client's e-CNPJ and the
 * portal's routes with a bearer token; metering exact under 1,000 concurrent look-ups with repeats and
 * unknown keys; the client, type and authorisation rules; the documented answers.
 */

const NFE = 'procNFe_v4.00.xsd';
const EVT = 'procEventoNFe_v1.00.xsd';
/** Rio Grande do Norte: no other test loads documents from it (each UF has one NSU cursor). */
const UF = 'RN';
const CUF = '24';

const emitente = novoCnpj();
const destinatario = novoCnpj();
const transportador = novoCnpj();
let chaves: string[] = [];
let cancelada = '';
const mes = monthOf(new Date());

async function contado(clienteId: string, servico: number): Promise<number> {
  return (await consumoDoCliente(clienteId, mes)).filter((c) => c.servico === servico).reduce((s, c) => s + c.requisicoes, 0);
}

beforeAll(async () => {
  // 40 Fat-e of one issuer (the first names a carrier), and a 41st cancelled by its issuer.
  const emissao = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 19) + '-03:00';
  const docs = Array.from({ length: 41 }, (_, i) =>
    nfeXml({ cUF: CUF, numero: 7000 + i, emitente, destinatario: { cnpj: destinatario }, emissao, ...(i === 0 ? { transportador } : {}) }),
  );
  chaves = docs.slice(0, 40).map((d) => d.chave);
  cancelada = docs[40]!.chave;
  await ingerir(UF, [...docs.map((d, i) => ({ nsu: String(i + 1), schema: NFE, xml: d.xml })), { nsu: '42', schema: EVT, xml: eventoXml(cancelada, '110111') }]);
  expect((await fatePorChave(cancelada))?.status).toBe('CANCELADA');
  esquecerCache();
}, 60_000);

describe('integrator API over mutual TLS', () => {
  it('answers a Fat-e to an ATIVO client presenting its e-CNPJ, and charges it once', async () => {
    const c = await novoCliente('ESF');
    const got = await mtlsRequest('GET', `/api/v1/integracao/fate/${chaves[0]}`, { cert: c.cert });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ chave: chaves[0], situacao: 'ATIVA', uf: UF, emitente: { cnpj: emitente }, destinatario: { documento: destinatario } });
    expect((got.body as { duplicatas: unknown[] }).duplicatas).toHaveLength(3);
    expect(await contado(c.clienteId, 1)).toBe(1);
  });

  it('gives unknown, cancelled and malformed keys distinct answers; only the found ones are charged', async () => {
    const c = await novoCliente('IMF');
    const desconhecida = nfeXml({ cUF: CUF, numero: 999_001, emitente }).chave;
    const naoEncontrada = await mtlsRequest('GET', `/api/v1/integracao/fate/${desconhecida}`, { cert: c.cert });
    expect(naoEncontrada).toMatchObject({ status: 404, body: { error: 'fateNaoEncontrada', message: 'Não foi encontrada Fat-e para os dados informados.' } });
    const cancel = await mtlsRequest('GET', `/api/v1/integracao/fate/${cancelada}`, { cert: c.cert });
    expect(cancel.status).toBe(200);
    expect(cancel.body).toMatchObject({ situacao: 'CANCELADA', cancelamento: { data: expect.any(String) } });
    const malformada = await mtlsRequest('GET', `/api/v1/integracao/fate/${desconhecida.slice(0, 43)}${(Number(desconhecida.at(-1)) + 1) % 10}`, { cert: c.cert });
    expect(malformada).toMatchObject({ status: 400, body: { errors: { chave: ['O campo chave de acesso é inválido.'] } } });
    expect(await contado(c.clienteId, 1)).toBe(1);
    const registradas = await naoEncontradasDaUf(UF, mes);
    expect(registradas.filter((n) => n.clienteId === c.clienteId)).toEqual([
      expect.objectContaining({ chnfe: desconhecida, servico: 1, status: 'NAO_ENCONTRADA', cnpj: c.cnpj, razaoSocial: c.razaoSocial }),
    ]);
  });

  it('refuses a missing certificate, a company that is not an ATIVO client, and a service the client type lacks', async () => {
    expect(await mtlsRequest('GET', `/api/v1/integracao/fate/${chaves[0]}`)).toMatchObject({ status: 400, body: { error: 'certificadoAusente' } });
    const novo = await novoCliente('ESF', 'N');
    expect(await mtlsRequest('GET', `/api/v1/integracao/fate/${chaves[0]}`, { cert: novo.cert })).toMatchObject({
      status: 403,
      body: { error: 'certificadoSemCliente' },
    });
    const shopping = await novoCliente('SHOPPING');
    expect(await mtlsRequest('GET', `/api/v1/integracao/recebivel-avaliacao/${chaves[0]}`, { cert: shopping.cert })).toMatchObject({
      status: 403,
      body: { error: 'servicoNaoPermitido', message: 'O serviço Recebível em Avaliação não está disponível para este cliente.' },
    });
    expect(await contado(shopping.clienteId, 3)).toBe(0);
    // The integrator routes are not on the web port at all.
    expect((await call(`/api/v1/integracao/fate/${chaves[0]}`)).status).toBe(404);
  });

  it('1,000 concurrent look-ups, some unknown and some retried with the same Idempotency-Key: the counter equals the distinct found requests', async () => {
    const c = await novoCliente('ESF');
    const agent = new Agent({ keepAlive: true, maxSockets: 32 });
    const desconhecidas = Array.from({ length: 5 }, (_, i) => nfeXml({ cUF: CUF, numero: 990_000 + i, emitente }).chave);
    // 600 distinct found requests (each its own key), 300 retries of 100 of them, 100 unknown keys.
    const pedidos = [
      ...Array.from({ length: 600 }, (_, i) => ({ chave: chaves[i % 40]!, idem: `req-${i}` })),
      ...Array.from({ length: 300 }, (_, i) => ({ chave: chaves[i % 100 % 40]!, idem: `req-${i % 100}` })),
      ...Array.from({ length: 100 }, (_, i) => ({ chave: desconhecidas[i % 5]!, idem: `unk-${i}` })),
    ].sort(() => Math.random() - 0.5);
    const answers = await Promise.all(
      pedidos.map((p) => mtlsRequest('GET', `/api/v1/integracao/fate/${p.chave}`, { cert: c.cert, agent, headers: { 'idempotency-key': p.idem } })),
    );
    agent.destroy();
    expect(answers.filter((a) => a.status === 200)).toHaveLength(900);
    expect(answers.filter((a) => a.status === 404)).toHaveLength(100);
    expect(await contado(c.clienteId, 1)).toBe(600);
  }, 180_000);

  it('refuses a malformed Idempotency-Key', async () => {
    const c = await novoCliente('ESF');
    const got = await mtlsRequest('GET', `/api/v1/integracao/fate/${chaves[1]}`, { cert: c.cert, headers: { 'idempotency-key': 'não vale' } });
    expect(got).toMatchObject({ status: 400, body: { error: 'chaveIdempotenciaInvalida' } });
    expect(await contado(c.clienteId, 1)).toBe(0);
  });

  it('composite key, receivable, carrier and billing look-ups', async () => {
    const c = await novoCliente('ESF');
    const f = (await fatePorChave(chaves[2]!))!;
    const d = f.duplicatas[0]!;
    const composta = await mtlsRequest('POST', '/api/v1/integracao/fate/chave-composta', {
      cert: c.cert,
      body: { cnpjEmissor: emitente, cnpjDestinatario: destinatario, dataVencimentoParcela: d.vencimento, valorParcela: d.valor, numeroParcela: '1' },
    });
    expect(composta.status).toBe(200);
    // Every Fat-e of this issuer and recipient has the same instalments: all 41 share the composite.
    expect((composta.body as { chave: string }[]).map((x) => x.chave)).toContain(chaves[2]);
    const semNumero = await mtlsRequest('POST', '/api/v1/integracao/fate/chave-composta', {
      cert: c.cert,
      body: { cnpjEmissor: emitente, cnpjDestinatario: destinatario, dataVencimentoParcela: d.vencimento, valorParcela: d.valor },
    });
    expect((semNumero.body as unknown[]).length).toBe((composta.body as unknown[]).length);
    expect(await contado(c.clienteId, 2)).toBe(2);

    const recebivel = await mtlsRequest('GET', `/api/v1/integracao/recebivel-avaliacao/${chaves[2]}`, { cert: c.cert });
    expect(recebivel.body).toMatchObject({ chave: chaves[2], parcelas: [{ numero: '001', situacao: 'VENCIDA' }, {}, {}] });

    const hoje = new Date().toISOString().slice(0, 10);
    const inicio = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const transp = await mtlsRequest('GET', `/api/v1/integracao/transportadora/${transportador}?dataInicio=${inicio}&dataFim=${hoje}`, { cert: c.cert });
    expect(transp).toMatchObject({ status: 200, body: { documento: transportador, fates: [{ chave: chaves[0] }] } });
    const longo = await mtlsRequest('GET', `/api/v1/integracao/transportadora/${transportador}?dataInicio=2024-01-01&dataFim=${hoje}`, { cert: c.cert });
    expect(longo).toMatchObject({ status: 400, body: { error: 'periodoMaximoUmAno' } });

    const faturamento = { cnpjBaseInstFin: '60701190', cnpjEmitente: emitente, dataInicio: inicio, dataFim: hoje };
    expect(await mtlsRequest('POST', '/api/v1/integracao/faturamento/1', { cert: c.cert, body: faturamento })).toMatchObject({
      status: 403,
      body: { error: 'instituicaoNaoAutorizada' },
    });
    await autorizar(c, '60701190');
    // Authorised, but the issuer has not consented to share its billing with the institution: refused, not charged.
    expect(await mtlsRequest('POST', '/api/v1/integracao/faturamento/1', { cert: c.cert, body: faturamento })).toMatchObject({
      status: 403,
      body: { error: 'semConsentimento' },
    });
    await consentir(emitente, '60701190');
    const nfe = await mtlsRequest('POST', '/api/v1/integracao/faturamento/1', { cert: c.cert, body: faturamento });
    expect(nfe).toMatchObject({ status: 200, body: { modelo: '55', quantidade: 40 } });
    expect((nfe.body as { valorTotal: number }).valorTotal).toBe(40 * f.valorNota);
    // No NFC-e (model 65) from this issuer: not found, not charged.
    expect(await mtlsRequest('POST', '/api/v1/integracao/faturamento/0', { cert: c.cert, body: faturamento })).toMatchObject({
      status: 404,
      body: { error: 'faturamentoNaoEncontrado' },
    });
    expect(await contado(c.clienteId, 5)).toBe(1);
    expect(await contado(c.clienteId, 4)).toBe(0);
    expect(await contado(c.clienteId, 7)).toBe(1);
  });
});

describe('portal look-ups (bearer token)', () => {
  it('charges the user’s client; the administrator looks up without charge', async () => {
    const c = await novoCliente('ESF');
    const web: Principal = { userId: `web-${c.clienteId}`, name: 'Web', tipo: 'C', roles: ['cliente_web'], clienteId: c.clienteId };
    const got = await call(`/api/v1/fate/${chaves[3]}`, { headers: bearer(await tokenFor(web)) });
    expect(got).toMatchObject({ status: 200, body: { chave: chaves[3] } });
    expect(await contado(c.clienteId, 1)).toBe(1);
    const admin: Principal = { userId: 'consulta-admin', name: 'Admin', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };
    expect((await call(`/api/v1/fate/${chaves[3]}`, { headers: bearer(await tokenFor(admin)) })).status).toBe(200);
    const cliente: Principal = { userId: `c-${c.clienteId}`, name: 'C', tipo: 'C', roles: ['cliente'], clienteId: c.clienteId };
    expect((await call(`/api/v1/fate/${chaves[3]}`, { headers: bearer(await tokenFor(cliente)) })).status).toBe(403);
  });
});

describe('CSV batches (spec 3, 5.4)', () => {
  async function cliente() {
    const c = await novoCliente('ESF');
    const web: Principal = { userId: `web-${c.clienteId}`, name: 'Web', tipo: 'C', roles: ['cliente_web'], clienteId: c.clienteId };
    return { ...c, headers: { ...bearer(await tokenFor(web)), 'content-type': 'application/json' } };
  }
  const post = (path: string, headers: Record<string, string>, body: unknown) => call(path, { method: 'POST', headers, body: JSON.stringify(body) });

  it('looks up every line once (duplicates and lines after the 50th ignored), charges the found ones, answers a CSV', async () => {
    const c = await cliente();
    const desconhecida = nfeXml({ cUF: CUF, numero: 991_500, emitente }).chave;
    const digitoErrado = `${chaves[39]!.slice(0, 43)}${(Number(chaves[39]!.at(-1)) + 1) % 10}`;
    const linhas = ['CHNFE', ...chaves.slice(0, 30), digitoErrado, desconhecida, '=HYPERLINK("x")', ...chaves.slice(0, 40).map((k) => ` ${k} `)];
    const got = await post('/api/v1/fatura/lote', { ...c.headers, 'idempotency-key': 'lote-1' }, { listaChNfe: linhas });
    expect(got.status).toBe(200);
    const csv = got.body as string;
    const rows = csv.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(rows[0]).toBe('CHNFE;SITUACAO;UF;CNPJ_EMITENTE;NOME_EMITENTE;DOC_DESTINATARIO;NOME_DESTINATARIO;DATA_EMISSAO;VALOR_NOTA;NUMERO_FATURA;VALOR_LIQUIDO;PARCELAS;MENSAGEM');
    // 50 lines considered: 30 keys, a wrong check digit, the unknown key, the formula, 17 repeats with spaces → 33 distinct.
    expect(rows).toHaveLength(1 + 33);
    expect(rows.filter((r) => r.includes(';ENCONTRADA;'))).toHaveLength(30);
    expect(rows.find((r) => r.startsWith(desconhecida))).toContain(';NAO_ENCONTRADA;');
    expect(rows.find((r) => r.startsWith(digitoErrado))).toContain(';INVALIDA;');
    // Dates as the screens ask for them: the issue DD/MM/AAAA HH:mm:ss in Bahia, the instalments' due dates DD/MM/AAAA.
    const f0 = (await fatePorChave(chaves[0]!))!;
    const linha0 = rows.find((r) => r.startsWith(chaves[0]!))!.split(';');
    expect(linha0[7]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    expect(linha0[7]!.slice(0, 10)).toBe(formatDate(f0.emissao));
    expect(linha0[11]).toContain(formatDate(f0.duplicatas[0]!.vencimento));
    expect(csv).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    // Both are listed for the not-found screens (under the keys' UF); the formula has no UF to list it by.
    const listadas = (await naoEncontradasDaUf(UF, mes)).filter((n) => n.clienteId === c.clienteId);
    expect(listadas.map((n) => [n.chnfe, n.status]).sort()).toEqual([[desconhecida, 'NAO_ENCONTRADA'], [digitoErrado, 'CHAVE_INVALIDA']].sort());
    // A spreadsheet formula comes back inert.
    expect(rows.find((r) => r.includes('HYPERLINK'))).toMatch(/^"'=HYPERLINK\(""x""\)";INVALIDA;/);
    expect(await contado(c.clienteId, 1)).toBe(30);
    // The same upload again (a retry with the same key) charges nothing more.
    await post('/api/v1/fatura/lote', { ...c.headers, 'idempotency-key': 'lote-1' }, { listaChNfe: linhas });
    expect(await contado(c.clienteId, 1)).toBe(30);
  });

  it('refuses a wrong header, a wrong order, a comma file, an empty file, a file over 1 MB and a billing period over a year, charging nothing', async () => {
    const c = await cliente();
    const refused = async (path: string, body: unknown) => post(path, c.headers, body);
    expect(await refused('/api/v1/fatura/lote', { listaChNfe: ['CHAVE', chaves[0]] })).toMatchObject({ status: 400, body: { error: 'csvCabecalhoInvalido', message: 'O cabeçalho do arquivo deve ser, nesta ordem: CHNFE' } });
    expect(
      await refused('/api/v1/fatura/chave-composta', { listaChaveComposta: ['CNPJ_DESTINATARIO;CNPJ_EMISSOR;DATA_VENCIMENTO_PARCELA;VALOR_PARCELA;NUMERO_PARCELA', `${destinatario};${emitente};10/09/2026;1000,00;1`] }),
    ).toMatchObject({ status: 400, body: { error: 'csvCabecalhoInvalido' } });
    expect(
      await refused('/api/v1/fatura/chave-composta', { listaChaveComposta: ['CNPJ_EMISSOR,CNPJ_DESTINATARIO,DATA_VENCIMENTO_PARCELA,VALOR_PARCELA,NUMERO_PARCELA', `${emitente},${destinatario},10/09/2026,1000.00,1`] }),
    ).toMatchObject({ status: 400, body: { error: 'csvSeparadorInvalido' } });
    expect(await refused('/api/v1/fatura/lote', { listaChNfe: [] })).toMatchObject({ status: 400, body: { error: 'csvVazio' } });
    expect(await refused('/api/v1/fatura/lote', { listaChNfe: ['CHNFE', '', ' '] })).toMatchObject({ status: 400, body: { error: 'csvVazio' } });
    const grande = Array.from({ length: 1100 }, () => 'x'.repeat(999));
    expect((await refused('/api/v1/fatura/lote', { listaChNfe: ['CHNFE', ...grande] })).status).toBe(400);
    expect(
      await refused('/api/v1/faturamento/lote/1', { lista: ['CNPJ_BASE_INST_FIN;CNPJ_EMIT;DATA_INICIO;DATA_FIM', `60701190;${emitente};01/01/2025;01/06/2026`] }),
    ).toMatchObject({ status: 400, body: { error: 'csvLinhaPeriodo', message: 'Linha 1: o período da consulta não pode ser maior que 1 ano.' } });
    expect(await contado(c.clienteId, 1)).toBe(0);
    expect(await contado(c.clienteId, 5)).toBe(0);
  });

  it('composite-key and receivable batches; a client type without the service is refused as a whole', async () => {
    const c = await cliente();
    const f = (await fatePorChave(chaves[5]!))!;
    const d = f.duplicatas[1]!;
    const [a, m, dd] = d.vencimento.split('-');
    const composta = await post('/api/v1/fatura/chave-composta', c.headers, {
      listaChaveComposta: ['CNPJ_EMISSOR;CNPJ_DESTINATARIO;DATA_VENCIMENTO_PARCELA;VALOR_PARCELA;NUMERO_PARCELA', `${emitente};${destinatario};${dd}/${m}/${a};${(d.valor / 100).toFixed(2).replace('.', ',')};`],
    });
    expect(composta.status).toBe(200);
    expect((composta.body as string).split('\r\n')[1]).toContain(';ENCONTRADA;');
    expect((composta.body as string).split('\r\n')[1]).toMatch(/;\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}( \| |;)/);
    expect(composta.body as string).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(await contado(c.clienteId, 2)).toBe(1);
    const recebivel = await post('/api/v1/acao-financeira/recebivel-avaliacao', c.headers, { listaChNfe: ['CHNFE', chaves[5]] });
    expect((recebivel.body as string).split('\r\n')[0]).toContain('SALDO_A_VENCER');
    expect(recebivel.body as string).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(await contado(c.clienteId, 3)).toBe(1);

    const shopping = await novoCliente('SHOPPING');
    const sw: Principal = { userId: `web-${shopping.clienteId}`, name: 'Web', tipo: 'C', roles: ['cliente_web'], clienteId: shopping.clienteId };
    expect(
      await post('/api/v1/acao-financeira/recebivel-avaliacao', { ...bearer(await tokenFor(sw)), 'content-type': 'application/json' }, { listaChNfe: ['CHNFE', chaves[5]] }),
    ).toMatchObject({ status: 403, body: { error: 'servicoNaoPermitido' } });
  });
});

describe('the administrator’s free look-up and the carrier report', () => {
  const admin: Principal = { userId: 'consulta-admin', name: 'Admin', tipo: 'S', roles: ['sefaz_admin'], uf: 'BA' };

  it('looks up an NF-e key without charge; an MDF-e key finds nothing; a short key is refused', async () => {
    const h = bearer(await tokenFor(admin));
    expect(await call(`/api/v1/consulta/fate/1/${chaves[0]}`, { headers: h })).toMatchObject({ status: 200, body: { chave: chaves[0] } });
    expect(await call(`/api/v1/consulta/fate/2/${chaves[0]}`, { headers: h })).toMatchObject({ status: 404, body: { error: 'fateNaoEncontrada' } });
    expect((await call(`/api/v1/consulta/fate/1/123`, { headers: h })).status).toBe(400);
  });

  it('counts the carrier’s Fat-e by day with its total and the grand total', async () => {
    const h = { ...bearer(await tokenFor(admin)), 'content-type': 'application/json' };
    const agora = new Date();
    const mm = `${String(agora.getUTCMonth() + 1).padStart(2, '0')}/${agora.getUTCFullYear()}`;
    const ini = new Date(agora.getTime() - 40 * 86_400_000);
    const mmIni = `${String(ini.getUTCMonth() + 1).padStart(2, '0')}/${ini.getUTCFullYear()}`;
    const lista = await call(`/api/v1/consulta/transportadoras?nome=${encodeURIComponent('transportes teste')}`, { headers: h });
    expect((lista.body as { items: unknown[] }).items).toContainEqual(expect.objectContaining({ documento: transportador }));
    const got = await call('/api/v1/consulta/qtd-fate-transportadora', {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ cnpjTransportadora: transportador, dataFaturaIni: mmIni, dataFaturaFim: mm }),
    });
    expect(got).toMatchObject({ status: 200, body: { linhas: [{ cnpj: transportador, qtdFate: 1, total: 1 }], totalGeral: 1 } });
    expect(got.body).not.toHaveProperty('nextCursor');
    const invertido = await call('/api/v1/consulta/qtd-fate-transportadora', {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ dataFaturaIni: mm, dataFaturaFim: '01/2020' }),
    });
    expect(invertido).toMatchObject({ status: 400, body: { error: 'dataInicioMaiorDataFim' } });
  });
});
