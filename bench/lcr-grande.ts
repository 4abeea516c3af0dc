/**
 * A CRL of an ICP-Brasil CA's size for the bench (issue 39): the twin's test CA's CRL (the revoked test
 * certificate) with `entradas` more serial numbers, signed again by the test CA. @peculiar/x509's
 * generator takes about a second per thousand entries, so the entries are spliced into the DER of the
 * CRL it issues (RFC 5280 §5.1: revokedCertificates is a SEQUENCE OF { userCertificate INTEGER,
 * revocationDate Time }) and the tbsCertList signed with node:crypto, as the CA's software would.
 */
import { randomBytes, sign } from 'node:crypto';
import { issueTestCrl, type CertificatePair } from '../infra/local/emulators/test-pki';

interface Tlv {
  tag: number;
  /** The whole TLV's bytes, and where its content starts and ends within `der`. */
  inicio: number;
  conteudo: number;
  fim: number;
}

function ler(der: Uint8Array, inicio: number): Tlv {
  const tag = der[inicio]!;
  let comprimento = der[inicio + 1]!;
  let conteudo = inicio + 2;
  if (comprimento & 0x80) {
    const bytes = comprimento & 0x7f;
    comprimento = 0;
    for (let i = 0; i < bytes; i++) comprimento = comprimento * 256 + der[conteudo + i]!;
    conteudo += bytes;
  }
  return { tag, inicio, conteudo, fim: conteudo + comprimento };
}

function filhos(der: Uint8Array, pai: Tlv): Tlv[] {
  const lista: Tlv[] = [];
  for (let at = pai.conteudo; at < pai.fim; at = lista[lista.length - 1]!.fim) lista.push(ler(der, at));
  return lista;
}

function tlv(tag: number, conteudo: Buffer): Buffer {
  const n = conteudo.length;
  const comprimento = n < 0x80 ? Buffer.from([n]) : (() => {
    const bytes: number[] = [];
    for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
    return Buffer.from([0x80 | bytes.length, ...bytes]);
  })();
  return Buffer.concat([Buffer.from([tag]), comprimento, conteudo]);
}

const bytes = (der: Uint8Array, t: Tlv) => Buffer.from(der.subarray(t.inicio, t.fim));

/** The test CA's CRL listing `revogados` and `entradas` random serial numbers more (DER). */
export async function lcrDeTamanhoReal(ca: CertificatePair, revogados: string[], entradas: number): Promise<Uint8Array> {
  const der = await issueTestCrl(ca, { revoked: revogados });
  const [tbs, algoritmo] = filhos(der, ler(der, 0)) as [Tlv, Tlv];
  const partes = filhos(der, tbs);
  const lista = partes.find((p) => p.tag === 0x30 && partes.indexOf(p) > 2)!;
  const data = bytes(der, partes[3]!); // thisUpdate: each entry's revocationDate
  const novas = Array.from({ length: entradas }, () => {
    const serial = randomBytes(16);
    serial[0] = serial[0]! & 0x7f || 0x01; // positive, no leading zero byte
    return tlv(0x30, Buffer.concat([tlv(0x02, serial), data]));
  });
  const listaNova = tlv(0x30, Buffer.concat([Buffer.from(der.subarray(lista.conteudo, lista.fim)), ...novas]));
  const tbsNovo = tlv(0x30, Buffer.concat(partes.map((p) => (p === lista ? listaNova : bytes(der, p)))));
  // sha256WithRSAEncryption or ecdsa-with-SHA256: node:crypto signs either with the key's own scheme (ECDSA in DER, as X.509 wants).
  const assinatura = sign('sha256', tbsNovo, ca.keyPem);
  return tlv(0x30, Buffer.concat([tbsNovo, bytes(der, algoritmo), tlv(0x03, Buffer.concat([Buffer.from([0]), assinatura]))]));
}
