import { X509Certificate } from 'node:crypto';
import { App } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { contracts } from '@plac/shared/contracts';
import { readConfig } from '../lib/config';
import { servedOn } from '../lib/routes';
import { readTruststore } from '../lib/truststore';
import { logicalIdOf, resources, synth } from './synth';

const MTLS = {
  mtlsDomainName: 'mtls.plac.example.gov.br',
  mtlsCertificateArn: 'arn:aws:acm:sa-east-1:111111111111:certificate/abc',
  hostedZoneId: 'Z123EXAMPLE',
};

describe('mutual-TLS domain', () => {
  it('does not exist without the context', () => {
    const { api } = synth();
    expect(Object.keys(resources(api, 'AWS::ApiGatewayV2::DomainName'))).toHaveLength(0);
    expect(Object.keys(resources(api, 'AWS::ApiGatewayV2::Api'))).toHaveLength(1);
    expect(Object.keys(resources(api, 'AWS::ApiGatewayV2::ApiMapping'))).toHaveLength(0);
    expect(Object.keys(resources(api, 'AWS::S3::Bucket'))).toHaveLength(0);
    expect(Object.keys(resources(api, 'Custom::CDKBucketDeployment'))).toHaveLength(0);
    expect(Object.keys(resources(api, 'AWS::Route53::RecordSet'))).toHaveLength(0);
  });

  describe('with mtlsDomainName and mtlsCertificateArn', () => {
    const { api } = synth(MTLS);
    const truststore = readTruststore();
    const bucketId = logicalIdOf(api, 'PlacApi/MtlsDomain/TruststoreBucket/Resource');
    const domainId = logicalIdOf(api, 'PlacApi/MtlsDomain/Domain/Resource');
    const mtlsApiId = logicalIdOf(api, 'PlacApi/MtlsApi/Api/Resource');

    it('requires client certificates chaining to the ICP-Brasil truststore in the private bucket', () => {
      const domain = resources(api, 'AWS::ApiGatewayV2::DomainName')[domainId]!;
      expect(domain.Properties).toMatchObject({
        DomainName: MTLS.mtlsDomainName,
        DomainNameConfigurations: [{ CertificateArn: MTLS.mtlsCertificateArn, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' }],
        MutualTlsAuthentication: { TruststoreUri: { 'Fn::Join': ['', ['s3://', { Ref: bucketId }, `/${truststore.key}`]] } },
      });
      // The truststore object must be there before API Gateway reads it.
      const deploymentId = logicalIdOf(api, 'PlacApi/MtlsDomain/Truststore/CustomResource/Default');
      expect(domain.DependsOn).toEqual(expect.arrayContaining([deploymentId]));
      expect(resources(api, 'Custom::CDKBucketDeployment')[deploymentId]!.Properties).toMatchObject({
        DestinationBucketName: { Ref: bucketId },
        Prune: false,
      });
    });

    it('keeps the truststore bucket private and SSL-only', () => {
      expect(resources(api, 'AWS::S3::Bucket')[bucketId]!.Properties).toMatchObject({
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      });
      api.hasResourceProperties('AWS::S3::BucketPolicy', {
        Bucket: { Ref: bucketId },
        PolicyDocument: { Statement: [Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } }, Principal: { AWS: '*' } })] },
      });
    });

    it('maps a second API with the default endpoint disabled and only the mtls/both contracts', () => {
      expect(resources(api, 'AWS::ApiGatewayV2::Api')[mtlsApiId]!.Properties).toMatchObject({ DisableExecuteApiEndpoint: true });
      const mapping = Object.values(resources(api, 'AWS::ApiGatewayV2::ApiMapping'));
      expect(mapping).toHaveLength(1);
      expect(mapping[0]!.Properties).toMatchObject({ ApiId: { Ref: mtlsApiId }, DomainName: { Ref: domainId } });
      const keys = Object.values(resources(api, 'AWS::ApiGatewayV2::Route'))
        .filter((r) => JSON.stringify(r.Properties!.ApiId) === JSON.stringify({ Ref: mtlsApiId }))
        .map((r) => r.Properties!.RouteKey as string)
        .sort();
      expect(keys).toEqual(contracts.filter((c) => servedOn(c, 'mtls')).map((c) => `${c.method} ${c.path}`).sort());
      const mtlsStage = Object.values(resources(api, 'AWS::ApiGatewayV2::Stage')).find((s) => JSON.stringify(s.Properties!.ApiId).includes(mtlsApiId))!;
      expect((mtlsStage.Properties!.AccessLogSettings as { Format: string }).Format).toContain('$context.identity.clientCert.subjectDN');
    });

    it('points the hosted zone at the domain', () => {
      api.hasResourceProperties('AWS::Route53::RecordSet', {
        Name: `${MTLS.mtlsDomainName}.`,
        Type: 'A',
        HostedZoneId: MTLS.hostedZoneId,
        AliasTarget: { DNSName: { 'Fn::GetAtt': [domainId, 'RegionalDomainName'] } },
      });
    });
  });

  it('bundles the four ICP-Brasil roots, each a valid CA certificate', () => {
    const truststore = readTruststore();
    expect(truststore.files).toEqual(['ICP-Brasilv10.pem', 'ICP-Brasilv12.pem', 'ICP-Brasilv13.pem', 'ICP-Brasilv5.pem']);
    expect(truststore.key).toMatch(/^truststore\/icp-brasil-[0-9a-f]{16}\.pem$/);
    const pems = truststore.pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n/g) ?? [];
    expect(pems.join('')).toBe(truststore.pem);
    const subjects = pems.map((pem) => new X509Certificate(pem)).map((c) => {
      expect(c.ca).toBe(true);
      expect(c.checkIssued(c)).toBe(true);
      return /CN=([^\n]+)/.exec(c.subject)![1];
    });
    expect(subjects.sort()).toEqual([10, 12, 13, 5].map((v) => `Autoridade Certificadora Raiz Brasileira v${v}`).sort());
  });

  it('refuses half a configuration', () => {
    const app = new App({ context: { mtlsDomainName: MTLS.mtlsDomainName } });
    expect(() => readConfig(app.node)).toThrow(/mtlsDomainName and mtlsCertificateArn/);
  });
});
