import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { Uf } from '@plac/shared/domain';
import { generateCte } from '../../infra/local/sefaz/cte-documents';
import { falha } from './fixtures/falha';
import { parseDocumento } from './parse';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const CTE = 'procCTe_v4.00.xsd';
const EVENTO = 'procEventoCTe_v4.00.xsd';
const CHAVE = '29260811222333000181570010000043211556677884';
const CARRIER = { cnpj: '11222333000181', nome: 'TRANSPORTES RODOVIARIOS BAIANOS LTDA' };
const xml = fixture('cte-2-duplicatas.xml');


const destinatario = (text: string) => {
  const doc = parseDocumento({ schema: CTE, xml: text });
  if (doc.kind !== 'nfe') throw new Error(doc.kind);
  return doc.destinatario;
};

describe('CT-e with a billing group', () => {
  it('becomes a document with a bill: the carrier issues it, the tomador owes it, vTPrest is its value', () => {
    expect(parseDocumento({ schema: CTE, xml })).toEqual({
      kind: 'nfe',
      chave: CHAVE,
      modelo: '57',
      serie: '1',
      numero: '4321',
      emissao: '2026-08-12T13:15:00.000Z',
      protocolo: '129260000004321',
      recebimento: '2026-08-12T13:15:40.000Z',
      emitente: { ...CARRIER, uf: 'BA' },
      destinatario: { cnpj: '98765432000198', nome: 'COMERCIO DE ALIMENTOS FEIRENSE S.A.', uf: 'BA' },
      valorNota: 123456,
      transportador: CARRIER,
      fatura: { numero: '4321', valorOriginal: 123456, desconto: 0, valorLiquido: 123456 },
      duplicatas: [
        { numero: '001', vencimento: '2026-09-11', valor: 61728 },
        { numero: '002', vencimento: '2026-10-11', valor: 61728 },
      ],
      // The NF-e it carries: the transport evidence of those keys (docs/recebivel.md).
      vinculos: { tipo: 'TRANSPORTE', chaves: [expect.stringMatching(/^\d{44}$/)] },
    });
  });

  it('the tomador is the party toma3 names (0 sender, 1 dispatcher, 2 receiver, 3 recipient) or toma4 itself', () => {
    expect(destinatario(xml.replace('<toma>3</toma>', '<toma>0</toma>'))).toEqual({ cnpj: '12345678000195', nome: 'INDUSTRIA DE EMBALAGENS BAIANA LTDA', uf: 'BA' });
    const exped = '<exped><CPF>52998224725</CPF><xNome>JOAO EXPEDIDOR</xNome><enderExped><xLgr>RUA A</xLgr><nro>1</nro><xBairro>B</xBairro><cMun>2927408</cMun><xMun>SALVADOR</xMun><UF>BA</UF></enderExped></exped>';
    expect(destinatario(xml.replace('<toma>3</toma>', '<toma>1</toma>').replace('<dest>', `${exped}<dest>`))).toEqual({ cpf: '52998224725', nome: 'JOAO EXPEDIDOR', uf: 'BA' });
    const receb = '<receb><CNPJ>33444555000181</CNPJ><xNome>ARMAZEM RECEBEDOR LTDA</xNome><enderReceb><UF>PE</UF></enderReceb></receb>';
    expect(destinatario(xml.replace('<toma>3</toma>', '<toma>2</toma>').replace('<dest>', `${receb}<dest>`))).toEqual({ cnpj: '33444555000181', nome: 'ARMAZEM RECEBEDOR LTDA', uf: 'PE' });
    const toma4 = '<toma4><toma>4</toma><CNPJ>33444555000181</CNPJ><IE>555</IE><xNome>OPERADOR LOGISTICO LTDA</xNome><enderToma><xLgr>R</xLgr><nro>2</nro><xBairro>C</xBairro><cMun>3550308</cMun><xMun>SAO PAULO</xMun><UF>SP</UF></enderToma></toma4>';
    expect(destinatario(xml.replace('<toma3><toma>3</toma></toma3>', toma4))).toEqual({ cnpj: '33444555000181', nome: 'OPERADOR LOGISTICO LTDA', uf: 'SP' });
  });

  it('a CT-e without cobr/fat is no Fat-e: it only names the NF-e it carries; without any, it is ignored', () => {
    const semFatura = fixture('cte-sem-fatura.xml');
    expect(parseDocumento({ schema: CTE, xml: semFatura })).toMatchObject({ kind: 'vinculo', vinculos: { tipo: 'TRANSPORTE' } });
    const semNfe = semFatura.replace(/<infDoc>[\s\S]*?<\/infDoc>/, '');
    expect(parseDocumento({ schema: CTE, xml: semNfe })).toEqual({ kind: 'ignorado', reason: 'CT-e sem grupo de fatura (cobr/fat)' });
  });
});

describe('CT-e that cannot be processed', () => {
  it('malformed XML → XmlMalformado', () => {
    expect(falha({ schema: CTE, xml: xml.slice(0, 2000) }).excecao).toBe('XmlMalformado');
  });

  it('a wrong check digit, a key other than the Id, or a key that differs from ide/emit → ChaveInvalida', () => {
    const wrongDigit = `${CHAVE.slice(0, 43)}5`;
    expect(falha({ schema: CTE, xml: xml.replaceAll(CHAVE, wrongDigit) }).erro).toContain('dígito verificador');
    const other = falha({ schema: CTE, xml: xml.replace(`<chCTe>${CHAVE}</chCTe>`, '<chCTe>29260812345678000195550010000012341102030403</chCTe>') });
    expect(other.excecao).toBe('ChaveInvalida');
    expect(other.erro).toContain('difere do Id');
    expect(falha({ schema: CTE, xml: xml.replace('<nCT>4321</nCT>', '<nCT>4322</nCT>') }).erro).toContain('número difere do documento');
    expect(falha({ schema: CTE, xml: xml.replace('<cUF>29</cUF>', '<cUF>35</cUF>') }).erro).toContain('cUF difere do documento');
    expect(falha({ schema: CTE, xml: xml.replace('<serie>1</serie>', '<serie>2</serie>') }).erro).toContain('série difere do documento');
    expect(falha({ schema: CTE, xml: xml.replace('<mod>57</mod>', '<mod>55</mod>') }).erro).toContain('modelo difere do documento');
    expect(falha({ schema: CTE, xml: xml.replace('<CNPJ>11222333000181</CNPJ>', '<CNPJ>12345678000195</CNPJ>') }).erro).toContain('CNPJ do emitente difere');
  });

  it('instalments that do not add up to vLiq → DuplicatasNaoFecham, to the centavo', () => {
    const error = falha({ schema: CTE, xml: xml.replace('<vDup>617.28</vDup></dup>\n        </cobr>', '<vDup>617.29</vDup></dup>\n        </cobr>') });
    expect(error.excecao).toBe('DuplicatasNaoFecham');
    expect(error.erro).toBe('A soma das duplicatas (1234.57) difere do valor líquido da fatura (1234.56).');
  });

  it('a missing required element, a missing tomador or a malformed value → EsquemaInvalido', () => {
    const semEmitente = falha({ schema: CTE, xml: xml.replace(/<emit>[\s\S]*<\/emit>/, '') });
    expect(semEmitente.excecao).toBe('EsquemaInvalido');
    expect(semEmitente.erro).toBe('O documento não segue o leiaute procCTe_v4.00.xsd: cteProc.CTe.infCte.emit: O campo emit é obrigatório.');
    expect(falha({ schema: CTE, xml: xml.replace('<toma3><toma>3</toma></toma3>', '') }).erro).toContain('o tomador do serviço (toma3 ou toma4) é obrigatório');
    expect(falha({ schema: CTE, xml: xml.replace('<toma>3</toma>', '<toma>2</toma>') }).erro).toContain('o tomador (toma3 = 2) não está no documento (receb)');
    expect(falha({ schema: CTE, xml: xml.replace('<toma>3</toma>', '<toma>7</toma>') }).excecao).toBe('EsquemaInvalido');
    expect(falha({ schema: CTE, xml: xml.replace('<vTPrest>1234.56</vTPrest>', '<vTPrest>1.234,56</vTPrest>') }).excecao).toBe('EsquemaInvalido');
    expect(falha({ schema: CTE, xml: xml.replace('2026-09-11', '2026-02-30') }).excecao).toBe('EsquemaInvalido');
    expect(falha({ schema: CTE, xml: xml.replace(/<dup>[\s\S]*<\/dup>/, '') }).erro).toContain('a fatura não tem duplicatas');
    expect(falha({ schema: CTE, xml: fixture('evento-cte-cancelamento.xml') }).erro).toContain('elemento raiz cteProc ausente');
  });

  it('an invalid CNPJ or CPF of the tomador → CnpjInvalido / CpfInvalido', () => {
    const cnpj = falha({ schema: CTE, xml: xml.replace('<CNPJ>98765432000198</CNPJ>', '<CNPJ>98765432000100</CNPJ>') });
    expect(cnpj.excecao).toBe('CnpjInvalido');
    expect(cnpj.erro).toBe('O CNPJ do tomador 98765432000100 é inválido.');
    expect(falha({ schema: CTE, xml: xml.replace('<CNPJ>98765432000198</CNPJ>', '<CPF>12345678900</CPF>') }).excecao).toBe('CpfInvalido');
  });

  it('a CT-e not authorised → NotaNaoAutorizada; 150 (authorised out of time) is authorised', () => {
    const recusado = falha({ schema: CTE, xml: xml.replace('<cStat>100</cStat>', '<cStat>110</cStat>') });
    expect(recusado.excecao).toBe('NotaNaoAutorizada');
    expect(recusado.erro).toMatch(/^O CT-e \w{44} não está autorizado \(situação 110\)\.$/);
    expect(parseDocumento({ schema: CTE, xml: xml.replace('<cStat>100</cStat>', '<cStat>150</cStat>') }).kind).toBe('nfe');
  });
});

describe('CT-e events', () => {
  it('a registered 110111 event → cancelamento of the CT-e key', () => {
    expect(parseDocumento({ schema: EVENTO, xml: fixture('evento-cte-cancelamento.xml') })).toEqual({
      kind: 'cancelamento',
      chave: CHAVE,
      tpEvento: '110111',
      // Its own registration (retEventoCTe), and the CT-e authorisation it names (detEvento).
      protocolo: '129260000009999',
      protocoloDocumento: '129260000004321',
      justificativa: 'Frete contratado em duplicidade pelo tomador',
      data: '2026-08-13T12:00:04.000Z',
    });
    for (const cStat of ['136', '155']) {
      const text = fixture('evento-cte-cancelamento.xml').replace('<cStat>135</cStat>', `<cStat>${cStat}</cStat>`);
      expect(parseDocumento({ schema: EVENTO, xml: text }).kind).toBe('cancelamento');
    }
  });

  it('another event type, or an event not registered, is ignored; a bad key is not', () => {
    expect(parseDocumento({ schema: EVENTO, xml: fixture('evento-cte-carta-correcao.xml') })).toEqual({ kind: 'ignorado', reason: 'evento 110110' });
    const rejected = fixture('evento-cte-cancelamento.xml').replace('<cStat>135</cStat>', '<cStat>573</cStat>');
    expect(parseDocumento({ schema: EVENTO, xml: rejected })).toMatchObject({ kind: 'ignorado' });
    const badKey = fixture('evento-cte-cancelamento.xml').replaceAll(CHAVE, `${CHAVE.slice(0, 43)}5`);
    expect(falha({ schema: EVENTO, xml: badKey }).excecao).toBe('ChaveInvalida');
    const semJustificativa = fixture('evento-cte-cancelamento.xml').replace(/<xJust>[^<]*<\/xJust>/, '');
    expect(falha({ schema: EVENTO, xml: semJustificativa }).excecao).toBe('EsquemaInvalido');
  });
});

describe('the simulator’s generated CT-e', () => {
  it('every one parses: a bill, a CT-e without one naming the NF-e it carries, or a cancellation of an earlier CT-e', () => {
    // The simulator's documents are tpAmb 2: the twin is a homologação stage.
    vi.stubEnv('PLAC_SEFAZ_TPAMB', '2');
    const kinds = { nfe: 0, vinculo: 0, cancelamento: 0 };
    for (const uf of ['BA', 'SP', 'AC', 'RS'] as Uf[]) {
      const seen = new Set<string>();
      for (let i = 0; i < 300; i++) {
        const generated = generateCte(1, uf, i);
        const doc = parseDocumento(generated);
        expect(['nfe', 'vinculo', 'cancelamento'], `${uf} ${i}`).toContain(doc.kind);
        kinds[doc.kind as keyof typeof kinds]++;
        if (generated.kind === 'cteProc') seen.add(generated.chave);
        if (doc.kind === 'cancelamento') expect(seen.has(doc.chave)).toBe(true);
        if (doc.kind === 'nfe') {
          expect(doc).toMatchObject({ chave: generated.chave, modelo: '57', numero: String(i + 1) });
          expect(doc.transportador).toEqual({ cnpj: doc.emitente.cnpj, nome: doc.emitente.nome });
          expect(doc.duplicatas.reduce((sum, d) => sum + d.valor, 0)).toBe(doc.fatura.valorLiquido);
        }
      }
    }
    expect(kinds.nfe).toBeGreaterThan(kinds.vinculo * 2);
    expect(kinds.vinculo).toBeGreaterThan(0);
    expect(kinds.cancelamento).toBeGreaterThan(0);
  });
});
