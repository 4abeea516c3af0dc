import { describe, expect, it } from 'vitest';
import { esbuildOptions, REQUIRE_BANNER } from '../lib/bundle-options';
import { allFunctions, rateioSeedFunction, sessionKeyRotationFunction, webhookDispatcherFunction, webhookProducerFunction } from '../lib/topology';
import { logicalIdOf, resources, synth, type Resource } from './synth';

type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

/** Actions for which AWS offers no resource-level permission, so '*' is the only possible Resource. */
const STAR_RESOURCE_ALLOWED = new Set([
  // X-Ray (Lambda active tracing, Step Functions tracing)
  'xray:PutTraceSegments',
  'xray:PutTelemetryRecords',
  'xray:GetSamplingRules',
  'xray:GetSamplingTargets',
  // The session key's rotation function (the grant aws-cdk-lib's RotationSchedule gives it; unused by
  // functions/auth/rotacao-chave.ts, which draws its key from node:crypto)
  'secretsmanager:GetRandomPassword',
  // Step Functions logging to CloudWatch Logs (vended log delivery)
  'logs:CreateLogDelivery',
  'logs:GetLogDelivery',
  'logs:UpdateLogDelivery',
  'logs:DeleteLogDelivery',
  'logs:ListLogDeliveries',
  'logs:PutResourcePolicy',
  'logs:DescribeResourcePolicies',
  'logs:DescribeLogGroups',
  // CDK's BucketDeployment invalidating the distribution after a web upload (the construct does not scope it)
  'cloudfront:CreateInvalidation',
  'cloudfront:GetInvalidation',
]);

const MTLS = { mtlsDomainName: 'mtls.plac.example.gov.br', mtlsCertificateArn: 'arn:aws:acm:sa-east-1:111111111111:certificate/abc', hostedZoneId: 'Z123' };

function ours(): [string, Resource, (typeof allFunctions)[number]][] {
  const { api } = synth();
  return allFunctions.map((spec) => {
    const id = logicalIdOf(api, `PlacApi/Functions/${spec.id}/Resource`);
    return [id, resources(api, 'AWS::Lambda::Function')[id]!, spec];
  });
}

function statementsOf(policyResource: Resource): Statement[] {
  const doc = policyResource.Properties!.PolicyDocument as { Statement: Statement[] };
  return doc.Statement;
}

function policyOf(fnId: string): Statement[] {
  const { api } = synth();
  return statementsOf(resources(api, 'AWS::IAM::Policy')[logicalIdOf(api, `PlacApi/Functions/${fnId}/ServiceRole/DefaultPolicy/Resource`)]!);
}

const actionsOf = (statements: Statement[]) => statements.flatMap((s) => [s.Action].flat());

describe('functions', () => {
  it('creates every function of topology.ts: Node 24, arm64, explicit memory and timeout, active tracing', () => {
    const found = ours();
    expect(found).toHaveLength(allFunctions.length);
    for (const [, fn, spec] of found) {
      expect(fn.Properties, spec.id).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        MemorySize: spec.memoryMb,
        Timeout: spec.timeoutSeconds,
        Handler: 'index.handler',
        TracingConfig: { Mode: 'Active' },
      });
    }
  });

  it('gives every function its own log group with a one-month retention', () => {
    const { api } = synth();
    const groups = resources(api, 'AWS::Logs::LogGroup');
    const used = new Set<string>();
    for (const [, fn, spec] of ours()) {
      const ref = (fn.Properties!.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
      expect(groups[ref]?.Properties, spec.id).toMatchObject({ RetentionInDays: 30 });
      expect(groups[ref]?.DeletionPolicy).toBe('Retain');
      used.add(ref);
    }
    expect(used.size).toBe(allFunctions.length);
  });

  it('sets the shared environment on every function', () => {
    for (const [, fn, spec] of ours()) {
      const vars = (fn.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(Object.keys(vars), spec.id).toEqual(
        expect.arrayContaining(['TABLE_NAME', 'IDEMPOTENCY_TABLE_NAME', 'DOCUMENTS_BUCKET', 'WEBHOOK_QUEUE_URL', 'POWERTOOLS_SERVICE_NAME']),
      );
      expect(vars).toMatchObject({ POWERTOOLS_METRICS_NAMESPACE: 'PLAC', NODE_OPTIONS: '--enable-source-maps', APP_STAGE: 'prod' });
    }
  });

  it('grants exactly what topology.ts lists, and nothing else', () => {
    for (const [, fn, spec] of ours()) {
      const statements = policyOf(spec.id);
      const vars = Object.keys((fn.Properties!.Environment as { Variables: Record<string, unknown> }).Variables);
      const g = new Set(spec.grants);
      const has = (action: string, resource?: string) =>
        statements.some((s) => [s.Action].flat().includes(action) && (!resource || JSON.stringify(s.Resource).includes(resource)));
      const expected: [string, boolean, boolean][] = [
        ['table read', has('dynamodb:GetItem', 'ApplicationTable'), g.has('table:read') || g.has('table:write')],
        ['table write', has('dynamodb:PutItem', 'ApplicationTable'), g.has('table:write')],
        ['idempotency', has('dynamodb:PutItem', 'IdempotencyTable'), g.has('idempotency')],
        ['documents read', has('s3:GetObject*', 'DocumentsBucket'), g.has('documents:read')],
        ['documents write', has('s3:PutObject', 'DocumentsBucket'), g.has('documents:write')],
        ['documents delete', has('s3:DeleteObject*', 'DocumentsBucket'), g.has('documents:delete')],
        ['archive read', has('s3:GetObject*', 'ArquivoBucket') && vars.includes('ARQUIVO_BUCKET'), g.has('arquivo:read')],
        ['archive write', has('s3:PutObject', 'ArquivoBucket') && has('s3:DeleteObject*', 'ArquivoBucket') && vars.includes('ARQUIVO_BUCKET'), g.has('arquivo:write')],
        ['archive bucket named', vars.includes('ARQUIVO_BUCKET'), g.has('arquivo:read') || g.has('arquivo:write')],
        ['webhooks send', has('sqs:SendMessage', 'WebhookQueue'), g.has('webhooks:send')],
        ['documents publish', has('sqs:SendMessage', 'DocumentsQueue') && vars.includes('DOCUMENTOS_QUEUE_URL'), g.has('documentos:publish')],
        ['mail send', has('ses:SendEmail') && vars.includes('MAIL_FROM'), g.has('mail:send')],
        ['token secret', has('secretsmanager:GetSecretValue') && vars.includes('TOKEN_SECRET_ARN'), g.has('tokens:verify') || g.has('tokens:sign')],
        ['reference load', has('states:StartExecution', 'ReferenceLoad') && vars.includes('REFERENCE_LOAD_STATE_MACHINE_ARN'), g.has('referenceLoad:start')],
        ['billing run', has('states:StartExecution', 'Faturamento') && vars.includes('FATURAMENTO_STATE_MACHINE_ARN'), g.has('faturamento:start')],
        ['repasse run', has('states:StartExecution', 'Repasse') && vars.includes('REPASSE_STATE_MACHINE_ARN'), g.has('repasse:start')],
        ['report job', has('states:StartExecution', 'Relatorio') && vars.includes('RELATORIO_STATE_MACHINE_ARN'), g.has('relatorio:start')],
        ['carrier total job', has('states:StartExecution', 'TotalTransportadoras') && vars.includes('TOTAL_TRANSPORTADORAS_STATE_MACHINE_ARN'), g.has('totalTransportadoras:start')],
      ];
      for (const [what, actual, wanted] of expected) expect(actual, `${spec.id}: ${what}`).toBe(wanted);
      // Nothing beyond the grants (plus tracing and, for the consumer, the queue it reads).
      const services = new Set(statements.flatMap((s) => [s.Action].flat()).map((a) => a.split(':')[0]));
      services.delete('xray');
      if (spec.id === webhookDispatcherFunction.id || spec.id === webhookProducerFunction.id) services.delete('sqs');
      // The rotation function: what its rotation schedule grants, on the session key alone (and GetRandomPassword, on *).
      if (spec.id === sessionKeyRotationFunction.id) {
        for (const s of statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('secretsmanager:') && a !== 'secretsmanager:GetRandomPassword'))) {
          expect(JSON.stringify(s.Resource)).toMatch(/SessionSigningKey/);
        }
        services.delete('secretsmanager');
      }
      const allowed = new Set<string>();
      for (const grant of g) allowed.add({ table: 'dynamodb', idempotency: 'dynamodb', documents: 's3', arquivo: 's3', webhooks: 'sqs', documentos: 'sqs', mail: 'ses', tokens: 'secretsmanager', referenceLoad: 'states', faturamento: 'states', repasse: 'states', relatorio: 'states', totalTransportadoras: 'states' }[grant.split(':')[0]!]!);
      expect([...services].filter((s) => !allowed.has(s!)), spec.id).toEqual([]);
    }
  });

  it('lets the authorizer read the token secret and the table (open sessions), and write nothing', () => {
    const actions = actionsOf(policyOf('Authorizer'));
    expect(actions).toEqual(expect.arrayContaining(['secretsmanager:GetSecretValue', 'dynamodb:GetItem']));
    expect(actions.filter((a) => /^dynamodb:(Put|Update|Delete|BatchWrite)/.test(a))).toEqual([]);
  });

  it('has no IAM statement with a wildcard action, and Resource "*" only where AWS requires it', () => {
    for (const context of [{}, MTLS]) {
      const templates = synth(context);
      for (const key of ['data', 'api', 'web'] as const) {
        const template = templates[key];
        const docs = [
          ...Object.values(resources(template, 'AWS::IAM::Policy')).map((p) => statementsOf(p)),
          ...Object.values(resources(template, 'AWS::IAM::Role')).flatMap((r) =>
            ((r.Properties!.Policies as { PolicyDocument: { Statement: Statement[] } }[] | undefined) ?? []).map((p) => p.PolicyDocument.Statement),
          ),
        ];
        for (const statement of docs.flat()) {
          const actions = [statement.Action].flat();
          for (const action of actions) expect(action, key).not.toMatch(/^(\*|[a-z0-9-]+:\*)$/);
          if (statement.Resource === '*' || (Array.isArray(statement.Resource) && statement.Resource.includes('*'))) {
            for (const action of actions) expect(STAR_RESOURCE_ALLOWED.has(action), `${key}: ${action} on "*"`).toBe(true);
          }
        }
      }
    }
  });

  it('consumes the webhook queue (dispatcher) and the documents queue (producers) in batches of 10 with partial batch failures', () => {
    const { api } = synth();
    const mappings = Object.values(resources(api, 'AWS::Lambda::EventSourceMapping'));
    expect(mappings).toHaveLength(2);
    for (const [spec, queue] of [[webhookDispatcherFunction, 'WebhookQueue'], [webhookProducerFunction, 'DocumentsQueue']] as const) {
      const fnId = logicalIdOf(api, `PlacApi/Functions/${spec.id}/Resource`);
      const mapping = mappings.find((m) => JSON.stringify(m.Properties!.FunctionName) === JSON.stringify({ Ref: fnId }));
      expect(mapping?.Properties, spec.id).toMatchObject({ BatchSize: 10, FunctionResponseTypes: ['ReportBatchItemFailures'] });
      expect(JSON.stringify(mapping!.Properties!.EventSourceArn)).toContain(queue);
      // Issue 36: a backlog takes at most this many of the account's executions.
      expect(mapping!.Properties!.ScalingConfig, spec.id).toEqual({ MaximumConcurrency: spec.queueMaxConcurrency });
      expect(spec.queueMaxConcurrency).toBeGreaterThanOrEqual(2);
    }
  });

  it('keeps concurrency for what a client waits on: the authorizer, the look-ups, the logins and the assignments (and leaves AWS its 100 unreserved)', () => {
    const { api } = synth();
    const reservadas = new Map<string, number>();
    for (const spec of allFunctions) {
      const fn = resources(api, 'AWS::Lambda::Function')[logicalIdOf(api, `PlacApi/Functions/${spec.id}/Resource`)];
      const r = fn?.Properties?.ReservedConcurrentExecutions as number | undefined;
      expect(r, spec.id).toBe(spec.reservedConcurrency);
      if (r) reservadas.set(spec.id, r);
    }
    for (const id of ['Authorizer', 'ConsultaApi', 'AuthApi', 'CessaoApi']) expect(reservadas.get(id), id).toBeGreaterThan(0);
    // The account's default limit is 1,000 concurrent executions, 100 of which AWS keeps unreserved;
    // the queue consumers' maxima and the rest must fit in what is left.
    const total = [...reservadas.values()].reduce((s, n) => s + n, 0);
    expect(total + (webhookDispatcherFunction.queueMaxConcurrency ?? 0) + (webhookProducerFunction.queueMaxConcurrency ?? 0)).toBeLessThanOrEqual(900);
  });

  it('bundles with the shared esbuild options (ESM split in chunks, node24, minified, source maps, nothing external, require banner)', () => {
    expect(esbuildOptions).toMatchObject({
      format: 'esm',
      splitting: true,
      entryNames: 'index',
      outExtension: { '.js': '.mjs' },
      target: 'node24',
      platform: 'node',
      minify: true,
      sourcemap: true,
      sourcesContent: false,
      external: [],
      bundle: true,
      mainFields: ['module', 'main'],
      charset: 'utf8',
      banner: { js: REQUIRE_BANNER },
    });
    // The aliases are checked by what they do to a bundle: bundles.test.ts (no SDK, node:http without
    // its facade), electrodb-bundle.test.ts (no model validator), xml-entidades.test.ts (DOCTYPE entities).
    expect(Object.keys(esbuildOptions.alias).sort()).toEqual(['@aws-sdk/lib-dynamodb', 'http', 'is-unsafe', 'jsonschema', 'node:http']);
    expect(REQUIRE_BANNER).toBe("import { createRequire } from 'module'; const require = createRequire(import.meta.url);");
  });
});

describe('the deploy seeds revenue sharing’s reference data', () => {
  it('a Trigger runs RateioSeed after the functions and their grants exist, again when it changes', () => {
    const { api } = synth();
    const triggers = Object.values(resources(api, 'Custom::Trigger'));
    expect(triggers).toHaveLength(1);
    // The handler is the seed function's current version (a new version re-runs the trigger).
    expect(JSON.stringify(triggers[0]!.Properties)).toContain(`Functions${rateioSeedFunction.id}CurrentVersion`);
    expect(JSON.stringify(triggers[0]!.DependsOn ?? [])).toMatch(/PlacApiFunctions|Functions/);
  });
});
