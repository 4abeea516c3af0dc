/**
 * Every grant of topology.ts's Grant type, applied to a throw-away function against the real data
 * stack: the actions and resources each grant adds (the current topology only uses a few of them).
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { describe, expect, it } from 'vitest';
import { defaultContext } from '../lib/app';
import { readConfig } from '../lib/config';
import { applyGrants } from '../lib/constructs/grants';
import { DataStack } from '../lib/stacks/data-stack';
import type { Grant } from '../lib/topology';

type Statement = { Action: string | string[]; Resource: unknown };

function grantAndRead(grants: Grant[]): { statements: Statement[]; env: Record<string, unknown> } {
  const app = new App({ context: { ...defaultContext(), 'aws:cdk:bundling-stacks': [] } });
  const config = readConfig(app.node);
  const data = new DataStack(app, 'Data', { config });
  const stack = new Stack(app, 'Subject');
  const fn = new lambda.Function(stack, 'Fn', { runtime: lambda.Runtime.NODEJS_24_X, handler: 'index.handler', code: lambda.Code.fromInline('exports.handler=()=>{}') });
  const machine = new sfn.StateMachine(stack, 'Machine', { definitionBody: sfn.DefinitionBody.fromChainable(new sfn.Pass(stack, 'P')) });
  const billing = new sfn.StateMachine(stack, 'Billing', { definitionBody: sfn.DefinitionBody.fromChainable(new sfn.Pass(stack, 'B')) });
  const repasse = new sfn.StateMachine(stack, 'Repasse', { definitionBody: sfn.DefinitionBody.fromChainable(new sfn.Pass(stack, 'R')) });
  const retorno = new sfn.StateMachine(stack, 'Retorno', { definitionBody: sfn.DefinitionBody.fromChainable(new sfn.Pass(stack, 'T')) });
  const relatorio = new sfn.StateMachine(stack, 'Relatorio', { definitionBody: sfn.DefinitionBody.fromChainable(new sfn.Pass(stack, 'J')) });
  const totalTransportadoras = new sfn.StateMachine(stack, 'TotalTransportadoras', { definitionBody: sfn.DefinitionBody.fromChainable(new sfn.Pass(stack, 'C')) });
  applyGrants(fn, grants, {
    table: data.table,
    idempotencyTable: data.idempotencyTable,
    documents: data.documents,
    arquivo: data.arquivo,
    webhookQueue: data.webhookQueue,
    documentosQueue: data.documentosQueue,
    mailIdentity: data.mailIdentity,
    mailFrom: config.mailFrom,
    tokenSecret: data.tokenSecret,
    sessionKeySecret: data.sessionKeySecret,
    sefazTpAmb: '1',
    referenceLoad: machine,
    faturamento: billing,
    repasse,
    retorno,
    relatorio,
    totalTransportadoras,
  });
  const template = Template.fromStack(stack);
  const policies = Object.values(template.findResources('AWS::IAM::Policy')) as { Properties: { PolicyDocument: { Statement: Statement[] } } }[];
  const fnResource = Object.values(template.findResources('AWS::Lambda::Function'))[0] as { Properties: { Environment?: { Variables: Record<string, unknown> } } };
  return { statements: policies.flatMap((p) => p.Properties.PolicyDocument.Statement), env: fnResource.Properties.Environment?.Variables ?? {} };
}

const actions = (statements: Statement[]) => statements.flatMap((s) => [s.Action].flat()).sort();

describe('grants', () => {
  it('table:read is read-only on the table and its indexes', () => {
    const { statements } = grantAndRead(['table:read']);
    expect(actions(statements)).toContain('dynamodb:Query');
    expect(actions(statements)).not.toContain('dynamodb:PutItem');
    expect(JSON.stringify(statements)).toContain('/index/*');
  });

  it('table:write replaces table:read instead of adding a second statement', () => {
    const { statements } = grantAndRead(['table:read', 'table:write']);
    expect(statements).toHaveLength(1);
    expect(actions(statements)).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']));
  });

  it('documents:read and documents:write map to GetObject and PutObject on the documents bucket only', () => {
    const read = grantAndRead(['documents:read']);
    expect(actions(read.statements)).toContain('s3:GetObject*');
    expect(actions(read.statements)).not.toContain('s3:PutObject');
    const write = grantAndRead(['documents:write']);
    expect(actions(write.statements)).toContain('s3:PutObject');
    expect(actions(write.statements).some((a) => a.startsWith('s3:GetObject') || a.startsWith('s3:Delete'))).toBe(false);
    expect(JSON.stringify(write.statements)).toContain('DocumentsBucket');
  });

  it('arquivo:read reads the archive bucket only, and learns its name', () => {
    const { statements, env } = grantAndRead(['arquivo:read']);
    expect(actions(statements)).toEqual(['s3:GetBucket*', 's3:GetObject*', 's3:List*']);
    expect(JSON.stringify(statements)).toContain('ArquivoBucket');
    expect(JSON.stringify(statements)).not.toContain('DocumentsBucket');
    expect(Object.keys(env)).toEqual(['ARQUIVO_BUCKET']);
    expect(JSON.stringify(env.ARQUIVO_BUCKET)).toContain('ArquivoBucket');
  });

  it('arquivo:write puts and deletes in the archive bucket only (it cannot read), and learns its name', () => {
    const { statements, env } = grantAndRead(['arquivo:write']);
    const granted = actions(statements);
    expect(granted).toEqual(expect.arrayContaining(['s3:PutObject', 's3:DeleteObject*', 's3:Abort*']));
    expect(granted.some((a) => a.startsWith('s3:GetObject') || a.startsWith('s3:List'))).toBe(false);
    for (const s of statements) expect(JSON.stringify(s.Resource)).toContain('ArquivoBucket');
    expect(Object.keys(env)).toEqual(['ARQUIVO_BUCKET']);
  });

  it('webhooks:send may send but not receive', () => {
    const { statements } = grantAndRead(['webhooks:send']);
    expect(actions(statements)).toEqual(['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage']);
  });

  it('mail:send may send from the SES identity only, and learns the sender address', () => {
    const { statements, env } = grantAndRead(['mail:send']);
    expect(actions(statements)).toEqual(['ses:SendEmail', 'ses:SendRawEmail']);
    expect(JSON.stringify(statements[0]!.Resource)).toContain(':identity/');
    expect(env).toEqual({ MAIL_FROM: 'nao-responda@plac.example.gov.br' });
  });

  it('tokens:verify and tokens:sign read the key-derivation root and the rotated session key, and nothing else', () => {
    for (const grant of ['tokens:verify', 'tokens:sign'] as const) {
      const { statements, env } = grantAndRead([grant]);
      expect(actions(statements)).toEqual(['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue']);
      expect(JSON.stringify(statements)).toMatch(/TokenSigningSecret/);
      expect(JSON.stringify(statements)).toMatch(/SessionSigningKey/);
      expect(Object.keys(env).sort()).toEqual(['SESSION_KEY_SECRET_ARN', 'TOKEN_SECRET_ARN']);
    }
  });

  it('idempotency is read/write on the idempotency table only', () => {
    const { statements } = grantAndRead(['idempotency']);
    expect(JSON.stringify(statements)).toContain('IdempotencyTable');
    expect(JSON.stringify(statements)).not.toContain('ApplicationTable');
  });

  it('referenceLoad:start may start that state machine only', () => {
    const { statements, env } = grantAndRead(['referenceLoad:start']);
    expect(actions(statements)).toEqual(['states:StartExecution']);
    expect(statements[0]!.Resource).toEqual({ Ref: expect.stringMatching(/^Machine/) });
    expect(Object.keys(env)).toEqual(['REFERENCE_LOAD_STATE_MACHINE_ARN']);
  });

  it('faturamento:start may start the billing run and read its own executions only (a dead run holds no lock: issue 42)', () => {
    const { statements, env } = grantAndRead(['faturamento:start']);
    expect(actions(statements)).toEqual(['states:DescribeExecution', 'states:StartExecution']);
    const inicio = statements.find((s) => JSON.stringify(s.Action).includes('StartExecution'))!;
    expect(inicio.Resource).toEqual({ Ref: expect.stringMatching(/^Billing/) });
    // DescribeExecution on the billing machine's executions only: execution:<its name>:*.
    const leitura = JSON.stringify(statements.find((s) => JSON.stringify(s.Action).includes('DescribeExecution'))!.Resource);
    expect(leitura).toContain(':execution:');
    expect(leitura).toMatch(/Billing[A-Za-z0-9]*"/);
    expect(leitura).not.toMatch(/Repasse|Relatorio|Retorno|Machine/);
    expect(Object.keys(env)).toEqual(['FATURAMENTO_STATE_MACHINE_ARN']);
  });

  it('repasse:start may start the repasse run only', () => {
    const { statements, env } = grantAndRead(['repasse:start']);
    expect(actions(statements)).toEqual(['states:StartExecution']);
    expect(statements[0]!.Resource).toEqual({ Ref: expect.stringMatching(/^Repasse/) });
    expect(Object.keys(env)).toEqual(['REPASSE_STATE_MACHINE_ARN']);
  });

  it('retorno:start may start the bank-return import job only', () => {
    const { statements, env } = grantAndRead(['retorno:start']);
    expect(actions(statements)).toEqual(['states:StartExecution']);
    expect(statements[0]!.Resource).toEqual({ Ref: expect.stringMatching(/^Retorno/) });
    expect(Object.keys(env)).toEqual(['RETORNO_STATE_MACHINE_ARN']);
  });

  it('totalTransportadoras:start may start the carrier total job only', () => {
    const { statements, env } = grantAndRead(['totalTransportadoras:start']);
    expect(actions(statements)).toEqual(['states:StartExecution']);
    expect(statements[0]!.Resource).toEqual({ Ref: expect.stringMatching(/^TotalTransportadoras/) });
    expect(Object.keys(env)).toEqual(['TOTAL_TRANSPORTADORAS_STATE_MACHINE_ARN']);
  });
});
