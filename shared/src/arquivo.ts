/**
 * The evidence archive's tables (issue 41, docs/arquivo.md): what the archive job writes to S3 as
 * Parquet, what the Glue tables declare and what the SQL of docs/arquivo.md reads, from this one
 * description. Plain data, so the functions (writing), the CDK app (Glue) and the tests (DuckDB) share it.
 *
 * Layout in the archive bucket: `<tabela>/mes=<YYYY-MM>/cliente=<clienteId>/parte-<00000>.parquet`
 * (Hive-style partitions: Athena projects them, DuckDB reads them with hive_partitioning), and one
 * manifest per client and month, `manifestos/mes=<YYYY-MM>/cliente=<clienteId>.json`.
 */

/** A column's type: the Parquet physical/logical type written, and the Glue (Hive) type declared. */
export type TipoColuna = 'string' | 'int' | 'bigint' | 'timestamp';

export interface Coluna {
  readonly nome: string;
  readonly tipo: TipoColuna;
  /** May be null (a delivery never tried, an invoice without lines). */
  readonly nulo?: boolean;
  readonly descricao: string;
}

export interface TabelaArquivo {
  /** The Glue table's name and the first segment of its objects' keys. */
  readonly nome: string;
  readonly descricao: string;
  readonly colunas: readonly Coluna[];
}

/** The partition columns of every table, in the keys' order: both strings. */
export const PARTICOES = [
  { nome: 'mes', descricao: "O mês, 'YYYY-MM' (America/Bahia)." },
  { nome: 'cliente', descricao: 'O id do cliente.' },
] as const;

export const TABELAS_ARQUIVO = {
  requisicoes: {
    nome: 'requisicoes',
    descricao: 'Cada requisição cobrada do mês (o log de requisições): o que a fatura mensal precificou.',
    colunas: [
      { nome: 'request_id', tipo: 'string', descricao: 'A chave de idempotência do cliente ou o id da requisição.' },
      { nome: 'servico', tipo: 'int', descricao: 'O serviço (idModuloServico).' },
      { nome: 'uf', tipo: 'string', descricao: 'A UF de origem do documento.' },
      { nome: 'chave', tipo: 'string', descricao: 'A chave de acesso consultada, ou a linha do lote.' },
      { nome: 'criado_em', tipo: 'timestamp', descricao: 'O instante da cobrança (UTC).' },
    ],
  },
  entregasWebhook: {
    nome: 'entregas_webhook',
    descricao: "As entregas de webhook cobradas no mês ('Envio de Fat-e', serviço 9): o que foi enviado, quando e a resposta.",
    colunas: [
      { nome: 'delivery_id', tipo: 'string', descricao: 'O id da entrega.' },
      { nome: 'operacao', tipo: 'string', descricao: 'ESCR_FAT ou TRANSPORTE_FAT.' },
      { nome: 'chave', tipo: 'string', descricao: 'A chave de acesso da Fat-e enviada.' },
      { nome: 'uf', tipo: 'string', descricao: 'A UF da Fat-e.' },
      { nome: 'criada_em', tipo: 'timestamp', descricao: 'Quando a entrega foi criada (UTC).' },
      { nome: 'cobrada_em', tipo: 'timestamp', descricao: 'Quando foi entregue e cobrada (UTC).' },
      { nome: 'situacao', tipo: 'string', descricao: 'A situação da entrega quando arquivada.' },
      { nome: 'tentativas', tipo: 'int', descricao: 'Quantas tentativas foram feitas.' },
      { nome: 'ultima_tentativa', tipo: 'timestamp', nulo: true, descricao: 'A última tentativa (UTC).' },
      { nome: 'ultimo_status', tipo: 'string', nulo: true, descricao: 'A resposta da última tentativa.' },
      { nome: 'url', tipo: 'string', descricao: 'O endereço para onde foi enviada.' },
      { nome: 'corpo', tipo: 'string', descricao: 'O JSON enviado, como enviado.' },
    ],
  },
  debitosPrepagos: {
    nome: 'debitos_prepagos',
    descricao: 'Os débitos do pré-pago no mês: cada uso pago pelo saldo (PREPAGO) ou faturado por falta dele (EXCEDENTE).',
    colunas: [
      { nome: 'chave', tipo: 'string', descricao: 'A chave do uso (a mesma de sua medição).' },
      { nome: 'servico', tipo: 'int', descricao: 'O serviço.' },
      { nome: 'resultado', tipo: 'string', descricao: 'PREPAGO ou EXCEDENTE.' },
      { nome: 'valor_milesimos', tipo: 'bigint', descricao: 'O valor unitário, em milésimos de real.' },
      { nome: 'criado_em', tipo: 'timestamp', descricao: 'O instante do débito (UTC).' },
    ],
  },
  itensFatura: {
    nome: 'itens_fatura',
    descricao: 'A fatura do mês como emitida: uma linha por serviço e UF (uma linha sem serviço quando só há a assinatura mínima).',
    colunas: [
      { nome: 'fatura_id', tipo: 'string', descricao: 'O id da fatura.' },
      { nome: 'revisao', tipo: 'int', descricao: 'A revisão dos preços da fatura.' },
      { nome: 'emitida_em', tipo: 'timestamp', descricao: 'Quando foi emitida (UTC).' },
      { nome: 'servico', tipo: 'int', nulo: true, descricao: 'O serviço.' },
      { nome: 'descricao', tipo: 'string', nulo: true, descricao: 'A descrição do serviço na emissão.' },
      { nome: 'uf', tipo: 'string', nulo: true, descricao: 'A UF.' },
      { nome: 'requisicoes', tipo: 'bigint', descricao: 'As requisições faturadas.' },
      { nome: 'valor_unitario_milesimos', tipo: 'bigint', descricao: 'O valor unitário, em milésimos de real.' },
      { nome: 'valor_centavos', tipo: 'bigint', descricao: 'O valor da linha, em centavos.' },
      { nome: 'valor_servicos_centavos', tipo: 'bigint', descricao: 'A soma das linhas da fatura, em centavos.' },
      { nome: 'valor_assinatura_centavos', tipo: 'bigint', descricao: 'O que a assinatura mínima acrescenta, em centavos.' },
      { nome: 'valor_total_centavos', tipo: 'bigint', descricao: 'O total da fatura, em centavos.' },
    ],
  },
} as const satisfies Record<string, TabelaArquivo>;

export type TipoArquivo = keyof typeof TABELAS_ARQUIVO;
export const TIPOS_ARQUIVO = Object.keys(TABELAS_ARQUIVO) as TipoArquivo[];

/** The Glue database the tables are in (Athena: `plac_arquivo.requisicoes`). */
export const BANCO_ARQUIVO = 'plac_arquivo';

/** The first month the archive can hold (partition projection's range starts here). */
export const PRIMEIRO_MES_ARQUIVO = '2024-01';

/** `<tabela>/mes=<m>/cliente=<c>/`: the prefix of one client's month of one table. */
export const prefixoDaParticao = (tabela: string, mes: string, clienteId: string) => `${tabela}/mes=${mes}/cliente=${clienteId}/`;

/** The key of a part file (parts numbered from 0, five digits: 100,000 parts of up to 50,000 rows each). */
export const chaveDaParte = (tabela: string, mes: string, clienteId: string, parte: number) =>
  `${prefixoDaParticao(tabela, mes, clienteId)}parte-${String(parte).padStart(5, '0')}.parquet`;

export const chaveDoManifesto = (mes: string, clienteId: string) => `manifestos/mes=${mes}/cliente=${clienteId}.json`;

/**
 * How long the archive keeps an object: five years (CTN art. 173 and 174, 365.25-day years) and a
 * month, the life of what backs an invoice (functions/platform/retencao.ts DIAS_FISCAIS).
 */
export const DIAS_NO_ARQUIVO = Math.ceil(5 * 365.25) + 31;
