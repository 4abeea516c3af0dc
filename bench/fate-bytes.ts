/**
 * `npx tsx bench/fate-bytes.ts`: the bytes a Fat-e takes in the table, by DynamoDB's item-size rule
 * (attribute names and values in UTF-8, numbers about one byte per two digits, 3 bytes per list or map
 * and 1 per element), for Fat-e of 1, 3 and 12 instalments, as the store writes them (ElectroDB's
 * params, keys and identifiers included): the Fat-e item, each instalment item and its index copy (gsi3,
 * which holds the keys only: the table's two and its own two), and the issuer and carrier links; and, as
 * before issue 38 narrowed it, the instalment's whole copy in gsi2 (which projects ALL). DynamoDB adds
 * 100 bytes to each item and each index entry on top. docs/data-model.md ("Retention") quotes it.
 */
import { nfeXml } from '../functions/fate/fixtures/builder';
import { parseDocumento } from '../functions/fate/parse';
import type { FateRecord } from '../functions/fate/store-entities';
import { escrito, itemBytes, itemEscrito } from './item-bytes';

process.env.TABLE_NAME ??= 'plac-bench';
process.env.AWS_REGION ??= 'us-east-1';
const store = await import('../functions/fate/store-entities');

const resultados = [];
for (const n of [1, 3, 12]) {
  const duplicatas = Array.from({ length: n }, (_, i) => [String(i + 1).padStart(3, '0'), `2026-${String((i % 12) + 1).padStart(2, '0')}-10`, '100.00'] as [string, string, string]);
  const xml = nfeXml({ numero: 4242, transportador: '11222333000181', duplicatas, vNF: (n * 100).toFixed(2), vLiq: (n * 100).toFixed(2) }).xml;
  const doc = parseDocumento({ schema: 'procNFe_v4.00.xsd', xml });
  if (doc.kind !== 'nfe') throw new Error(`unexpected ${doc.kind}`);
  const agora = new Date().toISOString();
  const expiresAt = store.expiraEm(doc.emissao);
  const destinatarioDoc = doc.destinatario.cnpj ?? doc.destinatario.cpf ?? '';
  const fate: FateRecord = {
    chave: doc.chave, status: 'ATIVA', uf: 'SP', nsu: '000000012345678', modelo: doc.modelo, serie: doc.serie, numero: doc.numero, emissao: doc.emissao,
    protocolo: doc.protocolo, emitenteCnpj: doc.emitente.cnpj, emitenteNome: doc.emitente.nome, emitenteUf: doc.emitente.uf, destinatarioDoc,
    destinatarioTipo: 'CNPJ', destinatarioNome: doc.destinatario.nome, destinatarioUf: doc.destinatario.uf, valorNota: doc.valorNota,
    transportadorDoc: '11222333000181', transportadorNome: 'TRANSPORTES TESTE LTDA', faturaNumero: doc.fatura.numero, valorOriginal: doc.fatura.valorOriginal,
    desconto: doc.fatura.desconto, valorLiquido: doc.fatura.valorLiquido, duplicatas: doc.duplicatas.map((d) => ({ numero: d.numero, vencimento: d.vencimento, valor: d.valor })),
    xmlKey: 'sefaz/SP/000000012345678.xml.gz', publicadoEm: agora, contagem: 'ATIVA', expiresAt, createdAt: agora, updatedAt: agora,
  };
  const e = store.fateService().entities;
  const registroParcela = { ...doc.duplicatas[0]!, emitenteCnpj: fate.emitenteCnpj, destinatarioDoc, chave: fate.chave, status: 'ATIVA' as const, uf: 'SP', expiresAt, createdAt: agora, updatedAt: agora };
  const parcela = escrito(e.fateDuplicata, registroParcela);
  const itemParcela = itemEscrito(e.fateDuplicata, registroParcela);
  // gsi3 projects KEYS_ONLY: the entry holds the table's keys and the index's.
  const copiaParcela = itemBytes(Object.fromEntries(['pk', 'sk', 'gsi3pk', 'gsi3sk'].map((k) => [k, itemParcela[k]])));
  // Before: the item carried gsi2 keys, and gsi2 (ALL) copied it whole.
  const parcelaAntes = escrito(store.fateLegado().entities.fateDuplicataGsi2, registroParcela);
  const links =
    escrito(e.fateDoEmitente, { emitenteCnpj: fate.emitenteCnpj, emissao: fate.emissao, chave: fate.chave, modelo: fate.modelo, expiresAt }) +
    escrito(e.fateDoTransportador, { transportadorDoc: fate.transportadorDoc, shard: 0, emissao: fate.emissao, chave: fate.chave, expiresAt });
  const fateItem = escrito(e.fate, fate);
  resultados.push({
    parcelas: n,
    fate: fateItem,
    parcela,
    copiaParcela,
    links,
    total: fateItem + n * (parcela + copiaParcela) + links,
    antes: fateItem + 2 * n * parcelaAntes + links,
    // DynamoDB's own 100 B per item and index entry: the Fat-e, each instalment and its entry, the two links.
    totalComSobrecarga: fateItem + n * (parcela + copiaParcela) + links + 100 * (1 + 2 * n + 2),
  });
}
console.log(JSON.stringify(resultados, null, 2));
