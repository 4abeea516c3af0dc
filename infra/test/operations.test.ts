import { describe, expect, it } from 'vitest';
import { stateMachineIds } from '../lib/state-machines';
import { ACCESS_LOG_RETENTION_DAYS } from '../lib/stacks/data-stack';
import { EDGE_REGION, PUBLIC_ROUTES_RATE_LIMIT, rateLimitedPaths } from '../lib/stacks/edge-stack';
import { allFunctions, httpFunctions, ORIGIN_VERIFY_HEADER } from '../lib/topology';
import { FULL_CONTEXT } from './full-config';
import { logicalIdOf, pathOf, resources, synth, type Resource, type Templates } from './synth';

/**
 * Operating it in AWS (issue 29 item 1): alarms generated from the constructs, state machine logs,
 * access logs, the WAF and the web API reachable only through CloudFront, in the default app and in
 * the fully-configured one.
 */

const apps: [string, () => Templates][] = [
  ['default', () => synth()],
  ['fully configured', () => synth(FULL_CONTEXT)],
];

type Alarm = Resource & { Properties: { MetricName?: string; Namespace?: string; AlarmActions?: unknown[]; Dimensions?: { Name: string; Value: unknown }[] } };
const alarms = (t: Templates) => Object.values(resources(t.ops, 'AWS::CloudWatch::Alarm')) as Alarm[];
const count = (list: Alarm[], namespace: string, metric: string) => list.filter((a) => a.Properties.Namespace === namespace && a.Properties.MetricName === metric).length;

describe.each(apps)('operations alarms (%s app)', (_name, app) => {
  it('one Errors and one Throttles alarm per function of topology.ts', () => {
    const list = alarms(app());
    expect(count(list, 'AWS/Lambda', 'Errors')).toBe(allFunctions.length);
    expect(count(list, 'AWS/Lambda', 'Throttles')).toBe(allFunctions.length);
    const watched = list.filter((a) => a.Properties.MetricName === 'Errors').map((a) => JSON.stringify(a.Properties.Dimensions));
    expect(new Set(watched).size).toBe(allFunctions.length);
  });

  it('a 5xx and a p99 latency alarm per HTTP API, a failed and a timed-out alarm per state machine', () => {
    const t = app();
    const apis = Object.keys(resources(t.api, 'AWS::ApiGatewayV2::Api')).length;
    const list = alarms(t);
    expect(count(list, 'AWS/ApiGateway', '5xx')).toBe(apis);
    expect(list.filter((a) => a.Properties.MetricName === 'Latency' && (a.Properties as { ExtendedStatistic?: string }).ExtendedStatistic === 'p99')).toHaveLength(apis);
    expect(count(list, 'AWS/States', 'ExecutionsFailed')).toBe(stateMachineIds.length);
    expect(count(list, 'AWS/States', 'ExecutionsTimedOut')).toBe(stateMachineIds.length);
  });

  it('every schedule has a dead-letter queue of its own, and every such queue an alarm', () => {
    const t = app();
    const schedules = Object.values(resources(t.api, 'AWS::Scheduler::Schedule'));
    expect(schedules.length).toBeGreaterThan(0);
    const queues = Object.keys(resources(t.api, 'AWS::SQS::Queue'));
    expect(queues).toHaveLength(schedules.length);
    const dlqs = schedules.map((s) => JSON.stringify((s.Properties!.Target as { DeadLetterConfig?: unknown }).DeadLetterConfig));
    for (const queue of queues) expect(dlqs.filter((d) => d.includes(`"${queue}"`))).toHaveLength(1);
    const visible = alarms(t).filter((a) => a.Properties.MetricName === 'ApproximateNumberOfMessagesVisible');
    // The alarms live in the operations stack and name each queue through the API stack's output.
    expect(visible).toHaveLength(queues.length);
    for (const queue of queues) expect(visible.filter((a) => JSON.stringify(a.Properties.Dimensions).includes(`GetAtt${queue}QueueName`))).toHaveLength(1);
  });

  it('every alarm calls the data stack alarm topic, and one dashboard shows them', () => {
    const t = app();
    for (const alarm of alarms(t)) {
      expect(JSON.stringify(alarm.Properties.AlarmActions)).toMatch(/AlarmTopic/);
    }
    const dashboards = Object.values(resources(t.ops, 'AWS::CloudWatch::Dashboard'));
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0]!.Properties!.DashboardBody);
    for (const [id] of Object.entries(resources(t.ops, 'AWS::CloudWatch::Alarm'))) expect(body).toContain(id);
    expect(body).toContain('WebhookDeadLettersAlarm');
  });
});

describe.each(apps)('logs (%s app)', (_name, app) => {
  it('every state machine logs ALL without the execution data, to a log group with a retention', () => {
    const t = app();
    const groups = resources(t.api, 'AWS::Logs::LogGroup');
    for (const machine of Object.values(resources(t.api, 'AWS::StepFunctions::StateMachine'))) {
      const config = machine.Properties!.LoggingConfiguration as { Level: string; IncludeExecutionData: boolean; Destinations: { CloudWatchLogsLogGroup: { LogGroupArn: { 'Fn::GetAtt': [string, string] } } }[] };
      expect(config).toMatchObject({ Level: 'ALL', IncludeExecutionData: false });
      const group = groups[config.Destinations[0]!.CloudWatchLogsLogGroup.LogGroupArn['Fn::GetAtt'][0]];
      expect(group?.Properties?.RetentionInDays).toBeGreaterThan(0);
    }
  });

  it('every bucket logs to the access-log bucket, which expires its logs and does not log to itself', () => {
    const t = app();
    const logBucket = logicalIdOf(t.data, 'PlacData/AccessLogsBucket/Resource');
    const all = [t.data, t.api, t.web].flatMap((tpl) => Object.entries(resources(tpl, 'AWS::S3::Bucket')));
    expect(all.length).toBeGreaterThanOrEqual(3);
    for (const [id, bucket] of all) {
      const logging = bucket.Properties!.LoggingConfiguration as { DestinationBucketName?: unknown; LogFilePrefix?: string } | undefined;
      if (id === logBucket) {
        expect(logging).toBeUndefined();
        expect(bucket.Properties!.OwnershipControls).toEqual({ Rules: [{ ObjectOwnership: 'BucketOwnerPreferred' }] });
        expect(bucket.Properties!.LifecycleConfiguration).toMatchObject({ Rules: [expect.objectContaining({ ExpirationInDays: ACCESS_LOG_RETENTION_DAYS, Status: 'Enabled' })] });
        continue;
      }
      expect(JSON.stringify(logging?.DestinationBucketName), pathOf(bucket)).toMatch(/AccessLogsBucket/);
      expect(logging?.LogFilePrefix).toMatch(/^s3\/[A-Za-z]+\/$/);
    }
  });

  it('CloudFront writes its standard logs to the access-log bucket', () => {
    const distribution = Object.values(resources(app().web, 'AWS::CloudFront::Distribution'))[0]!;
    const logging = (distribution.Properties!.DistributionConfig as { Logging?: { Bucket: unknown; Prefix: string } }).Logging;
    expect(logging?.Prefix).toBe('cloudfront/');
    expect(JSON.stringify(logging?.Bucket)).toMatch(/AccessLogsBucket/);
  });
});

describe('WAF on CloudFront', () => {
  it('lives in us-east-1 with the managed common, known-bad-inputs and IP-reputation rules and a rate limit on the public routes', () => {
    const t = synth(FULL_CONTEXT);
    expect(t.artifacts.edge?.environment.region).toBe(EDGE_REGION);
    const acl = Object.values(resources(t.edge!, 'AWS::WAFv2::WebACL'))[0]!;
    expect(acl.Properties!.Scope).toBe('CLOUDFRONT');
    const rules = acl.Properties!.Rules as { Name: string; Statement: Record<string, { Name?: string; Limit?: number; ScopeDownStatement?: unknown }> }[];
    expect(rules.map((r) => r.Statement.ManagedRuleGroupStatement?.Name).filter(Boolean).sort()).toEqual([
      'AWSManagedRulesAmazonIpReputationList',
      'AWSManagedRulesCommonRuleSet',
      'AWSManagedRulesKnownBadInputsRuleSet',
    ]);
    const rate = rules.find((r) => r.Statement.RateBasedStatement)!.Statement.RateBasedStatement!;
    expect(rate.Limit).toBe(PUBLIC_ROUTES_RATE_LIMIT);
    const scope = JSON.stringify(rate.ScopeDownStatement);
    for (const path of ['/api/v1/authenticate/cliente', '/api/v1/authenticate/sefaz', '/api/v1/cliente', '/api/v1/captcha', '/api/v1/cliente-teste', '/api/v1/degustacao/consultar-fatura/', '/api/v1/password/reset']) {
      expect(scope).toContain(`"${path}"`);
    }
  });

  it('rate-limits only public routes, never the authenticated ones nor the reference data', () => {
    const paths = rateLimitedPaths().map((p) => p.path);
    expect(paths.some((p) => p.startsWith('/api/v1/dominio') || p === '/api/v1/health')).toBe(false);
    expect(rateLimitedPaths().find((p) => p.path === '/api/v1/degustacao/consultar-fatura/')?.match).toBe('STARTS_WITH');
    expect(rateLimitedPaths().find((p) => p.path === '/api/v1/cliente')?.match).toBe('EXACTLY');
  });

  it('is attached to the distribution by the edge stack output, and is absent with waf off', () => {
    const on = synth(FULL_CONTEXT);
    const config = (t: Templates) => Object.values(resources(t.web, 'AWS::CloudFront::Distribution'))[0]!.Properties!.DistributionConfig as { WebACLId?: unknown };
    expect(config(on).WebACLId).toEqual({ 'Fn::GetStackOutput': { StackName: 'PlacEdge', Region: EDGE_REGION, OutputName: 'WebAclArn' } });
    expect(on.artifacts.web.dependencies.map((d) => d.id)).toContain('PlacEdge');
    const off = synth({ waf: 'off' });
    expect(off.edge).toBeUndefined();
    expect(config(off).WebACLId).toBeUndefined();
  });
});

describe('the web API only through CloudFront', () => {
  it('CloudFront adds the origin header from the secret, resolved by CloudFormation, never in the template', () => {
    const distribution = Object.values(resources(synth().web, 'AWS::CloudFront::Distribution'))[0]!;
    const origins = (distribution.Properties!.DistributionConfig as { Origins: { CustomOriginConfig?: unknown; OriginCustomHeaders?: { HeaderName: string; HeaderValue: unknown }[] }[] }).Origins;
    const api = origins.find((o) => o.CustomOriginConfig)!;
    expect(api.OriginCustomHeaders).toHaveLength(1);
    expect(api.OriginCustomHeaders![0]!.HeaderName).toBe(ORIGIN_VERIFY_HEADER);
    expect(JSON.stringify(api.OriginCustomHeaders![0]!.HeaderValue)).toMatch(/\{\{resolve:secretsmanager:.*OriginVerifySecret.*SecretString/);
  });

  it('every HTTP function, and only those, is given the value to check', () => {
    const fns = Object.values(resources(synth().api, 'AWS::Lambda::Function')).filter((f) => /\/Functions\//.test(pathOf(f)));
    const withCheck = fns.filter((f) => (f.Properties!.Environment as { Variables: Record<string, unknown> }).Variables.ORIGIN_VERIFY);
    expect(withCheck.map((f) => pathOf(f).split('/')[2]).sort()).toEqual(httpFunctions.map((f) => f.id).sort());
    for (const f of withCheck) expect(JSON.stringify((f.Properties!.Environment as { Variables: Record<string, unknown> }).Variables.ORIGIN_VERIFY)).toMatch(/resolve:secretsmanager/);
  });
});

describe('session signing key rotation', () => {
  it('rotates the session key every 30 days with its rotation function, and not the key-derivation root', () => {
    const t = synth();
    const schedules = Object.values(resources(t.api, 'AWS::SecretsManager::RotationSchedule'));
    expect(schedules).toHaveLength(1);
    const rotation = schedules[0]!.Properties!;
    expect(JSON.stringify(rotation.SecretId)).toMatch(/SessionSigningKey/);
    expect(rotation.RotationRules).toMatchObject({ ScheduleExpression: 'rate(30 days)' });
    expect(JSON.stringify(rotation.RotationLambdaARN)).toContain(logicalIdOf(t.api, 'PlacApi/Functions/SessionKeyRotation/Resource'));
    expect(JSON.stringify(rotation.SecretId)).not.toMatch(/TokenSigningSecret/);
  });
});
