/**
 * SQL over the evidence archive (issue 41, docs/arquivo.md): the Glue database and tables that describe
 * the archive bucket's Parquet files (shared/src/arquivo.ts is their one description), the Athena
 * workgroup that runs queries over them, its results bucket, and the documented queries saved as named
 * queries of that workgroup. Nothing here holds data: the tables are metadata derived from the code, so
 * unlike the buckets they are not retained (a deploy recreates them as the code says).
 *
 * Partitions are projected (no crawler, no MSCK REPAIR, nothing to register when the job writes a month):
 * `mes` is a date range from PRIMEIRO_MES_ARQUIVO to the current month, `cliente` is injected, so every
 * query must name its client (`WHERE cliente = ?`) and reads that client's files only.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import * as athena from 'aws-cdk-lib/aws-athena';
import * as glue from 'aws-cdk-lib/aws-glue';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { BANCO_ARQUIVO, PARTICOES, PRIMEIRO_MES_ARQUIVO, TABELAS_ARQUIVO, type TabelaArquivo, type TipoArquivo } from '@plac/shared/arquivo';
import { Construct } from 'constructs';
import { consultasDoArquivo } from '../consultas-arquivo';
import { bucketPrivado } from './bucket-defaults';

/** The Athena workgroup of the archive's queries (docs/arquivo.md). */
export const WORKGROUP_ARQUIVO = 'plac-arquivo';

/** Athena query results (they carry the archive's data) are kept this long, then expire. */
export const DIAS_RESULTADOS_ATHENA = 7;

/**
 * The most one query may scan: 10 GiB, US$ 0.05 at Athena's US$ 5 per TB. A documented query names its
 * client, so it reads one client's Parquet files (compressed, and only the columns it selects): a large
 * client's five years of request log are a few GB at most. A query that forgets its client is cancelled
 * here instead of scanning every client's archive.
 */
export const LIMITE_BYTES_POR_CONSULTA = 10 * 1024 ** 3;

/** Parquet as Hive (and so Glue and Athena) name its SerDe and formats. */
const PARQUET = {
  serde: 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe',
  inputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat',
  outputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat',
} as const;

export interface ArquivoConsultasProps {
  /** The archive bucket (data stack): the tables' location. */
  readonly arquivo: s3.IBucket;
  /** The access-log bucket and the prefix under which each bucket logs (`<prefix><bucket id>/`). */
  readonly accessLogs: { readonly bucket: s3.IBucket; readonly prefix: string };
}

export class ArquivoConsultas extends Construct {
  /** Athena's query results, expired after DIAS_RESULTADOS_ATHENA days. */
  readonly resultados: s3.Bucket;
  readonly banco: glue.CfnDatabase;
  readonly tabelas: Record<TipoArquivo, glue.CfnTable>;
  readonly workGroup: athena.CfnWorkGroup;
  readonly consultas: athena.CfnNamedQuery[];

  constructor(scope: Construct, id: string, props: ArquivoConsultasProps) {
    super(scope, id);
    const account = Stack.of(this).account;

    // Hardened as every bucket of the app: private, SSE-S3, TLS only, access-logged, retained. Not
    // versioned: a result is written once, read by whoever ran the query, and is worth nothing after.
    this.resultados = new s3.Bucket(this, 'AthenaResultsBucket', {
      ...bucketPrivado('AthenaResultsBucket', props.accessLogs),
      lifecycleRules: [
        {
          // A result holds a client's archived data: kept a week (time to download it), then expired.
          id: 'athena-results',
          expiration: Duration.days(DIAS_RESULTADOS_ATHENA),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
    });

    this.banco = new glue.CfnDatabase(this, 'Banco', {
      catalogId: account,
      databaseInput: { name: BANCO_ARQUIVO, description: 'Arquivo de evidências (issue 41): requisições, entregas de webhook, débitos do pré-pago e faturas, por cliente e mês (docs/arquivo.md).' },
    });

    const tabelas = {} as Record<TipoArquivo, glue.CfnTable>;
    for (const [tipo, tabela] of Object.entries(TABELAS_ARQUIVO) as [TipoArquivo, TabelaArquivo][]) {
      const t = new glue.CfnTable(this, `Tabela-${tabela.nome}`, { catalogId: account, databaseName: BANCO_ARQUIVO, tableInput: tableInput(props.arquivo, tabela) });
      // The database is named by a string, not a reference: CloudFormation must still create it first.
      t.addResourceDependency(this.banco);
      tabelas[tipo] = t;
    }
    this.tabelas = tabelas;

    this.workGroup = new athena.CfnWorkGroup(this, 'WorkGroup', {
      name: WORKGROUP_ARQUIVO,
      description: 'Consultas ao arquivo de evidências (docs/arquivo.md).',
      state: 'ENABLED',
      workGroupConfiguration: {
        // A query cannot choose another result location or turn the encryption or the limit off.
        enforceWorkGroupConfiguration: true,
        publishCloudWatchMetricsEnabled: true,
        bytesScannedCutoffPerQuery: LIMITE_BYTES_POR_CONSULTA,
        // Pinned, not AUTO: the SQL of docs/arquivo.md is written for engine 3 (Trino's dialect, which the
        // tests' DuckDB run shares for these queries); an upgrade is a change to review, not a surprise.
        engineVersion: { selectedEngineVersion: 'Athena engine version 3' },
        resultConfiguration: {
          outputLocation: `s3://${this.resultados.bucketName}/`,
          encryptionConfiguration: { encryptionOption: 'SSE_S3' },
          // Results are written only to this account's bucket, never to a bucket of the same name elsewhere.
          expectedBucketOwner: account,
        },
      },
    });

    // docs/arquivo.md is the queries' one source: each ```sql block, named by its ### heading.
    this.consultas = consultasDoArquivo().map((consulta, i) => {
      const named = new athena.CfnNamedQuery(this, `Consulta${i + 1}`, {
        name: consulta.titulo,
        description: 'Consulta documentada em docs/arquivo.md: os ? são seus parâmetros, em ordem.',
        database: BANCO_ARQUIVO,
        workGroup: this.workGroup.ref,
        queryString: consulta.sql,
      });
      named.addResourceDependency(this.banco);
      return named;
    });
  }
}

/**
 * One table of shared/src/arquivo.ts: external (dropping it leaves the files), Parquet, its columns with
 * their descriptions, partitioned by PARTICOES as the job's keys are (`<tabela>/mes=…/cliente=…/`), and
 * those partitions projected.
 */
function tableInput(bucket: s3.IBucket, tabela: TabelaArquivo): glue.CfnTable.TableInputProperty {
  const raiz = `s3://${bucket.bucketName}/${tabela.nome}/`;
  return {
    name: tabela.nome,
    description: tabela.descricao,
    tableType: 'EXTERNAL_TABLE',
    parameters: {
      EXTERNAL: 'TRUE',
      classification: 'parquet',
      'projection.enabled': 'true',
      // mes: every month from the archive's first to the current one ('YYYY-MM', as the keys write it).
      'projection.mes.type': 'date',
      'projection.mes.format': 'yyyy-MM',
      'projection.mes.range': `${PRIMEIRO_MES_ARQUIVO},NOW`,
      'projection.mes.interval': '1',
      'projection.mes.interval.unit': 'MONTHS',
      // cliente: too many to enumerate; the query's WHERE supplies it (and must).
      'projection.cliente.type': 'injected',
      // A literal Athena template (${mes}, ${cliente}), not a CloudFormation substitution.
      'storage.location.template': `${raiz}mes=\${mes}/cliente=\${cliente}/`,
    },
    partitionKeys: PARTICOES.map((p) => ({ name: p.nome, type: 'string', comment: p.descricao })),
    storageDescriptor: {
      location: raiz,
      inputFormat: PARQUET.inputFormat,
      outputFormat: PARQUET.outputFormat,
      serdeInfo: { serializationLibrary: PARQUET.serde, parameters: { 'serialization.format': '1' } },
      // TipoColuna's names are Hive's: string, int, bigint, timestamp.
      columns: tabela.colunas.map((c) => ({ name: c.nome, type: c.tipo, comment: c.descricao })),
    },
  };
}
