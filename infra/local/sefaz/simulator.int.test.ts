import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../emulators/ports';
import { ensureTestIcp, type TestCertificateFiles } from '../emulators/test-pki';
import { ensureLocalPki, type LocalPki } from '../emulators/tls';
import { MAX_DOCS_PER_ANSWER, padNsu, SEFAZ_CLIENT_COMPANY, startSefazSimulator, type SefazSimulator } from './simulator';


interface Answer {
  cStat: string;
  xMotivo: string;
  ultNSU: string;
  maxNSU: string;
  docs: { nsu: string; schema: string; xml: Buffer }[];
}

/** The two distribution services of the simulator: path, XML namespace, and the SOAP 1.2 binding of their WSDLs. */
const NFE = { service: 'NFeDistribuicaoDFe', namespace: 'http://www.portalfiscal.inf.br/nfe', operation: 'nfeDistDFeInteresse', dadosMsg: 'nfeDadosMsg' };
const CTE = { service: 'CTeDistribuicaoDFe', namespace: 'http://www.portalfiscal.inf.br/cte', operation: 'cteDistDFeInteresse', dadosMsg: 'cteDadosMsg' };
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, isArray: (name) => name === 'docZip' });
const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope';
type Service = typeof NFE;
const wsdlOf = (s: Service) => `${s.namespace}/wsdl/${s.service}`;
const soapType = (s: Service) => `application/soap+xml; charset=utf-8; action="${wsdlOf(s)}/${s.operation}"`;
/** The request as sped-nfe, ACBr or PyNFe send it. */
const inEnvelope = (s: Service, dist: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap12:Envelope xmlns:soap12="${SOAP12}"><soap12:Body><${s.operation} xmlns="${wsdlOf(s)}"><${s.dadosMsg}>${dist}</${s.dadosMsg}></${s.operation}></soap12:Body></soap12:Envelope>`;
const envelopeParser = new XMLParser({ removeNSPrefix: true, ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, isArray: (name) => name === 'docZip' });

/** A caller of a running simulator (read lazily: the port and certificates exist after beforeAll). */
function simulatorClient(peer: () => { port: number; pki: LocalPki; client: TestCertificateFiles }, defaults: Service) {
  const post = (path: string, body: string, withCertificate = true, contentType = soapType(defaults)) =>
    new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const { port, pki, client } = peer();
      const req = request(
        {
          host: 'localhost',
          port,
          path,
          method: 'POST',
          ca: pki.caCertPem,
          ...(withCertificate ? { cert: client.certPem, key: client.keyPem } : {}),
          headers: { 'content-type': contentType },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  const distRequest = (ultNSU: number, service: Service = defaults) =>
    `<distDFeInt versao="1.01" xmlns="${service.namespace}"><tpAmb>2</tpAmb><cUFAutor>29</cUFAutor>` +
    `<CNPJ>${SEFAZ_CLIENT_COMPANY.cnpj}</CNPJ><distNSU><ultNSU>${padNsu(ultNSU)}</ultNSU></distNSU></distDFeInt>`;

  const ask = async (uf: string, ultNSU: number, service: Service = defaults): Promise<Answer & { xmlns: string }> => {
    const res = await post(`/${uf}/${service.service}`, inEnvelope(service, distRequest(ultNSU, service)), true, soapType(service));
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^application\/soap\+xml/);
    const body = (envelopeParser.parse(res.body) as { Envelope: { Body: Record<string, Record<string, Record<string, unknown>>> } }).Envelope.Body;
    expect(body[`${service.operation}Response`]![`${service.operation}Result`]!.retDistDFeInt).toBeDefined();
    // The retDistDFeInt itself, read with its namespace declaration.
    const inner = /<retDistDFeInt[\s\S]*<\/retDistDFeInt>/.exec(res.body)![0];
    const ret = (parser.parse(inner) as { retDistDFeInt: Record<string, unknown> }).retDistDFeInt;
    const lote = ret.loteDistDFeInt as { docZip: Record<string, string>[] } | undefined;
    return {
      xmlns: ret['@_xmlns'] as string,
      cStat: ret.cStat as string,
      xMotivo: ret.xMotivo as string,
      ultNSU: ret.ultNSU as string,
      maxNSU: ret.maxNSU as string,
      docs: (lote?.docZip ?? []).map((d) => ({ nsu: d['@_NSU']!, schema: d['@_schema']!, xml: gunzipSync(Buffer.from(d['#text']!, 'base64')) })),
    };
  };
  return { post, distRequest, ask };
}

describe('Sefaz distribution simulator', () => {
  let dataDir: string;
  let pki: LocalPki;
  let client: TestCertificateFiles;
  let simulator: SefazSimulator;
  let port: number;
  let spFirst: Answer['docs'];
  let tls: { key: string; cert: string; ca: string[] };

  const { post, distRequest, ask } = simulatorClient(() => ({ port, pki, client }), NFE);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'plac-sefaz-'));
    pki = await ensureLocalPki(dataDir);
    const icp = await ensureTestIcp(dataDir, [SEFAZ_CLIENT_COMPANY]);
    client = icp.certificates[SEFAZ_CLIENT_COMPANY.cnpj]!;
    port = await freePort();
    tls = { key: pki.serverKeyPem, cert: pki.serverCertPem, ca: [pki.caCertPem, icp.rootPem, icp.intermediatePem] };
    simulator = await startSefazSimulator({
      port,
      dataDir,
      seed: 7,
      ufs: ['BA', 'SP', 'RS'],
      backlog: 120,
      tls,
      faults: { RS: '656' },
      trickle: false,
    });
  });
  afterAll(async () => {
    await simulator?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves every NSU exactly once, in order, in batches of at most 50, until ultNSU reaches maxNSU', async () => {
    const seen: string[] = [];
    let ult = 0;
    for (let round = 0; round < 10; round++) {
      const answer = await ask('BA', ult);
      if (answer.cStat === '137') break;
      expect(answer.cStat).toBe('138');
      expect(answer.xMotivo).toBe('Documento(s) localizado(s)');
      expect(answer.docs.length).toBeLessThanOrEqual(MAX_DOCS_PER_ANSWER);
      expect(answer.ultNSU).toBe(answer.docs.at(-1)!.nsu);
      expect(answer.maxNSU).toBe(padNsu(120));
      for (const doc of answer.docs) {
        expect(doc.nsu).toMatch(/^\d{15}$/);
        expect(doc.xml.toString('utf8')).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><(nfeProc|resNFe|procEventoNFe) /);
      }
      seen.push(...answer.docs.map((d) => d.nsu));
      ult = Number(answer.ultNSU);
    }
    expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => padNsu(i + 1)));
    const last = await ask('BA', 120);
    expect(last).toMatchObject({ cStat: '137', xMotivo: 'Nenhum documento localizado', ultNSU: padNsu(120), maxNSU: padNsu(120), docs: [] });
  });

  it('serves the same documents again for the same NSUs, and new ones when they arrive', async () => {
    const first = await ask('SP', 0);
    spFirst = first.docs;
    expect((await ask('SP', 0)).docs).toEqual(first.docs);
    simulator.addDocuments('SP', 3);
    const fresh = await ask('SP', 120);
    expect(fresh.docs.map((d) => d.nsu)).toEqual([padNsu(121), padNsu(122), padNsu(123)]);
  });

  it('issues the backlog up to its first start, and documents added later when they are added', async () => {
    const emissao = (xml: Buffer) => Date.parse(/<dhEmi>([^<]+)<\/dhEmi>/.exec(xml.toString('utf8'))?.[1] ?? /<dhEvento>([^<]+)</.exec(xml.toString('utf8'))![1]!);
    const backlog = (await ask('BA', 119)).docs[0]!;
    // The 120th of a backlog 17 minutes apart ends within its slot before the start.
    expect(Date.now() - emissao(backlog.xml)).toBeLessThan(20 * 60_000);
    const first = (await ask('BA', 0)).docs[0]!;
    expect(Date.now() - emissao(first.xml)).toBeGreaterThan(119 * 17 * 60_000 - 60_000);
    // SP's three were added by the test before this one, a moment ago.
    const added = (await ask('SP', 120)).docs;
    for (const doc of added) expect(Math.abs(Date.now() - emissao(doc.xml))).toBeLessThan(60_000);
  });

  it('answers in the SOAP 1.2 envelope of the WSDL: Response / Result / retDistDFeInt', async () => {
    const res = await post('/SP/NFeDistribuicaoDFe', inEnvelope(NFE, distRequest(0)));
    expect(res.type).toMatch(/^application\/soap\+xml/);
    expect(res.body).toContain(`xmlns:soap="${SOAP12}"`);
    expect(res.body).toContain(
      '<nfeDistDFeInteresseResponse xmlns="http://www.portalfiscal.inf.br/nfe/wsdl/NFeDistribuicaoDFe"><nfeDistDFeInteresseResult><retDistDFeInt versao="1.01" xmlns="http://www.portalfiscal.inf.br/nfe">',
    );
    expect(res.body).toContain('<cStat>138</cStat>');
  });

  it('refuses what the real web service refuses, with a SOAP 1.2 Fault', async () => {
    const fault = (body: string) => {
      const f = (envelopeParser.parse(body) as { Envelope: { Body: { Fault: { Code: { Value: string }; Reason: { Text: { '#text': string } } } } } }).Envelope.Body.Fault;
      return { code: f.Code.Value, reason: f.Reason.Text['#text'] };
    };
    // A bare distDFeInt, as application/xml: not SOAP 1.2.
    const bare = await post('/SP/NFeDistribuicaoDFe', distRequest(0), true, 'application/xml');
    expect(bare.status).toBe(415);
    expect(fault(bare.body).code).toBe('soap:Sender');
    // A SOAP 1.1 envelope.
    const soap11 = await post('/SP/NFeDistribuicaoDFe', inEnvelope(NFE, distRequest(0)).replace(SOAP12, 'http://schemas.xmlsoap.org/soap/envelope/'));
    expect(soap11.status).toBe(400);
    expect(fault(soap11.body).code).toBe('soap:VersionMismatch');
    // The operation outside the WSDL's namespace, the action of another operation, no nfeDadosMsg.
    const semWsdl = await post('/SP/NFeDistribuicaoDFe', inEnvelope(NFE, distRequest(0)).replace(wsdlOf(NFE), NFE.namespace));
    expect(fault(semWsdl.body)).toMatchObject({ code: 'soap:Sender', reason: expect.stringContaining('nfeDistDFeInteresse') });
    const outraAcao = await post('/SP/NFeDistribuicaoDFe', inEnvelope(NFE, distRequest(0)), true, soapType(CTE));
    expect(fault(outraAcao.body)).toMatchObject({ code: 'soap:Sender', reason: expect.stringContaining('Ação desconhecida') });
    const semDados = await post('/SP/NFeDistribuicaoDFe', inEnvelope(NFE, distRequest(0)).replace(/<\/?nfeDadosMsg>/g, ''));
    expect(fault(semDados.body).reason).toContain('sem nfeDadosMsg');
    // Under the soapFault fault, a well-formed request gets the server's Fault.
    simulator.setFault('SP', 'soapFault');
    const servidor = await post('/SP/NFeDistribuicaoDFe', inEnvelope(NFE, distRequest(0)));
    simulator.setFault('SP', null);
    expect(servidor.status).toBe(500);
    expect(fault(servidor.body)).toMatchObject({ code: 'soap:Receiver', reason: expect.stringContaining('Server was unable to process request') });
  });

  it('answers 656 (Consumo Indevido) under that fault, and serves again once it is cleared', async () => {
    expect(await ask('RS', 0)).toMatchObject({ cStat: '656', xMotivo: 'Rejeição: Consumo Indevido', docs: [] });
    simulator.setFault('RS', null);
    expect((await ask('RS', 0)).cStat).toBe('138');
    simulator.setFault('RS', '9501');
    expect(await ask('RS', 0)).toMatchObject({ cStat: '9501', docs: [] });
    simulator.setFault('RS', null);
  });

  it('serves a dropped file byte-identical as the next NSU, then keeps it under served/', async () => {
    const inbox = join(dataDir, 'sefaz', 'BA', 'inbox');
    // CRLF, a comment and odd spacing: the bytes must come back exactly as they were.
    const xml = Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\r\n<!-- manual -->\r\n<resNFe versao="1.01"  xmlns="http://www.portalfiscal.inf.br/nfe"><chNFe>1</chNFe></resNFe>\r\n');
    await writeFile(join(inbox, 'caso-especial.xml'), xml);
    await writeFile(join(inbox, 'zz-outro.xml'), '<cteProc versao="4.00"/>');
    const answer = await ask('BA', 120);
    expect(answer.docs.map((d) => [d.nsu, d.schema])).toEqual([
      [padNsu(121), 'resNFe_v1.01.xsd'],
      [padNsu(122), 'cteProc'],
    ]);
    expect(answer.docs[0]!.xml.equals(xml)).toBe(true);
    expect(await readdir(inbox)).toEqual([]);
    expect(await readdir(join(dataDir, 'sefaz', 'BA', 'served'))).toEqual([`${padNsu(121)}-caso-especial.xml`, `${padNsu(122)}-zz-outro.xml`]);
  });

  it('spoils one document on the malformed and schema faults', async () => {
    simulator.setFault('BA', 'malformed');
    simulator.setFault('BA', 'schema');
    const answer = await ask('BA', 122);
    expect(answer.docs.map((d) => d.nsu)).toEqual([padNsu(123), padNsu(124)]);
    expect(() => new XMLParser().parse(answer.docs[0]!.xml.toString('utf8'), true)).toThrow();
    expect(answer.docs[1]!.xml.toString('utf8')).not.toContain('<cobr>');
  });

  it('continues the sequence after a restart, where the one-shot faults given at start add nothing again', async () => {
    const sp = simulator.maxNsu('SP');
    await simulator.stop();
    simulator = await startSefazSimulator({
      port,
      dataDir,
      seed: 99, // ignored: the stored seed wins
      ufs: ['BA', 'SP', 'RS'],
      tls,
      trickle: false,
      // The twin gives its demo faults at every start: a stream that exists already is not spoiled again.
      faults: { BA: 'malformed', SP: 'schema' },
    });
    expect(JSON.parse(await readFile(join(dataDir, 'sefaz', 'BA', 'state.json'), 'utf8'))).toMatchObject({ seed: 7, maxNsu: 124 });
    expect(simulator.maxNsu('BA')).toBe(124);
    expect(simulator.maxNsu('SP')).toBe(sp);
    expect((await ask('SP', 0)).docs).toEqual(spFirst);
    expect((await ask('BA', 124)).cStat).toBe('137');
  });

  it('refuses a caller without a client certificate at the TLS handshake', async () => {
    await expect(post('/BA/NFeDistribuicaoDFe', inEnvelope(NFE, distRequest(0)), false)).rejects.toThrow();
  });
});

describe('the twin’s Sefaz simulator', () => {
  it('is reachable with the URL and certificate files the functions receive', async () => {
    // tests/setup/twin.env.ts puts the twin's environment (the functions' one) in process.env.
    const env = process.env;
    const url = new URL(`${env.PLAC_SEFAZ_URL!}/BA/NFeDistribuicaoDFe`);
    const [ca, cert, key] = await Promise.all([env.PLAC_SEFAZ_CA_FILE!, env.PLAC_SEFAZ_CERT_FILE!, env.PLAC_SEFAZ_KEY_FILE!].map((f) => readFile(f, 'utf8')));
    const body = await new Promise<string>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', ca, cert, key, headers: { 'content-type': soapType(NFE) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      });
      req.on('error', reject);
      req.end(inEnvelope(NFE, `<distDFeInt versao="1.01" xmlns="${NFE.namespace}"><distNSU><ultNSU>000000000000000</ultNSU></distNSU></distDFeInt>`));
    });
    expect(body).toContain('<cStat>138</cStat>');
    expect(body).toContain(`<maxNSU>${padNsu(60)}</maxNSU>`);
  });
});

describe('Sefaz distribution simulator, CT-e service (CTeDistribuicaoDFe)', () => {
  let dataDir: string;
  let pki: LocalPki;
  let client: TestCertificateFiles;
  let simulator: SefazSimulator;
  let port: number;
  let tls: { key: string; cert: string; ca: string[] };
  let baFirst: Answer['docs'];

  const { post, distRequest, ask } = simulatorClient(() => ({ port, pki, client }), CTE);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'plac-sefaz-cte-'));
    pki = await ensureLocalPki(dataDir);
    const icp = await ensureTestIcp(dataDir, [SEFAZ_CLIENT_COMPANY]);
    client = icp.certificates[SEFAZ_CLIENT_COMPANY.cnpj]!;
    port = await freePort();
    tls = { key: pki.serverKeyPem, cert: pki.serverCertPem, ca: [pki.caCertPem, icp.rootPem, icp.intermediatePem] };
    simulator = await startSefazSimulator({ port, dataDir, seed: 7, ufs: ['BA', 'MG'], backlog: 20, cteBacklog: 70, tls, trickle: false });
  });
  afterAll(async () => {
    await simulator?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves every CT-e NSU once, in order, in batches of at most 50, in the CT-e namespace, apart from the NF-e', async () => {
    expect(simulator.maxNsu('BA', 'cte')).toBe(70);
    expect(simulator.maxNsu('BA')).toBe(20);
    const seen: string[] = [];
    let ult = 0;
    for (let round = 0; round < 5; round++) {
      const answer = await ask('BA', ult);
      if (answer.cStat === '137') break;
      if (round === 0) baFirst = answer.docs;
      expect(answer).toMatchObject({ xmlns: 'http://www.portalfiscal.inf.br/cte', cStat: '138', maxNSU: padNsu(70) });
      expect(answer.docs.length).toBeLessThanOrEqual(MAX_DOCS_PER_ANSWER);
      expect(answer.ultNSU).toBe(answer.docs.at(-1)!.nsu);
      for (const doc of answer.docs) {
        const root = /^<\?xml version="1.0" encoding="UTF-8"\?><(cteProc|procEventoCTe) /.exec(doc.xml.toString('utf8'))?.[1];
        expect(doc.schema).toBe(root === 'cteProc' ? 'procCTe_v4.00.xsd' : 'procEventoCTe_v4.00.xsd');
      }
      seen.push(...answer.docs.map((d) => d.nsu));
      ult = Number(answer.ultNSU);
    }
    expect(seen).toEqual(Array.from({ length: 70 }, (_, i) => padNsu(i + 1)));
    expect(await ask('BA', 70)).toMatchObject({ cStat: '137', ultNSU: padNsu(70), maxNSU: padNsu(70), docs: [] });
    expect((await ask('BA', 0, NFE)).maxNSU).toBe(padNsu(20));
  });

  it('adds CT-e to the CT-e stream only, and answers inside a SOAP 1.2 envelope when asked in one', async () => {
    simulator.addDocuments('BA', 2, 'cte');
    expect(simulator.maxNsu('BA')).toBe(20);
    const fresh = await ask('BA', 70);
    expect(fresh.docs.map((d) => d.nsu)).toEqual([padNsu(71), padNsu(72)]);
    for (const doc of fresh.docs) expect(Math.abs(Date.now() - Date.parse(/<dh(?:Emi|Evento)>([^<]+)</.exec(doc.xml.toString('utf8'))![1]!))).toBeLessThan(60_000);
    const res = await post('/BA/CTeDistribuicaoDFe', inEnvelope(CTE, distRequest(0)));
    expect(res.type).toMatch(/^application\/soap\+xml/);
    expect(res.body).toContain('<cteDistDFeInteresseResponse xmlns="http://www.portalfiscal.inf.br/cte/wsdl/CTeDistribuicaoDFe"><cteDistDFeInteresseResult><retDistDFeInt versao="1.01" xmlns="http://www.portalfiscal.inf.br/cte">');
    expect(res.body).toContain('<cStat>138</cStat>');
  });

  it('serves a file dropped in cte/inbox byte-identical as the next CT-e NSU, then keeps it under cte/served/', async () => {
    const inbox = join(dataDir, 'sefaz', 'BA', 'cte', 'inbox');
    const proc = Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\r\n<!-- manual -->\r\n<cteProc versao="4.00"  xmlns="http://www.portalfiscal.inf.br/cte"><CTe/></cteProc>\r\n');
    const evento = Buffer.from('<procEventoCTe versao="4.00" xmlns="http://www.portalfiscal.inf.br/cte"/>');
    await writeFile(join(inbox, 'a-cte.xml'), proc);
    await writeFile(join(inbox, 'b-evento.xml'), evento);
    const answer = await ask('BA', 72);
    expect(answer.docs.map((d) => [d.nsu, d.schema])).toEqual([
      [padNsu(73), 'procCTe_v4.00.xsd'],
      [padNsu(74), 'procEventoCTe_v4.00.xsd'],
    ]);
    expect(answer.docs[0]!.xml.equals(proc)).toBe(true);
    expect(answer.docs[1]!.xml.equals(evento)).toBe(true);
    expect(await readdir(inbox)).toEqual([]);
    expect(await readdir(join(dataDir, 'sefaz', 'BA', 'cte', 'served'))).toEqual([`${padNsu(73)}-a-cte.xml`, `${padNsu(74)}-b-evento.xml`]);
    expect(simulator.maxNsu('BA')).toBe(20);
  });

  it('answers 656 and 9501 on both services under the UF’s fault', async () => {
    simulator.setFault('MG', '656');
    for (const service of [CTE, NFE]) {
      expect(await ask('MG', 3, service)).toMatchObject({ cStat: '656', ultNSU: padNsu(3), maxNSU: padNsu(3), docs: [] });
    }
    simulator.setFault('MG', '9501');
    expect(await ask('MG', 0)).toMatchObject({ cStat: '9501', docs: [] });
    simulator.setFault('MG', null);
    expect((await ask('MG', 0)).cStat).toBe('138');
    expect((await ask('MG', 0, NFE)).cStat).toBe('138');
  });

  it('continues the CT-e sequence after a restart, with the stored seed; a new UF holds a fifth of the backlog', async () => {
    await simulator.stop();
    simulator = await startSefazSimulator({ port, dataDir, seed: 99, ufs: ['BA', 'MG', 'SE'], backlog: 10, tls, trickle: false });
    expect(JSON.parse(await readFile(join(dataDir, 'sefaz', 'BA', 'cte', 'state.json'), 'utf8'))).toMatchObject({ seed: 7, maxNsu: 74 });
    expect(simulator.maxNsu('BA', 'cte')).toBe(74);
    expect((await ask('BA', 0)).docs).toEqual(baFirst);
    expect((await ask('BA', 74)).cStat).toBe('137');
    expect(simulator.maxNsu('SE', 'cte')).toBe(2);
    expect(simulator.maxNsu('SE')).toBe(10);
  });
});
