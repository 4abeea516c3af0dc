import { randomInt } from 'node:crypto';
import type { Principal } from '@plac/shared/access';
import { todayInBahia } from '@plac/shared/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventoXml, nfeXml, PROTOCOLO_FIXTURE } from '../../functions/fate/fixtures/builder';
import { fatePorChave } from '../../functions/fate';
import { ingerir } from '../../functions/fate/service';
import { novoCnpj } from './consulta-kit';
import { call } from './http';
import { bearer, tokenFor } from './session';

/**
 * The NF-e rules of the distribution (issue 27 item 9) through the loader and the admin's API: a
 * homologação document (tpAmb 2) becomes an error document in a production stage and a Fat-e in a
 * homologação one (the twin); a cancellation stores its own registration (retEvento) and cancels only
 * the NF-e whose authorisation protocol it names, whichever arrives first.
 *
 * UF: Maranhão (cUF 21): no other test loads its documents. The cursor is not moved.
 */

const UF = 'MA';
const CUF = '21';
const NFE = 'procNFe_v4.00.xsd';
const EVT = 'procEventoNFe_v1.00.xsd';
const admin: Principal = { userId: 'nfe-regras-admin', name: 'Admin', tipo: 'S', roles: ['sefaz_admin'] };
const hoje = todayInBahia();
const nsuBase = randomInt(1_000_000, 9_000_000) * 10;
let nsu = nsuBase;
const proximo = () => String(++nsu);

async function documentoErro(id: string) {
  const [a, m, d] = hoje.split('-');
  const q = `UFOrigem=${UF}&dataInicio=${d}%2F${m}%2F${a}&dataFim=${d}%2F${m}%2F${a}&perPage=100`;
  const list = await call(`/api/v1/documentos-erro?${q}`, { headers: bearer(await tokenFor(admin)) });
  expect(list.status).toBe(200);
  return (list.body as { items: { id: string; excecao: string; erro: string }[] }).items.find((i) => i.id === id);
}

async function fateNaApi(chave: string) {
  return call(`/api/v1/fate/${chave}`, { headers: bearer(await tokenFor(admin)) });
}

afterEach(() => vi.unstubAllEnvs());

describe('the Sefaz environment of a document (tpAmb)', () => {
  it('in a production stage a homologação NF-e is an error document and no Fat-e; the twin (homologação) stores it', async () => {
    const emitente = novoCnpj();
    const teste = nfeXml({ cUF: CUF, numero: randomInt(1, 999_999), emitente, tpAmb: '2' });
    vi.stubEnv('PLAC_SEFAZ_TPAMB', '1');
    const naProducao = proximo();
    const producao = await ingerir(UF, [{ nsu: naProducao, schema: NFE, xml: teste.xml }], { moverCursor: false });
    expect(producao).toMatchObject({ fate: 0, erros: 1 });
    expect(await fatePorChave(teste.chave)).toBeNull();
    expect(await documentoErro(`${UF}-${naProducao.padStart(15, '0')}`)).toMatchObject({
      excecao: 'AmbienteHomologacao',
      erro: `O documento ${teste.chave} foi emitido em ambiente de homologação (tpAmb 2), sem valor fiscal, e não gera Fat-e em produção.`,
    });
    expect((await fateNaApi(teste.chave)).status).toBe(404);

    // The twin's own setting (PLAC_SEFAZ_TPAMB=2) takes the same document.
    vi.unstubAllEnvs();
    expect(process.env.PLAC_SEFAZ_TPAMB).toBe('2');
    expect(await ingerir(UF, [{ nsu: proximo(), schema: NFE, xml: teste.xml }], { moverCursor: false })).toMatchObject({ fate: 1 });
    expect((await fateNaApi(teste.chave)).body).toMatchObject({ chave: teste.chave, situacao: 'ATIVA' });
  });
});

describe('a cancellation and the NF-e it names', () => {
  it('stores its own registration protocol and instant (retEvento), not the NF-e’s', async () => {
    const nota = nfeXml({ cUF: CUF, numero: randomInt(1, 999_999), emitente: novoCnpj() });
    await ingerir(UF, [{ nsu: proximo(), schema: NFE, xml: nota.xml }, { nsu: proximo(), schema: EVT, xml: eventoXml(nota.chave) }], { moverCursor: false });
    const got = await fateNaApi(nota.chave);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      situacao: 'CANCELADA',
      protocolo: PROTOCOLO_FIXTURE,
      cancelamento: { protocolo: '135260000000099', data: '2026-08-11T17:00:05.000Z' },
    });
  });

  it('naming another authorisation protocol, it is an error document naming both, and the Fat-e stays active', async () => {
    const nota = nfeXml({ cUF: CUF, numero: randomInt(1, 999_999), emitente: novoCnpj() });
    const doEvento = proximo();
    await ingerir(UF, [{ nsu: proximo(), schema: NFE, xml: nota.xml }, { nsu: doEvento, schema: EVT, xml: eventoXml(nota.chave, '110111', { protocoloNfe: '135269999999999' }) }], {
      moverCursor: false,
    });
    expect((await fateNaApi(nota.chave)).body).toMatchObject({ situacao: 'ATIVA', cancelamento: null });
    expect(await documentoErro(`${UF}-${doEvento.padStart(15, '0')}`)).toMatchObject({
      excecao: 'ProtocoloDivergente',
      erro: `O cancelamento da chave ${nota.chave} cita o protocolo de autorização 135269999999999, mas o documento armazenado tem o protocolo ${PROTOCOLO_FIXTURE}.`,
    });
  });

  it('arriving before its NF-e, it cancels the NF-e it names, and only that one', async () => {
    const certa = nfeXml({ cUF: CUF, numero: randomInt(1, 999_999), emitente: novoCnpj() });
    const outra = nfeXml({ cUF: CUF, numero: randomInt(1, 999_999), emitente: novoCnpj() });
    const eventoDaOutra = proximo();
    await ingerir(
      UF,
      [
        { nsu: proximo(), schema: EVT, xml: eventoXml(certa.chave) },
        { nsu: eventoDaOutra, schema: EVT, xml: eventoXml(outra.chave, '110111', { protocoloNfe: '135269999999998' }) },
      ],
      { moverCursor: false },
    );
    await ingerir(UF, [{ nsu: proximo(), schema: NFE, xml: certa.xml }, { nsu: proximo(), schema: NFE, xml: outra.xml }], { moverCursor: false });
    expect((await fateNaApi(certa.chave)).body).toMatchObject({ situacao: 'CANCELADA', cancelamento: { protocolo: '135260000000099' } });
    expect((await fateNaApi(outra.chave)).body).toMatchObject({ situacao: 'ATIVA', cancelamento: null });
    expect(await documentoErro(`${UF}-${eventoDaOutra.padStart(15, '0')}`)).toMatchObject({ excecao: 'ProtocoloDivergente' });
  });
});
