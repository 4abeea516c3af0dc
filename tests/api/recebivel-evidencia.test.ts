import { randomInt } from 'node:crypto';
import { addDays, todayInBahia } from '@plac/shared/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { esquecerCache } from '../../functions/consulta/chamador';
import { devolucaoXml, eventoRecebivelXml, nfeXml, PROTOCOLO_FIXTURE } from '../../functions/fate/fixtures/builder';
import { evidenciaDaChave, ingerir } from '../../functions/fate/service';
import { cancelamentoXml } from '../../infra/local/sefaz/cancelamento';
import { novoCliente, novoCnpj } from './consulta-kit';
import { mtlsRequest } from './mtls';

/**
 * The receivable's evidence end to end (docs/recebivel.md): real-format events, returns and CT-e go in
 * through the loader, and `recebivel-avaliacao` answers them. Santa Catarina (cUF 42): documents go in
 * with the cursor unmoved (NSUs 4_200_000+), keys of a random issuer, so nothing collides.
 */

const UF = 'SC';
const CUF = '42';
const NFE = 'procNFe_v4.00.xsd';
const EVT = 'procEventoNFe_v1.00.xsd';
const emitente = novoCnpj();
const base = randomInt(1_000, 90_000) * 10;
let nsu = 4_200_000 + base;
const emissao = `${addDays(todayInBahia(), -20)}T10:00:00-03:00`;
const dia = (d: number, h = '10:00:00') => `${addDays(todayInBahia(), d)}T${h}-03:00`;

async function carregar(...docs: { schema: string; xml: string }[]) {
  const r = await ingerir(UF, docs.map((d) => ({ nsu: String(++nsu), ...d })), { moverCursor: false });
  expect(r.erros, JSON.stringify(r.documentos)).toBe(0);
  return r;
}

const nfe = (i: number) => nfeXml({ cUF: CUF, numero: base + i, emitente, emissao, vNF: '3345.67' });

let cliente: Awaited<ReturnType<typeof novoCliente>>;
async function avaliar(chave: string) {
  esquecerCache();
  const r = await mtlsRequest('GET', `/api/v1/integracao/recebivel-avaliacao/${chave}`, { cert: cliente.cert });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as Record<string, unknown> & { flags: string[]; manifestacao: { tpEvento: string } | null; linhaDoTempo: { etapa: string }[] };
}

beforeAll(async () => {
  cliente = await novoCliente('ESF');
}, 60_000);

describe('recebivel-avaliacao with the NF-e events', () => {
  it('without events: SEM_MANIFESTACAO; each manifestation changes the answer by its rule', async () => {
    const a = nfe(1);
    await carregar({ schema: NFE, xml: a.xml });
    expect((await avaliar(a.chave)).flags).toContain('SEM_MANIFESTACAO');

    await carregar({ schema: EVT, xml: eventoRecebivelXml(a.chave, '210210', { dhEvento: dia(-19) }) });
    expect((await avaliar(a.chave)).flags).toContain('CIENCIA_SEM_CONFIRMACAO');

    await carregar({ schema: EVT, xml: eventoRecebivelXml(a.chave, '210200', { dhEvento: dia(-18) }) });
    const confirmada = await avaliar(a.chave);
    expect(confirmada.flags).toContain('CONFIRMADA_PELO_DESTINATARIO');
    expect(confirmada.manifestacao).toMatchObject({ tpEvento: '210200', descricao: 'Confirmação da Operação', autor: expect.stringMatching(/^\d{14}$/) });

    // A disowning after the confirmation replaces it and raises the flag; both stay in the history.
    await carregar({ schema: EVT, xml: eventoRecebivelXml(a.chave, '210220', { dhEvento: dia(-10) }) });
    const desconhecida = await avaliar(a.chave);
    expect(desconhecida.flags).toEqual(expect.arrayContaining(['DESCONHECIDA_PELO_DESTINATARIO', 'MANIFESTACAO_ALTERADA']));
    expect((desconhecida.manifestacoes as { tpEvento: string }[]).map((m) => m.tpEvento)).toEqual(['210210', '210200', '210220']);
  });

  it('210240 with its justification; a delivery proof and its cancellation; a correction letter', async () => {
    const b = nfe(2);
    await carregar(
      { schema: NFE, xml: b.xml },
      { schema: EVT, xml: eventoRecebivelXml(b.chave, '210240', { justificativa: 'Mercadoria nao foi encomendada', dhEvento: dia(-19) }) },
      { schema: EVT, xml: eventoRecebivelXml(b.chave, '110110', { correcao: 'Placa do veiculo ABC1D23', dhEvento: dia(-19, '11:00:00') }) },
    );
    const r = await avaliar(b.chave);
    expect(r.flags).toEqual(expect.arrayContaining(['OPERACAO_NAO_REALIZADA', 'CARTA_CORRECAO']));
    expect(r.manifestacao).toMatchObject({ justificativa: 'Mercadoria nao foi encomendada' });
    expect(r.correcoes).toEqual([{ seq: 1, data: expect.any(String), texto: 'Placa do veiculo ABC1D23' }]);

    const c = nfe(3);
    const prova = eventoRecebivelXml(c.chave, '110130', {
      protocolo: `891${CUF}0000${String(base).padStart(6, '0')}`.slice(0, 15),
      entrega: { dhEntrega: dia(-15, '15:20:00'), nDoc: '52998224725', xNome: 'JOSE RECEBEDOR', latGPS: '-27.595400', longGPS: '-48.548000' },
    });
    await carregar({ schema: NFE, xml: c.xml }, { schema: EVT, xml: prova });
    const entregue = await avaliar(c.chave);
    expect(entregue.flags).toContain('ENTREGA_COMPROVADA');
    expect(entregue.entrega).toMatchObject({ documentoRecebedor: '52998224725', nomeRecebedor: 'JOSE RECEBEDOR', latitude: '-27.595400', longitude: '-48.548000' });
    const protocolo = (entregue.entrega as { protocolo: string }).protocolo;
    await carregar({ schema: EVT, xml: eventoRecebivelXml(c.chave, '110131', { nProtEvento: protocolo, dhEvento: dia(-14) }) });
    const semEntrega = await avaliar(c.chave);
    expect(semEntrega.flags).not.toContain('ENTREGA_COMPROVADA');
    expect(semEntrega.linhaDoTempo.map((m) => m.etapa)).toEqual(expect.arrayContaining(['ENTREGUE', 'ENTREGA_CANCELADA']));
  });

  it('an event and a return that arrive before their NF-e are applied when it arrives; a partial return lowers the net value', async () => {
    const d = nfe(4);
    const devolucao = devolucaoXml(d.chave, { numero: base + 500, vNF: '1000.00', emissao: dia(-5) });
    await carregar({ schema: EVT, xml: eventoRecebivelXml(d.chave, '210200', { dhEvento: dia(-19) }) }, { schema: NFE, xml: devolucao.xml });
    const antes = await evidenciaDaChave(d.chave);
    expect(antes.eventos).toHaveLength(1);
    expect(antes.devolucoes).toEqual([expect.objectContaining({ chave: devolucao.chave, valor: 100_000, cancelado: false })]);

    await carregar({ schema: NFE, xml: d.xml });
    const r = await avaliar(d.chave);
    expect(r.flags).toEqual(expect.arrayContaining(['CONFIRMADA_PELO_DESTINATARIO', 'DEVOLVIDA_PARCIAL']));
    expect(r).toMatchObject({ valorLiquido: 334_567, valorDevolvido: 100_000, valorLiquidoAposDevolucoes: 234_567 });
    expect(r.linhaDoTempo.map((m) => m.etapa)).toEqual(['EMITIDA', 'AUTORIZADA', 'MANIFESTADA', 'DEVOLVIDA']);

    // The return cancelled by its issuer no longer counts.
    await carregar({ schema: EVT, xml: cancelamentoXml(devolucao.chave, { protocoloNfe: PROTOCOLO_FIXTURE }) });
    expect(await avaliar(d.chave)).toMatchObject({ valorDevolvido: 0, valorLiquidoAposDevolucoes: 334_567 });
  });

  it('a redelivered event changes nothing; the cancellation raises CANCELADA', async () => {
    const e = nfe(5);
    const confirmacao = eventoRecebivelXml(e.chave, '210200', { dhEvento: dia(-19) });
    await carregar({ schema: NFE, xml: e.xml }, { schema: EVT, xml: confirmacao });
    const antes = await avaliar(e.chave);
    const repetido = await ingerir(UF, [{ nsu: String(++nsu), schema: EVT, xml: confirmacao }], { moverCursor: false });
    expect(repetido).toMatchObject({ eventos: 0, repetidos: 1 });
    const depois = await avaliar(e.chave);
    expect({ ...depois, consultadoEm: null }).toEqual({ ...antes, consultadoEm: null });

    await carregar({ schema: EVT, xml: cancelamentoXml(e.chave, { protocoloNfe: PROTOCOLO_FIXTURE }) });
    const cancelada = await avaliar(e.chave);
    expect(cancelada.flags).toContain('CANCELADA');
    expect(cancelada.linhaDoTempo.at(-1)).toMatchObject({ etapa: 'CANCELADA' });
  });
});
