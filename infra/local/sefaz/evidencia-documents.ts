/**
 * The receivable's evidence in the Sefaz simulator (docs/sefaz-simulator.md, "Evidence"): the NF-e
 * events of the national environment (the recipient's manifestation, the delivery proof and its
 * cancellation) and of the issuer's UF (the correction letter), as `procEventoNFe` documents with their
 * registration (retEvento cStat 135), and the NF-e of return (finNFe 4, NFref/refNFe). Used by the
 * generator (documents.ts draws which) and by the drop folder (evidencia.ts writes them by hand).
 */
import { DESC_EVENTO_LAYOUT } from '@plac/shared/domain';
import { brasilia, builder, NFE_NAMESPACE, XML_DECLARATION } from './xml';

/** The event types the simulator produces, with the descEvento the layout requires (no accents). */
export const DESC_EVENTO = DESC_EVENTO_LAYOUT;
export type TipoEvento = keyof typeof DESC_EVENTO;

const X_COND_USO =
  'A Carta de Correcao e disciplinada pelo paragrafo 1o-A do art. 7o do Convenio S/N, de 15 de dezembro de 1970 e pode ser utilizada para regularizacao de erro ocorrido na emissao de documento fiscal, desde que o erro nao esteja relacionado com: I - as variaveis que determinam o valor do imposto tais como: base de calculo, aliquota, diferenca de preco, quantidade, valor da operacao ou da prestacao; II - a correcao de dados cadastrais que implique mudanca do remetente ou do destinatario; III - a data de emissao ou de saida.';

export interface EventoSimulado {
  chave: string;
  tpEvento: TipoEvento;
  /** The author: the recipient for a manifestation, the issuer for the others. */
  cnpjAutor: string;
  /** When the author signed it (ms); registered 3 s later. */
  eventoMs: number;
  /** The registration protocol (15 digits). */
  protocolo: string;
  seq?: number;
  justificativa?: string;
  correcao?: string;
  entrega?: { em: number; documento: string; nome: string; latitude: string; longitude: string };
  /** 110131: the delivery proof's protocol. */
  protocoloEntrega?: string;
  tpAmb?: '1' | '2';
}

/** The procEventoNFe of one evidence event, as the distribution serves it. */
export function eventoXml(e: EventoSimulado): string {
  const cUF = e.chave.slice(0, 2);
  // The manifestation and the delivery proof are registered by the national environment (91).
  const cOrgao = e.tpEvento === '110110' ? cUF : '91';
  const seq = e.seq ?? 1;
  const tpAmb = e.tpAmb ?? '2';
  const det: Record<string, unknown> = { '@_versao': '1.00', descEvento: DESC_EVENTO[e.tpEvento] };
  if (e.tpEvento === '110130' || e.tpEvento === '110131') Object.assign(det, { cOrgaoAutor: cUF, tpAutor: '1', verAplic: 'SIMULADOR-PLAC' });
  if (e.tpEvento === '210240') det.xJust = e.justificativa ?? 'Operacao nao realizada pelo destinatario';
  if (e.tpEvento === '110110') Object.assign(det, { xCorrecao: e.correcao ?? 'Correcao do endereco de entrega', xCondUso: X_COND_USO });
  if (e.tpEvento === '110130') {
    const en = e.entrega ?? { em: e.eventoMs, documento: '52998224725', nome: 'Recebedor', latitude: '-12.971600', longitude: '-38.501600' };
    Object.assign(det, {
      dhEntrega: brasilia(en.em),
      nDoc: en.documento,
      xNome: en.nome,
      latGPS: en.latitude,
      longGPS: en.longitude,
      hashComprovante: Buffer.from(`${e.chave}:${en.em}`).toString('base64').slice(0, 28),
      dhHashComprovante: brasilia(en.em),
    });
  }
  if (e.tpEvento === '110131') det.nProtEvento = e.protocoloEntrega ?? '';
  const doc = {
    procEventoNFe: {
      '@_versao': '1.00',
      '@_xmlns': NFE_NAMESPACE,
      evento: {
        '@_versao': '1.00',
        infEvento: {
          '@_Id': `ID${e.tpEvento}${e.chave}${String(seq).padStart(2, '0')}`,
          cOrgao: cOrgao,
          tpAmb,
          CNPJ: e.cnpjAutor,
          chNFe: e.chave,
          dhEvento: brasilia(e.eventoMs),
          tpEvento: e.tpEvento,
          nSeqEvento: String(seq),
          verEvento: '1.00',
          detEvento: det,
        },
      },
      retEvento: {
        '@_versao': '1.00',
        infEvento: {
          tpAmb,
          verAplic: 'SIMULADOR-PLAC',
          cOrgao: cOrgao,
          cStat: '135',
          xMotivo: 'Evento registrado e vinculado a NF-e',
          chNFe: e.chave,
          tpEvento: e.tpEvento,
          xEvento: DESC_EVENTO[e.tpEvento],
          nSeqEvento: String(seq),
          dhRegEvento: brasilia(e.eventoMs + 3000),
          nProt: e.protocolo,
        },
      },
    },
  };
  return XML_DECLARATION + builder.build(doc);
}

/**
 * Turns an authorised NF-e (nfeProc XML) into the NF-e of return of part or all of it: the recipient
 * issues it (emit and dest swapped), finNFe 4, NFref/refNFe naming the original, the value `vNF`
 * (centavos) in one item, no bill. `chave` and `nProt` are the return's own.
 */
export function devolucaoXml(o: { chaveOriginal: string; chave: string; cNF: string; nNF: number; emitidaMs: number; vNF: number; nProt: string; emit: { cnpj: string; xNome: string; ie: string }; dest: { cnpj: string; xNome: string; ie: string }; uf: string; cUF: number; tpAmb?: '1' | '2' }): string {
  const money = (c: number) => (c / 100).toFixed(2);
  const tpAmb = o.tpAmb ?? '2';
  const cMun = '2927408';
  const endereco = (uf: string) => ({ xLgr: 'Rua do Comercio', nro: '100', xBairro: 'Centro', cMun, xMun: 'Municipio', UF: uf, CEP: '40000000' });
  const doc = {
    nfeProc: {
      '@_versao': '4.00',
      '@_xmlns': NFE_NAMESPACE,
      NFe: {
        infNFe: {
          '@_Id': `NFe${o.chave}`,
          '@_versao': '4.00',
          ide: {
            cUF: String(o.cUF),
            cNF: o.cNF,
            natOp: 'Devolucao de mercadoria',
            mod: '55',
            // Returns go in their own series (2), so their numbers never meet the sales' (series 1).
            serie: '2',
            nNF: String(o.nNF),
            dhEmi: brasilia(o.emitidaMs),
            tpNF: '1',
            idDest: '1',
            cMunFG: cMun,
            tpImp: '1',
            tpEmis: '1',
            cDV: o.chave.slice(43),
            tpAmb,
            finNFe: '4',
            indFinal: '0',
            indPres: '9',
            procEmi: '0',
            verProc: 'PLAC Simulador 1.0',
            NFref: { refNFe: o.chaveOriginal },
          },
          emit: { CNPJ: o.emit.cnpj, xNome: o.emit.xNome, enderEmit: endereco(o.uf), IE: o.emit.ie, CRT: '3' },
          dest: { CNPJ: o.dest.cnpj, xNome: o.dest.xNome, enderDest: endereco(o.uf), indIEDest: '1', IE: o.dest.ie },
          det: {
            '@_nItem': '1',
            prod: { cProd: 'DEV', cEAN: 'SEM GTIN', xProd: 'Mercadoria devolvida', NCM: '73181500', CFOP: '5202', uCom: 'UN', qCom: '1.0000', vUnCom: money(o.vNF), vProd: money(o.vNF), cEANTrib: 'SEM GTIN', uTrib: 'UN', qTrib: '1.0000', vUnTrib: money(o.vNF), indTot: '1' },
            imposto: { ICMS: { ICMS00: { orig: '0', CST: '00', modBC: '3', vBC: '0.00', pICMS: '0.00', vICMS: '0.00' } }, PIS: { PISNT: { CST: '07' } }, COFINS: { COFINSNT: { CST: '07' } } },
          },
          total: { ICMSTot: { vBC: '0.00', vICMS: '0.00', vProd: money(o.vNF), vDesc: '0.00', vNF: money(o.vNF) } },
          transp: { modFrete: '9' },
          pag: { detPag: { tPag: '90', vPag: '0.00' } },
        },
      },
      protNFe: {
        '@_versao': '4.00',
        infProt: { tpAmb, verAplic: 'SIMULADOR-PLAC', chNFe: o.chave, dhRecbto: brasilia(o.emitidaMs + 30_000), nProt: o.nProt, digVal: Buffer.from(o.chave).toString('base64').slice(0, 28), cStat: '100', xMotivo: 'Autorizado o uso da NF-e' },
      },
    },
  };
  return XML_DECLARATION + builder.build(doc);
}

/**
 * Which evidence a generated evidence document is, by one draw: most manifestations confirm or
 * acknowledge (Confirmação 36 %, Ciência 22 %), a few disown (Desconhecimento 4 %, Operação não
 * Realizada 2 %); delivery proofs 22 %, correction letters 7 %, returns 7 % (half of them partial).
 */
export function tipoDeEvidencia(draw: number): TipoEvento | 'DEVOLUCAO' {
  if (draw < 0.36) return '210200';
  if (draw < 0.58) return '210210';
  if (draw < 0.62) return '210220';
  if (draw < 0.64) return '210240';
  if (draw < 0.86) return '110130';
  if (draw < 0.93) return '110110';
  return 'DEVOLUCAO';
}
