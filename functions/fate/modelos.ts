/** The Fat-e's item, its ElectroDB model: plain data, so paths without the table layer read it too (tabela-direta.ts). */

export const STATUS = ['ATIVA', 'CANCELADA'] as const;

export const MODELO_FATE = {
  model: { entity: 'fate', version: '1', service: 'fate' },
  attributes: {
    chave: { type: 'string', required: true },
    status: { type: STATUS, required: true },
    /** The UF whose distribution delivered it, and the NSU there. */
    uf: { type: 'string', required: true },
    nsu: { type: 'string', required: true },
    modelo: { type: 'string', required: true },
    serie: { type: 'string', required: true },
    numero: { type: 'string', required: true },
    /** ISO-8601 UTC instant. */
    emissao: { type: 'string', required: true },
    protocolo: { type: 'string' },
    /** ISO-8601 UTC instant the Sefaz authorised it (protNFe dhRecbto); absent on Fat-e stored before it was kept. */
    autorizadaEm: { type: 'string' },
    emitenteCnpj: { type: 'string', required: true },
    emitenteNome: { type: 'string', required: true },
    emitenteUf: { type: 'string', required: true },
    /** The recipient's CNPJ or CPF (the tipo says which). */
    destinatarioDoc: { type: 'string', required: true },
    destinatarioTipo: { type: ['CNPJ', 'CPF'] as const, required: true },
    destinatarioNome: { type: 'string', required: true },
    destinatarioUf: { type: 'string' },
    /** Centavos. */
    valorNota: { type: 'number', required: true },
    /** The carrier's CNPJ or CPF, when the NF-e names one (transport look-ups and carrier consent). */
    transportadorDoc: { type: 'string' },
    transportadorNome: { type: 'string' },
    faturaNumero: { type: 'string' },
    valorOriginal: { type: 'number', required: true },
    desconto: { type: 'number', required: true },
    valorLiquido: { type: 'number', required: true },
    duplicatas: {
      type: 'list',
      required: true,
      items: {
        type: 'map',
        properties: {
          numero: { type: 'string', required: true },
          vencimento: { type: 'string', required: true },
          valor: { type: 'number', required: true },
        },
      },
    },
    /** The document's XML in the documents bucket (gzip). */
    xmlKey: { type: 'string', required: true },
    canceladaEm: { type: 'string' },
    protocoloCancelamento: { type: 'string' },
    /** When its domain event went to the documents queue (absent: not yet; a repeated load publishes it). */
    publicadoEm: { type: 'string' },
    /**
     * What the counters and links hold of this Fat-e (`contabilizar`): absent = nothing yet, ATIVA =
     * counted as active and linked, CANCELADA = linked and no longer counted as active. Moved only by
     * the counting transaction, on the condition that it still holds the value read.
     */
    contagem: { type: STATUS },
    /** The day (Bahia) of the load history that counts this document (`contarNoHistorico`): set once, with the count. */
    contadoEm: { type: 'string' },
    /** TTL (epoch seconds): five years after emission the Fat-e expires (docs/data-model.md, "Retention"). */
    expiresAt: { type: 'number' },
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
  },
  indexes: {
    byChave: { pk: { field: 'pk', composite: ['chave'] }, sk: { field: 'sk', composite: [] } },
  },
} as const;
