/**
 * The evidence archive's infrastructure (issue 41): the archive bucket's lifecycle, the Glue tables as
 * shared/src/arquivo.ts describes them, the Athena workgroup and the named queries of docs/arquivo.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BANCO_ARQUIVO, DIAS_NO_ARQUIVO, PRIMEIRO_MES_ARQUIVO, TABELAS_ARQUIVO } from '@plac/shared/arquivo';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../lib/paths';
import { arquivoBucket } from '../lib/topology';
import { logicalIdOf, resources, synth, type Resource } from './synth';

/** A CloudFormation string (Fn::Join of literals and Refs) as text, each Ref as `{<logical id>}`. */
function texto(value: unknown): string {
  if (typeof value === 'string') return value;
  const v = value as Record<string, unknown>;
  if (typeof v.Ref === 'string') return `{${v.Ref}}`;
  const join = v['Fn::Join'] as [string, unknown[]] | undefined;
  if (join) return join[1].map(texto).join(join[0]);
  throw new Error(`not a string: ${JSON.stringify(value)}`);
}

type TableInput = {
  Name: string;
  TableType: string;
  Parameters: Record<string, string>;
  PartitionKeys: { Name: string; Type: string; Comment?: string }[];
  StorageDescriptor: {
    Location: unknown;
    InputFormat: string;
    OutputFormat: string;
    SerdeInfo: { SerializationLibrary: string };
    Columns: { Name: string; Type: string; Comment?: string }[];
  };
};

describe('evidence archive', () => {
  const { data } = synth();
  const bucketId = logicalIdOf(data, `PlacData/${arquivoBucket.id}/Resource`);
  const resultsId = logicalIdOf(data, 'PlacData/ArquivoConsultas/AthenaResultsBucket/Resource');
  const bucket = (id: string) => resources(data, 'AWS::S3::Bucket')[id]!;
  const rules = (id: string) => (bucket(id).Properties!.LifecycleConfiguration as { Rules: Record<string, unknown>[] }).Rules;

  it.each([
    ['archive', () => bucketId, arquivoBucket.id],
    ['Athena results', () => resultsId, 'AthenaResultsBucket'],
  ])('keeps the %s bucket private, encrypted, SSL-only, access-logged and retained', (_, id, logId) => {
    const b = bucket(id());
    expect(b.DeletionPolicy).toBe('Retain');
    expect(b.UpdateReplacePolicy).toBe('Retain');
    expect(b.Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      LoggingConfiguration: { DestinationBucketName: { Ref: logicalIdOf(data, 'PlacData/AccessLogsBucket/Resource') }, LogFilePrefix: `s3/${logId}/` },
    });
    data.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: id() },
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
  });

  it('expires the archive after DIAS_NO_ARQUIVO days and moves objects of 128 KiB and more to Glacier IR after 30', () => {
    expect(DIAS_NO_ARQUIVO).toBe(1858);
    expect(bucket(bucketId).Properties).toMatchObject({ VersioningConfiguration: { Status: 'Enabled' } });
    const all = rules(bucketId);
    expect(all).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          ExpirationInDays: DIAS_NO_ARQUIVO,
          AbortIncompleteMultipartUpload: { DaysAfterInitiation: 7 },
          NoncurrentVersionExpiration: { NoncurrentDays: 90 },
          Status: 'Enabled',
        }),
        expect.objectContaining({ ExpiredObjectDeleteMarker: true, Status: 'Enabled' }),
      ]),
    );
    // S3's size filter is "greater than": 131071 means 128 KiB and more. No prefix: every table and manifest.
    const transitions = all.filter((r) => r.Transitions !== undefined);
    expect(transitions).toEqual([
      { Id: 'arquivo-glacier-ir', ObjectSizeGreaterThan: 131_071, Transitions: [{ StorageClass: 'GLACIER_IR', TransitionInDays: 30 }], Status: 'Enabled' },
    ]);
    // Nothing in the archive expires earlier than five years and a month.
    for (const r of all) if (r.ExpirationInDays !== undefined) expect(r.ExpirationInDays).toBeGreaterThanOrEqual(DIAS_NO_ARQUIVO);
  });

  it("expires Athena's results after a week", () => {
    expect(rules(resultsId)).toEqual([expect.objectContaining({ ExpirationInDays: 7, Status: 'Enabled' })]);
  });

  it('declares the Glue database and one Parquet table per table of shared/src/arquivo.ts, with exactly its columns and types', () => {
    const databases = resources(data, 'AWS::Glue::Database');
    expect(Object.values(databases).map((d) => (d.Properties!.DatabaseInput as { Name: string }).Name)).toEqual([BANCO_ARQUIVO]);
    const databaseId = Object.keys(databases)[0]!;

    const tables = Object.values(resources(data, 'AWS::Glue::Table'));
    const tabelas = Object.values(TABELAS_ARQUIVO);
    expect(tables.map((t) => (t.Properties!.TableInput as TableInput).Name).sort()).toEqual(tabelas.map((t) => t.nome).sort());
    for (const tabela of tabelas) {
      const table = tables.find((t) => (t.Properties!.TableInput as TableInput).Name === tabela.nome)!;
      expect(table.Properties!.DatabaseName).toBe(BANCO_ARQUIVO);
      // Named by a string: only DependsOn makes CloudFormation create the database first.
      expect(table.DependsOn).toContain(databaseId);
      const input = table.Properties!.TableInput as TableInput;
      expect(input.TableType).toBe('EXTERNAL_TABLE');
      expect(input.StorageDescriptor.Columns).toEqual(tabela.colunas.map((c) => ({ Name: c.nome, Type: c.tipo, Comment: c.descricao })));
      expect(input.PartitionKeys.map((k) => [k.Name, k.Type])).toEqual([
        ['mes', 'string'],
        ['cliente', 'string'],
      ]);
      expect(input.StorageDescriptor).toMatchObject({
        InputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat',
        OutputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat',
        SerdeInfo: { SerializationLibrary: 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe' },
      });
      expect(texto(input.StorageDescriptor.Location)).toBe(`s3://{${bucketId}}/${tabela.nome}/`);
    }
  });

  it('projects the partitions: months from PRIMEIRO_MES_ARQUIVO, the client injected, at the keys the job writes', () => {
    const tables = Object.values(resources(data, 'AWS::Glue::Table'));
    expect(tables).toHaveLength(Object.keys(TABELAS_ARQUIVO).length);
    for (const table of tables) {
      const { Name, Parameters } = table.Properties!.TableInput as TableInput;
      expect({ ...Parameters, 'storage.location.template': texto(Parameters['storage.location.template']) }).toEqual({
        EXTERNAL: 'TRUE',
        classification: 'parquet',
        'projection.enabled': 'true',
        'projection.mes.type': 'date',
        'projection.mes.format': 'yyyy-MM',
        'projection.mes.range': `${PRIMEIRO_MES_ARQUIVO},NOW`,
        'projection.mes.interval': '1',
        'projection.mes.interval.unit': 'MONTHS',
        'projection.cliente.type': 'injected',
        'storage.location.template': `s3://{${bucketId}}/${Name}/mes=\${mes}/cliente=\${cliente}/`,
      });
    }
  });

  it('runs the queries in a workgroup that enforces its results bucket, encryption and scan limit', () => {
    const workgroups = Object.values(resources(data, 'AWS::Athena::WorkGroup'));
    expect(workgroups).toHaveLength(1);
    const config = workgroups[0]!.Properties!.WorkGroupConfiguration as Record<string, unknown> & { ResultConfiguration: { OutputLocation: unknown } };
    expect(workgroups[0]!.Properties!.Name).toBe('plac-arquivo');
    expect(config).toMatchObject({
      EnforceWorkGroupConfiguration: true,
      PublishCloudWatchMetricsEnabled: true,
      BytesScannedCutoffPerQuery: 10 * 1024 ** 3,
      ResultConfiguration: { EncryptionConfiguration: { EncryptionOption: 'SSE_S3' } },
    });
    expect(texto(config.ResultConfiguration.OutputLocation)).toBe(`s3://{${resultsId}}/`);
  });

  it("saves docs/arquivo.md's three queries, as written, as named queries of the workgroup", () => {
    // Read here with a parser of the test's own, not the app's (consultas-arquivo.ts).
    const doc = readFileSync(join(repoRoot, 'docs', 'arquivo.md'), 'utf8');
    const documented = [...doc.matchAll(/^### (.+)\n(?:(?!### )[\s\S])*?^```sql\n([\s\S]*?)\n```$/gm)].map((m) => ({ Name: m[1], QueryString: m[2] }));
    expect(documented).toHaveLength(3);
    const workgroup = Object.keys(resources(data, 'AWS::Athena::WorkGroup'))[0]!;
    const named = Object.values(resources(data, 'AWS::Athena::NamedQuery')) as Resource[];
    expect(named.map((q) => ({ Name: q.Properties!.Name, QueryString: q.Properties!.QueryString }))).toEqual(documented);
    for (const q of named) expect(q.Properties).toMatchObject({ Database: BANCO_ARQUIVO, WorkGroup: { Ref: workgroup } });
  });
});
