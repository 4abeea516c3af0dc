import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CNPJ_DESTINATARIO, CNPJ_EMITENTE, devolucaoXml, eventoRecebivelXml, nfeXml } from './fixtures/builder';
import { falha } from './fixtures/falha';
import { parseDocumento } from './parse';

/** The receivable's evidence documents in the distribution's real layouts (docs/recebivel.md). */

const EVT = 'procEventoNFe_v1.00.xsd';
const NFE = 'procNFe_v4.00.xsd';
const CHAVE = nfeXml({ numero: 4321 }).chave;
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

describe('the recipient’s manifestation (cOrgao 91)', () => {
  it('210200 Confirmação da Operação: author, instants and registration protocol', () => {
    expect(parseDocumento({ schema: EVT, xml: eventoRecebivelXml(CHAVE, '210200', { protocolo: '891260000012345' }) })).toEqual({
      kind: 'evento',
      chave: CHAVE,
      tpEvento: '210200',
      seq: 1,
      orgao: '91',
      autor: CNPJ_DESTINATARIO,
      dataEvento: '2026-08-12T13:00:00.000Z',
      registradoEm: '2026-08-12T13:00:05.000Z',
      protocolo: '891260000012345',
    });
  });

  it('210220 and 210210 parse; 210240 keeps its justification and requires it', () => {
    expect(parseDocumento({ schema: EVT, xml: eventoRecebivelXml(CHAVE, '210220') })).toMatchObject({ kind: 'evento', tpEvento: '210220' });
    expect(parseDocumento({ schema: EVT, xml: eventoRecebivelXml(CHAVE, '210210') })).toMatchObject({ kind: 'evento', tpEvento: '210210' });
    expect(parseDocumento({ schema: EVT, xml: eventoRecebivelXml(CHAVE, '210240', { justificativa: 'Mercadoria nunca foi encomendada' }) })).toMatchObject({
      tpEvento: '210240',
      justificativa: 'Mercadoria nunca foi encomendada',
    });
    expect(falha({ schema: EVT, xml: eventoRecebivelXml(CHAVE, '210240') })).toMatchObject({ excecao: 'EsquemaInvalido' });
  });

  it('an event the Sefaz did not register is ignored; one without its registration is an error', () => {
    expect(parseDocumento({ schema: EVT, xml: eventoRecebivelXml(CHAVE, '210200', { cStat: '573' }) })).toMatchObject({ kind: 'ignorado' });
    const semRegistro = eventoRecebivelXml(CHAVE, '210200').replace(/<nProt>\d+<\/nProt>/, '');
    expect(falha({ schema: EVT, xml: semRegistro })).toMatchObject({ excecao: 'EventoSemRegistro' });
  });
});

describe('the delivery proof and the correction letter', () => {
  it('110130 keeps the delivery instant, the receiver’s document and name and the coordinates', () => {
    const xml = eventoRecebivelXml(CHAVE, '110130', { entrega: { dhEntrega: '2026-08-13T15:20:00-03:00', nDoc: '52998224725', xNome: 'JOSE RECEBEDOR', latGPS: '-12.971600', longGPS: '-38.501600' } });
    expect(parseDocumento({ schema: EVT, xml })).toMatchObject({
      tpEvento: '110130',
      autor: CNPJ_EMITENTE,
      entrega: { data: '2026-08-13T18:20:00.000Z', documento: '52998224725', nome: 'JOSE RECEBEDOR', latitude: '-12.971600', longitude: '-38.501600' },
    });
  });

  it('110131 names the proof it cancels; 110110 keeps the correction (its sequence too)', () => {
    expect(parseDocumento({ schema: EVT, xml: eventoRecebivelXml(CHAVE, '110131', { nProtEvento: '891260000000001' }) })).toMatchObject({
      tpEvento: '110131',
      protocoloEventoCancelado: '891260000000001',
    });
    expect(parseDocumento({ schema: EVT, xml: eventoRecebivelXml(CHAVE, '110110', { seq: 2, correcao: 'Placa do veiculo ABC1D23' }) })).toMatchObject({
      tpEvento: '110110',
      seq: 2,
      orgao: CHAVE.slice(0, 2),
      correcao: 'Placa do veiculo ABC1D23',
    });
    expect(parseDocumento({ schema: EVT, xml: fixture('evento-carta-correcao.xml') })).toMatchObject({ kind: 'evento', tpEvento: '110110' });
  });
});

describe('documents naming the key', () => {
  it('an NF-e of return (finNFe 4) without a bill names the key it returns and its value', () => {
    const dev = devolucaoXml(CHAVE, { numero: 77, vNF: '1000.00' });
    expect(parseDocumento({ schema: NFE, xml: dev.xml })).toEqual({
      kind: 'vinculo',
      chave: dev.chave,
      modelo: '55',
      emissao: '2026-08-10T12:30:00.000Z',
      emitente: { cnpj: CNPJ_DESTINATARIO, nome: 'INDUSTRIA DE EMBALAGENS PAULISTA LTDA' },
      valor: 100000,
      vinculos: { tipo: 'DEVOLUCAO', chaves: [CHAVE] },
    });
  });

  it('a return naming an invalid key is an error document', () => {
    const dev = devolucaoXml(`${CHAVE.slice(0, 43)}${(Number(CHAVE[43]) + 1) % 10}`, { numero: 78, vNF: '10.00' });
    expect(falha({ schema: NFE, xml: dev.xml })).toMatchObject({ excecao: 'ChaveInvalida' });
  });

  it('a CT-e without a bill names the NF-e it carries', () => {
    const doc = parseDocumento({ schema: 'procCTe_v4.00.xsd', xml: fixture('cte-sem-fatura.xml') });
    expect(doc).toMatchObject({ kind: 'vinculo', modelo: '57', vinculos: { tipo: 'TRANSPORTE', chaves: ['29260812345678000195550010000012341102030403'] } });
  });
});
