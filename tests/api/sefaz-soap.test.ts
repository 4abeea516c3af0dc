import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { carregarUf, CSTAT_FALHA_SOAP } from '../../functions/fate/carga';
import { eventoXml, nfeXml, resNfeXml } from '../../functions/fate/fixtures/builder';
import { fatePorChave } from '../../functions/fate';
import { resumoProcessamentoDa } from '../../functions/fate/carga-store';
import { resumoPorChave } from '../../functions/fate/eventos-store';
import { ensureLocalPki } from '../../infra/local/emulators/tls';

/**
 * The loader against a recorded answer of the real NFeDistribuicaoDFe web service (issue 26 item 5):
 * the request it sends is the WSDL's SOAP 1.2 envelope with the operation's action, and the answer, in
 * the real envelope (nfeDistDFeInteresseResponse / nfeDistDFeInteresseResult / retDistDFeInt) with
 * gzip+base64 docZips of each schema the service distributes, is stored as it should be. A SOAP Fault
 * is recorded as a refusal with its text.
 */

const twin = inject('twin');
const UF = 'TO';
const WSDL = 'http://www.portalfiscal.inf.br/nfe/wsdl/NFeDistribuicaoDFe';

const nota = nfeXml({ cUF: '17', numero: 26_501, emissao: '2026-11-02T10:00:00-03:00', duplicatas: [['001', '2026-12-02', '420.00']], vLiq: '420.00', vNF: '420.00', tpAmb: '2' });
const cancelada = nfeXml({ cUF: '17', numero: 26_502, emissao: '2026-11-02T11:00:00-03:00', duplicatas: [['001', '2026-12-02', '99.90']], vLiq: '99.90', vNF: '99.90', tpAmb: '2' });
const resumo = nfeXml({ cUF: '17', numero: 26_503, emissao: '2026-11-02T12:00:00-03:00', tpAmb: '2' }).chave;
const resEvento = `<?xml version="1.0" encoding="UTF-8"?><resEvento xmlns="http://www.portalfiscal.inf.br/nfe" versao="1.01"><cOrgao>17</cOrgao><CNPJ>${resumo.slice(6, 20)}</CNPJ><chNFe>${resumo}</chNFe><dhEvento>2026-11-02T12:30:00-03:00</dhEvento><tpEvento>210210</tpEvento><nSeqEvento>1</nSeqEvento><xEvento>Ciencia da Operacao</xEvento><dhRecbto>2026-11-02T12:30:05-03:00</dhRecbto><nProt>117260000000123</nProt></resEvento>`;

/** The four documents, as docZip elements after `ultNSU`. */
function lote(ultNSU: number): { xml: string; ult: number } {
  const docs: [string, string][] = [
    ['procNFe_v4.00.xsd', nota.xml],
    ['procNFe_v4.00.xsd', cancelada.xml],
    ['procEventoNFe_v1.00.xsd', eventoXml(cancelada.chave, '110111', { tpAmb: '2' })],
    ['resNFe_v1.01.xsd', resNfeXml(resumo)],
    ['resEvento_v1.01.xsd', resEvento],
  ];
  const nsu = (i: number) => String(ultNSU + 1 + i).padStart(15, '0');
  const zips = docs.map(([schema, xml], i) => `<docZip NSU="${nsu(i)}" schema="${schema}">${gzipSync(Buffer.from(xml)).toString('base64')}</docZip>`).join('');
  return { xml: zips, ult: ultNSU + docs.length };
}

/** What the real service answers (captured shape: soap namespace prefix, xsi/xsd declarations, Result wrapper). */
function respostaGravada(ultNSU: number): string {
  const { xml, ult } = lote(ultNSU);
  const n = String(ult).padStart(15, '0');
  return (
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">` +
    `<soap:Body><nfeDistDFeInteresseResponse xmlns="${WSDL}"><nfeDistDFeInteresseResult>` +
    `<retDistDFeInt versao="1.01" xmlns="http://www.portalfiscal.inf.br/nfe"><tpAmb>2</tpAmb><verAplic>1.7.3</verAplic><cStat>138</cStat><xMotivo>Documento localizado</xMotivo>` +
    `<dhResp>2026-11-26T02:10:00-03:00</dhResp><ultNSU>${n}</ultNSU><maxNSU>${n}</maxNSU><loteDistDFeInt>${xml}</loteDistDFeInt></retDistDFeInt>` +
    `</nfeDistDFeInteresseResult></nfeDistDFeInteresseResponse></soap:Body></soap:Envelope>`
  );
}

const falha =
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body><soap:Fault>` +
  `<soap:Code><soap:Value>soap:Receiver</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">Server was unable to process request. ---&gt; Object reference not set to an instance of an object.</soap:Text></soap:Reason>` +
  `</soap:Fault></soap:Body></soap:Envelope>`;

describe('the loader speaks the distribution web service’s SOAP 1.2', () => {
  let server: Server;
  let modo: 'gravada' | 'falha' = 'gravada';
  const pedidos: { contentType: string; body: string; cliente: string }[] = [];
  const urlAntes = process.env.PLAC_SEFAZ_URL;

  beforeAll(async () => {
    const pki = await ensureLocalPki(twin.dataDir);
    server = createServer({ key: pki.serverKeyPem, cert: pki.serverCertPem, requestCert: true, rejectUnauthorized: false }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const cliente = (req.socket as TLSSocket).getPeerCertificate().subject?.CN ?? '';
        pedidos.push({ contentType: String(req.headers['content-type']), body, cliente: String(cliente) });
        const ult = Number(/<ultNSU>(\d+)<\/ultNSU>/.exec(body)?.[1] ?? 0);
        if (modo === 'falha') res.writeHead(500, { 'content-type': 'application/soap+xml; charset=utf-8' }).end(falha);
        else res.writeHead(200, { 'content-type': 'application/soap+xml; charset=utf-8' }).end(respostaGravada(ult));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    process.env.PLAC_SEFAZ_URL = `https://localhost:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    modo = 'gravada';
  });
  afterAll(async () => {
    process.env.PLAC_SEFAZ_URL = urlAntes;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends the WSDL’s envelope with the action, and stores each schema of a recorded answer', async () => {
    const r = await carregarUf(UF, { esperaEmDiaMs: 0 });
    expect(r).toMatchObject({ situacao: 'carregada', chamadas: 1, cStat: '138', fate: 2, eventos: 1, resumos: 1 });

    const pedido = pedidos.at(-1)!;
    expect(pedido.contentType).toBe(`application/soap+xml; charset=utf-8; action="${WSDL}/nfeDistDFeInteresse"`);
    expect(pedido.body).toMatch(/^<\?xml version="1.0" encoding="utf-8"\?><soap12:Envelope [^>]*xmlns:soap12="http:\/\/www.w3.org\/2003\/05\/soap-envelope"/);
    expect(pedido.body).toContain(
      `<soap12:Body><nfeDistDFeInteresse xmlns="${WSDL}"><nfeDadosMsg><distDFeInt versao="1.01" xmlns="http://www.portalfiscal.inf.br/nfe"><tpAmb>2</tpAmb><cUFAutor>17</cUFAutor>`,
    );
    expect(pedido.body).toContain('</distDFeInt></nfeDadosMsg></nfeDistDFeInteresse></soap12:Body></soap12:Envelope>');
    // Over mutual TLS, with the platform's e-CNPJ.
    expect(pedido.cliente).toContain('PLAC FAT-E');

    expect(await fatePorChave(nota.chave)).toMatchObject({ status: 'ATIVA', uf: UF, duplicatas: [{ numero: '001', valor: 42000 }] });
    expect(await fatePorChave(cancelada.chave)).toMatchObject({ status: 'CANCELADA' });
    expect(await resumoPorChave(resumo)).toMatchObject({ chave: resumo });
    // The answer's ultNSU is the stream's cursor, and the monitoring shows the answer.
    expect(await resumoProcessamentoDa(UF)).toMatchObject({ cStat: '138', ultNSU: r.ultNSU, nsuMax: r.ultNSU });
  });

  it('records a SOAP Fault as the Sefaz’s refusal, with the fault’s text, and moves no cursor', async () => {
    const antes = await resumoProcessamentoDa(UF);
    modo = 'falha';
    const r = await carregarUf(UF, { esperaEmDiaMs: 0 });
    expect(r).toMatchObject({ situacao: 'recusada', cStat: CSTAT_FALHA_SOAP, fate: 0 });
    const depois = await resumoProcessamentoDa(UF);
    expect(depois).toMatchObject({ cStat: CSTAT_FALHA_SOAP, ultNSU: antes!.ultNSU, xMotivo: expect.stringContaining('soap:Receiver: Server was unable to process request') });
  });
});
