import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { contracts, type AnyContract } from '@plac/shared/contracts';
import { describe, expect, it } from 'vitest';
import { PlacHttpApi, THROTTLE } from '../lib/constructs/http-api';
import { routesFor, servedOn } from '../lib/routes';
import { httpFunctions } from '../lib/topology';
import { logicalIdOf, resources, synth, type Resource } from './synth';

type Route = { RouteKey: string; AuthorizationType: string; AuthorizerId?: unknown; Target: { 'Fn::Join': [string, unknown[]] } };

const routeKeys = (routes: Record<string, Resource>) => Object.values(routes).map((r) => (r.Properties as Route).RouteKey).sort();

/** A contract table with every kind of access and channel, on the real contexts. */
const sample = [
  { id: 'platform.health', context: 'platform', method: 'GET', path: '/api/v1/health', access: 'public', channel: 'both' },
  { id: 'platform.me', context: 'platform', method: 'GET', path: '/api/v1/me', access: 'authenticated' },
  { id: 'dominio.admin', context: 'dominio', method: 'PUT', path: '/api/v1/dominio/cidades/{uf}', access: ['sefaz_admin'] },
  { id: 'platform.certLogin', context: 'platform', method: 'POST', path: '/api/v1/authenticate/certificate', access: 'public', channel: 'mtls' },
  { id: 'platform.m2m', context: 'platform', method: 'GET', path: '/api/v1/integrador/faturas/{chave}', access: ['cliente'], channel: 'mtls' },
].map((c) => ({ summary: '', errors: [], response: undefined, ...c })) as unknown as AnyContract[];

function sampleApi(channel: 'web' | 'mtls'): Template {
  const stack = new Stack(new App(), 'Sample');
  const fn = (id: string) => new lambda.Function(stack, id, { runtime: lambda.Runtime.NODEJS_24_X, handler: 'index.handler', code: lambda.Code.fromInline('exports.handler=()=>{}') });
  const functions = new Map(httpFunctions.map((spec) => [spec.id, fn(spec.id)] as const));
  new PlacHttpApi(stack, 'Api', { channel, functions, authorizer: fn('Authorizer'), contracts: sample, disableExecuteApiEndpoint: channel === 'mtls' });
  return Template.fromStack(stack);
}

describe('web HTTP API', () => {
  const { api } = synth();
  const apiId = logicalIdOf(api, 'PlacApi/WebApi/Api/Resource');
  const routes = resources(api, 'AWS::ApiGatewayV2::Route');

  it('has one route per web contract, with the contract path and method', () => {
    const expected = contracts.filter((c) => servedOn(c, 'web')).map((c) => `${c.method} ${c.path}`).sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(routeKeys(routes)).toEqual(expected);
    for (const route of Object.values(routes)) expect(route.Properties!.ApiId).toEqual({ Ref: apiId });
  });

  it('integrates each route with its context function, one integration and one API-scoped permission per function', () => {
    const integrations = resources(api, 'AWS::ApiGatewayV2::Integration');
    const contexts = new Set(contracts.filter((c) => servedOn(c, 'web')).map((c) => c.context));
    expect(Object.keys(integrations)).toHaveLength(contexts.size);
    const integrationTarget = new Map<string, string>();
    for (const [id, integration] of Object.entries(integrations)) {
      const uri = integration.Properties!.IntegrationUri as { 'Fn::GetAtt': [string, string] };
      integrationTarget.set(id, uri['Fn::GetAtt'][0]);
      expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
    }
    for (const route of Object.values(routes)) {
      const props = route.Properties as Route;
      const contract = contracts.find((c) => `${c.method} ${c.path}` === props.RouteKey)!;
      const integrationId = (props.Target['Fn::Join'][1][1] as { Ref: string }).Ref;
      const expectedFn = logicalIdOf(api, `PlacApi/Functions/${routesFor('web').find((r) => r.contractId === contract.id)!.functionId}/Resource`);
      expect(integrationTarget.get(integrationId), props.RouteKey).toBe(expectedFn);
    }
    // The authorizer's own permission (present once a contract is not public) is not an integration's.
    const authorizerFn = logicalIdOf(api, 'PlacApi/Functions/Authorizer/Resource');
    const permissions = Object.values(resources(api, 'AWS::Lambda::Permission')).filter(
      (p) => p.Properties!.Principal === 'apigateway.amazonaws.com' && !JSON.stringify(p.Properties!.FunctionName).includes(authorizerFn),
    );
    expect(permissions).toHaveLength(contexts.size);
    for (const p of permissions) expect(JSON.stringify(p.Properties!.SourceArn)).toContain('/*/*');
  });

  it('leaves public routes open and puts every other route behind the authorizer', () => {
    for (const route of Object.values(routes)) {
      const props = route.Properties as Route;
      const contract = contracts.find((c) => `${c.method} ${c.path}` === props.RouteKey)!;
      if (contract.access === 'public') {
        expect(props.AuthorizationType, props.RouteKey).toBe('NONE');
        expect(props.AuthorizerId).toBeUndefined();
      } else {
        expect(props.AuthorizationType, props.RouteKey).toBe('CUSTOM');
      }
    }
  });

  it('throttles the $default stage and writes JSON access logs without the Authorization header', () => {
    const stages = Object.values(resources(api, 'AWS::ApiGatewayV2::Stage'));
    expect(stages).toHaveLength(1);
    const stage = stages[0]!.Properties as { StageName: string; AutoDeploy: boolean; DefaultRouteSettings: unknown; AccessLogSettings: { DestinationArn: unknown; Format: string } };
    expect(stage).toMatchObject({ StageName: '$default', AutoDeploy: true, DefaultRouteSettings: { ThrottlingRateLimit: THROTTLE.rateLimit, ThrottlingBurstLimit: THROTTLE.burstLimit } });
    const format = JSON.parse(stage.AccessLogSettings.Format) as Record<string, string>;
    expect(format.requestId).toBe('$context.requestId');
    expect(stage.AccessLogSettings.Format.toLowerCase()).not.toContain('authorization');
    expect(JSON.stringify(stage.AccessLogSettings.DestinationArn)).toContain('WebApiAccessLogs');
  });

  it('keeps the execute-api endpoint for CloudFront', () => {
    expect(resources(api, 'AWS::ApiGatewayV2::Api')[apiId]!.Properties).toMatchObject({ ProtocolType: 'HTTP', DisableExecuteApiEndpoint: false });
  });
});

describe('HTTP API from a contract table', () => {
  it('puts non-public routes behind one simple-response Lambda authorizer without caching', () => {
    const template = sampleApi('web');
    const routes = Object.values(resources(template, 'AWS::ApiGatewayV2::Route')).map((r) => r.Properties as Route);
    expect(routes.map((r) => r.RouteKey).sort()).toEqual(['GET /api/v1/health', 'GET /api/v1/me', 'PUT /api/v1/dominio/cidades/{uf}']);
    const authorizers = resources(template, 'AWS::ApiGatewayV2::Authorizer');
    expect(Object.keys(authorizers)).toHaveLength(1);
    const [authorizerId, authorizer] = Object.entries(authorizers)[0]!;
    expect(authorizer.Properties).toMatchObject({
      AuthorizerType: 'REQUEST',
      AuthorizerPayloadFormatVersion: '2.0',
      EnableSimpleResponses: true,
      // Empty: a request without a token reaches the authorizer, and gets the catalogue's 401.
      IdentitySource: [],
      AuthorizerResultTtlInSeconds: 0,
    });
    for (const route of routes) {
      if (route.RouteKey === 'GET /api/v1/health') {
        expect(route.AuthorizationType).toBe('NONE');
      } else {
        expect(route).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizerId } });
      }
    }
  });

  it('serves mtls and both contracts on the mTLS API, with the default endpoint disabled', () => {
    const template = sampleApi('mtls');
    const routes = Object.values(resources(template, 'AWS::ApiGatewayV2::Route')).map((r) => (r.Properties as Route).RouteKey);
    expect(routes.sort()).toEqual(['GET /api/v1/health', 'GET /api/v1/integrador/faturas/{chave}', 'POST /api/v1/authenticate/certificate']);
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { DisableExecuteApiEndpoint: true });
  });

  it('refuses two contracts with the same method and path', () => {
    expect(() => routesFor('web', [...sample, { ...sample[1]!, id: 'platform.other' }])).toThrow(/share the route GET \/api\/v1\/me/);
  });
});
