import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CNPJ_DESTINATARIO, CNPJ_EMITENTE, CNPJ_EMITENTE_ALFA, eventoXml, nfeXml } from './fixtures/builder';
import { falha } from './fixtures/falha';
import { parseDocumento } from './parse';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const NFE = 'procNFe_v4.00.xsd';
const CHAVE = '35260812345678000195550010000012341102030400';


describe('NF-e with a billing group', () => {
  it('becomes a Fat-e with its three instalments in centavos and its key', () => {
    const doc = parseDocumento({ schema: NFE, xml: fixture('nfe-3-duplicatas.xml') });
    expect(doc).toEqual({
      kind: 'nfe',
      chave: CHAVE,
      modelo: '55',
      serie: '1',
      numero: '1234',
      emissao: '2026-08-10T12:30:00.000Z',
      protocolo: '135260000000001',
      recebimento: '2026-08-10T12:31:02.000Z',
      emitente: { cnpj: CNPJ_EMITENTE, nome: 'INDUSTRIA DE EMBALAGENS PAULISTA LTDA', uf: 'SP' },
      destinatario: { cnpj: CNPJ_DESTINATARIO, nome: 'COMERCIO DE ALIMENTOS BAIANO S.A.', uf: 'BA' },
      valorNota: 334567,
      fatura: { numero: '1234', valorOriginal: 334567, desconto: 0, valorLiquido: 334567 },
      duplicatas: [
        { numero: '001', vencimento: '2026-09-10', valor: 100000 },
        { numero: '002', vencimento: '2026-10-10', valor: 100000 },
        { numero: '003', vencimento: '2026-11-10', valor: 134567 },
      ],
    });
  });

  it('accepts an alphanumeric issuer CNPJ (in the key too) and a recipient identified by CPF', () => {
    const doc = parseDocumento({ schema: NFE, xml: fixture('nfe-cnpj-alfanumerico.xml') });
    if (doc.kind !== 'nfe') throw new Error(doc.kind);
    expect(doc.emitente.cnpj).toBe(CNPJ_EMITENTE_ALFA);
    expect(doc.chave.slice(6, 20)).toBe(CNPJ_EMITENTE_ALFA);
    expect(doc.destinatario).toEqual({ cpf: '52998224725', nome: 'MARIA DA SILVA', uf: 'BA' });
    expect(doc.duplicatas.map((d) => d.valor)).toEqual([15050, 15049]);
    expect(doc.fatura.valorLiquido).toBe(30099);
  });

  it('keeps a single instalment as a list', () => {
    const { xml } = nfeXml({ numero: 9, duplicatas: [['001', '2026-12-01', '10.00']] });
    const doc = parseDocumento({ schema: NFE, xml });
    expect(doc.kind === 'nfe' && doc.duplicatas).toEqual([{ numero: '001', vencimento: '2026-12-01', valor: 1000 }]);
  });

  it('ignores an NF-e without cobr/fat: not an error, nothing to store', () => {
    expect(parseDocumento({ schema: NFE, xml: fixture('nfe-sem-fatura.xml') })).toMatchObject({ kind: 'ignorado' });
  });
});

describe('documents that cannot be processed', () => {
  it('malformed XML → XmlMalformado', () => {
    const error = falha({ schema: NFE, xml: fixture('malformado.xml') });
    expect(error.excecao).toBe('XmlMalformado');
    expect(error.erro).toMatch(/^O documento não é um XML bem formado: linha \d+, coluna \d+\.$/);
  });

  it('a wrong check digit → ChaveInvalida', () => {
    const error = falha({ schema: NFE, xml: fixture('nfe-digito-errado.xml') });
    expect(error.excecao).toBe('ChaveInvalida');
    expect(error.erro).toContain('dígito verificador');
  });

  it('a key different from the infNFe Id → ChaveInvalida', () => {
    const { xml } = nfeXml({ numero: 1234 });
    const other = nfeXml({ numero: 1239 }).chave;
    const error = falha({ schema: NFE, xml: xml.replace(/<chNFe>\w+<\/chNFe>/, `<chNFe>${other}</chNFe>`) });
    expect(error.excecao).toBe('ChaveInvalida');
    expect(error.erro).toContain('difere do Id');
  });

  it('a key whose number differs from ide/nNF → ChaveInvalida', () => {
    const { xml } = nfeXml({ numero: 1234 });
    expect(falha({ schema: NFE, xml: xml.replace('<nNF>1234</nNF>', '<nNF>1235</nNF>') }).excecao).toBe('ChaveInvalida');
  });

  it('instalments that do not add up to vLiq → DuplicatasNaoFecham, to the centavo', () => {
    const error = falha({ schema: NFE, xml: fixture('nfe-duplicatas-nao-fecham.xml') });
    expect(error.excecao).toBe('DuplicatasNaoFecham');
    expect(error.erro).toBe('A soma das duplicatas (3345.67) difere do valor líquido da fatura (3345.68).');
  });

  it('a missing required element or a malformed value → EsquemaInvalido', () => {
    const { xml } = nfeXml({ numero: 1234 });
    const semEmitente = falha({ schema: NFE, xml: xml.replace(/<emit>[\s\S]*<\/emit>/, '') });
    expect(semEmitente.excecao).toBe('EsquemaInvalido');
    expect(semEmitente.erro).toBe('O documento não segue o leiaute procNFe_v4.00.xsd: nfeProc.NFe.infNFe.emit: O campo emit é obrigatório.');
    expect(falha({ schema: NFE, xml: xml.replace('<vDup>1000.00</vDup>', '<vDup>1.000,00</vDup>') }).excecao).toBe('EsquemaInvalido');
    expect(falha({ schema: NFE, xml: xml.replace('2026-09-10', '2026-02-30') }).excecao).toBe('EsquemaInvalido');
    expect(falha({ schema: NFE, xml: fixture('resnfe.xml') }).excecao).toBe('EsquemaInvalido');
  });

  it('an invalid CNPJ → CnpjInvalido', () => {
    const { xml } = nfeXml({ numero: 1234 });
    const error = falha({ schema: NFE, xml: xml.replace(`<CNPJ>${CNPJ_DESTINATARIO}</CNPJ>`, '<CNPJ>98765432000100</CNPJ>') });
    expect(error.excecao).toBe('CnpjInvalido');
    expect(error.erro).toBe('O CNPJ do destinatário 98765432000100 é inválido.');
  });

  it('an NF-e not authorised → NotaNaoAutorizada', () => {
    const { xml } = nfeXml({ numero: 1234 });
    expect(falha({ schema: NFE, xml: xml.replace('<cStat>100</cStat>', '<cStat>110</cStat>') }).excecao).toBe('NotaNaoAutorizada');
  });
});

describe('summaries and events', () => {
  it('resNFe → resumo', () => {
    expect(parseDocumento({ schema: 'resNFe_v1.01.xsd', xml: fixture('resnfe.xml') })).toEqual({
      kind: 'resumo',
      chave: CHAVE,
      emitente: { cnpj: CNPJ_EMITENTE, nome: 'INDUSTRIA DE EMBALAGENS PAULISTA LTDA' },
      emissao: '2026-08-10T12:30:00.000Z',
      tipoOperacao: '1',
      valorNota: 334567,
      protocolo: '135260000000001',
      situacao: '1',
      recebimento: '2026-08-10T12:31:02.000Z',
    });
  });

  it('a 110111 event → cancelamento', () => {
    expect(parseDocumento({ schema: 'procEventoNFe_v1.00.xsd', xml: fixture('evento-cancelamento.xml') })).toEqual({
      kind: 'cancelamento',
      chave: CHAVE,
      tpEvento: '110111',
      // Its own registration (retEvento nProt, dhRegEvento), and the NF-e authorisation it names (detEvento nProt).
      protocolo: '135260000000099',
      protocoloDocumento: '135260000000001',
      justificativa: 'Pedido cancelado pelo cliente antes do envio',
      data: '2026-08-11T17:00:05.000Z',
    });
  });

  it('an event without its registration (retEvento, or its nProt and dhRegEvento) is an error document', () => {
    const text = fixture('evento-cancelamento.xml');
    for (const xml of [text.replace(/<retEvento[\s\S]*<\/retEvento>/, ''), text.replace('<nProt>135260000000099</nProt>', '')]) {
      expect(falha({ schema: 'procEventoNFe_v1.00.xsd', xml })).toMatchObject({ excecao: expect.stringMatching(/EsquemaInvalido|EventoSemRegistro/) });
    }
  });
});

describe('the Sefaz environment (tpAmb)', () => {
  afterEach(() => vi.unstubAllEnvs());
  const homologacao = nfeXml({ numero: 4321, tpAmb: '2' });

  it('production (no setting, or PLAC_SEFAZ_TPAMB=1) takes tpAmb 1 only: a homologação NF-e or event is an error document', () => {
    for (const valor of [undefined, '1']) {
      vi.stubEnv('PLAC_SEFAZ_TPAMB', valor);
      expect(parseDocumento({ schema: 'procNFe_v4.00.xsd', xml: nfeXml({ numero: 4321 }).xml }).kind).toBe('nfe');
      const erro = falha({ schema: 'procNFe_v4.00.xsd', xml: homologacao.xml });
      expect(erro).toMatchObject({ excecao: 'AmbienteHomologacao' });
      expect(erro.erro).toBe(`O documento ${homologacao.chave} foi emitido em ambiente de homologação (tpAmb 2), sem valor fiscal, e não gera Fat-e em produção.`);
      expect(falha({ schema: 'procEventoNFe_v1.00.xsd', xml: eventoXml(homologacao.chave, '110111', { tpAmb: '2' }) })).toMatchObject({ excecao: 'AmbienteHomologacao' });
    }
  });

  it('a homologação stage (PLAC_SEFAZ_TPAMB=2) takes both', () => {
    vi.stubEnv('PLAC_SEFAZ_TPAMB', '2');
    expect(parseDocumento({ schema: 'procNFe_v4.00.xsd', xml: homologacao.xml }).kind).toBe('nfe');
    expect(parseDocumento({ schema: 'procNFe_v4.00.xsd', xml: nfeXml({ numero: 4321 }).xml }).kind).toBe('nfe');
  });

  it('any other tpAmb breaks the schema', () => {
    const xml = homologacao.xml.replace('<tpAmb>2</tpAmb>', '<tpAmb>3</tpAmb>');
    expect(falha({ schema: 'procNFe_v4.00.xsd', xml })).toMatchObject({ excecao: 'EsquemaInvalido' });
  });

  it('another event type or another schema is ignored', () => {
    // EPEC (110140) bears on no receivable: ignored, not an error.
    const epec = fixture('evento-carta-correcao.xml').replaceAll('110110', '110140');
    expect(parseDocumento({ schema: 'procEventoNFe_v1.00.xsd', xml: epec })).toEqual({ kind: 'ignorado', reason: 'evento 110140' });
    expect(parseDocumento({ schema: 'resEvento_v1.01.xsd', xml: '<resEvento/>' })).toMatchObject({ kind: 'ignorado' });
  });
});
