import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { webDist } from '../lib/paths';
import { SPA_REWRITE_CODE } from '../lib/stacks/web-stack';
import { logicalIdOf, resources, synth } from './synth';

/** Written out, not imported: loosening the policy in lib/ must fail this test. */
const EXPECTED_CSP =
  "default-src 'self'; img-src 'self' data: blob: https://*.amazonaws.com; style-src 'self' 'unsafe-inline'; script-src 'self'; " +
  "connect-src 'self' https://*.amazonaws.com; font-src 'self' data:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'";

// AWS-managed policy ids (the same in every account).
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

type Behavior = Record<string, unknown> & { PathPattern?: string };
type DistributionConfig = {
  DefaultRootObject: string;
  HttpVersion: string;
  DefaultCacheBehavior: Behavior;
  CacheBehaviors: Behavior[];
  Origins: { Id: string; DomainName: unknown; OriginAccessControlId?: unknown; S3OriginConfig?: unknown; CustomOriginConfig?: Record<string, unknown> }[];
  CustomErrorResponses?: unknown;
  ViewerCertificate?: Record<string, unknown>;
  Aliases?: string[];
};

function distributionConfig(context: Record<string, unknown> = {}): DistributionConfig {
  const { web } = synth(context);
  const distributions = Object.values(resources(web, 'AWS::CloudFront::Distribution'));
  expect(distributions).toHaveLength(1);
  return distributions[0]!.Properties!.DistributionConfig as DistributionConfig;
}

function spaRewrite(uri: string): string {
  const handler = new Function(`${SPA_REWRITE_CODE}; return handler;`)() as (e: { request: { uri: string } }) => { uri: string };
  return handler({ request: { uri } }).uri;
}

describe('web stack', () => {
  const { web } = synth();
  const policyId = logicalIdOf(web, 'PlacWeb/SecurityHeaders/Resource');

  it('sends strict security headers: CSP, HSTS preload, nosniff, DENY framing, strict referrer', () => {
    const policy = resources(web, 'AWS::CloudFront::ResponseHeadersPolicy')[policyId]!;
    expect((policy.Properties!.ResponseHeadersPolicyConfig as { SecurityHeadersConfig: unknown }).SecurityHeadersConfig).toEqual({
      ContentSecurityPolicy: { ContentSecurityPolicy: EXPECTED_CSP, Override: true },
      StrictTransportSecurity: { AccessControlMaxAgeSec: 63_072_000, IncludeSubdomains: true, Preload: true, Override: true },
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: 'DENY', Override: true },
      ReferrerPolicy: { ReferrerPolicy: 'strict-origin-when-cross-origin', Override: true },
    });
  });

  it('serves the SPA from the private bucket through Origin Access Control, with the headers and the rewrite function', () => {
    const config = distributionConfig();
    expect(config).toMatchObject({ DefaultRootObject: 'index.html', HttpVersion: 'http2and3' });
    expect(config.CustomErrorResponses).toBeUndefined();
    const s3Origin = config.Origins.find((o) => o.S3OriginConfig)!;
    expect(s3Origin.OriginAccessControlId).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/OriginAccessControl/), 'Id'] });
    expect(s3Origin.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
    expect(config.DefaultCacheBehavior).toMatchObject({
      TargetOriginId: s3Origin.Id,
      ViewerProtocolPolicy: 'redirect-to-https',
      ResponseHeadersPolicyId: { Ref: policyId },
      FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [logicalIdOf(web, 'PlacWeb/SpaRewrite/Resource'), 'FunctionARN'] } }],
    });
  });

  it('forwards /api/* to the HTTP API uncached, with every method and all viewer headers but Host', () => {
    const config = distributionConfig();
    expect(config.CacheBehaviors).toHaveLength(1);
    const api = config.CacheBehaviors[0]!;
    expect(api).toMatchObject({
      PathPattern: '/api/*',
      CachePolicyId: CACHING_DISABLED,
      OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      ViewerProtocolPolicy: 'https-only',
      ResponseHeadersPolicyId: { Ref: policyId },
    });
    const origin = config.Origins.find((o) => o.Id === api.TargetOriginId)!;
    expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
    expect(JSON.stringify(origin.DomainName)).toContain('PlacApi');
  });

  it('rewrites / to /index.html (the login page in the HTML) and other extension-less paths outside /api/ to /spa.html', () => {
    expect(spaRewrite('/clientes/123')).toBe('/spa.html');
    expect(spaRewrite('/app/fatura/consultarFatura')).toBe('/spa.html');
    expect(spaRewrite('/')).toBe('/index.html');
    expect(spaRewrite('/assets/index-abc.js')).toBe('/assets/index-abc.js');
    expect(spaRewrite('/favicon.svg')).toBe('/favicon.svg');
    expect(spaRewrite('/api/v1/health')).toBe('/api/v1/health');
    expect(spaRewrite('/api/docs')).toBe('/api/docs');
  });

  it('keeps the web bucket private: all public access blocked, readable only by this distribution, SSL only', () => {
    const bucketId = logicalIdOf(web, 'PlacWeb/WebBucket/Resource');
    expect(resources(web, 'AWS::S3::Bucket')[bucketId]!.Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
    });
    const policy = Object.values(resources(web, 'AWS::S3::BucketPolicy'))[0]!;
    const statements = (policy.Properties!.PolicyDocument as { Statement: { Effect: string; Principal: unknown; Condition?: unknown }[] }).Statement;
    for (const s of statements.filter((st) => st.Effect === 'Allow')) {
      expect(s.Principal).toEqual({ Service: 'cloudfront.amazonaws.com' });
      expect(JSON.stringify(s.Condition)).toContain(logicalIdOf(web, 'PlacWeb/Distribution/Resource'));
    }
    expect(statements.some((s) => s.Effect === 'Deny' && JSON.stringify(s.Condition).includes('aws:SecureTransport'))).toBe(true);
  });

  it('uploads the web build only when web/dist exists: hashed assets immutable, pages revalidated', () => {
    const deployments = Object.values(resources(web, 'Custom::CDKBucketDeployment')).map((d) => d.Properties!);
    if (!existsSync(join(webDist, 'index.html'))) {
      expect(deployments).toHaveLength(0);
      return;
    }
    expect(deployments).toHaveLength(2);
    const cacheControl = deployments.map((d) => (d.SystemMetadata as Record<string, string>)['cache-control']).sort();
    expect(cacheControl).toEqual(['no-cache', 'public, max-age=31536000, immutable']);
    const pages = deployments.find((d) => (d.SystemMetadata as Record<string, string>)['cache-control'] === 'no-cache')!;
    expect(pages).toMatchObject({ Prune: false, DistributionPaths: ['/*'], DistributionId: { Ref: logicalIdOf(web, 'PlacWeb/Distribution/Resource') } });
  });

  it('requires TLS 1.2 on the custom portal domain', () => {
    const config = distributionConfig({ portalDomainName: 'portal.plac.example.gov.br', portalCertificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/abc' });
    expect(config.Aliases).toEqual(['portal.plac.example.gov.br']);
    expect(config.ViewerCertificate).toMatchObject({ MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' });
  });

  it('outputs the CloudFront URL', () => {
    expect(Object.keys(web.toJSON().Outputs as object)).toEqual(expect.arrayContaining(['CloudFrontUrl', 'PortalUrl']));
  });
});
