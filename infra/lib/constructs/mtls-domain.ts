/**
 * The custom domain of the mutual-TLS API: API Gateway asks for a client certificate and accepts
 * only chains to the ICP-Brasil roots (truststore in a private bucket); the Lambda then checks the
 * certificate's CNPJ itself. The truststore object must exist before the domain is created, hence
 * the explicit dependency on the deployment.
 */
import { Annotations, RemovalPolicy } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as route53 from 'aws-cdk-lib/aws-route53';
import * as route53Targets from 'aws-cdk-lib/aws-route53-targets';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { acknowledgeBucketDeploymentHandler } from './nag-acknowledgements';
import type { MtlsSettings } from '../config';
import { readTruststore } from '../truststore';

export interface MtlsDomainProps {
  readonly settings: MtlsSettings;
  readonly api: apigw.IHttpApi;
  readonly stage: apigw.IHttpStage;
  /** The access-log bucket (imported by name: the data stack grants the S3 log service its s3/ prefix). */
  readonly logBucket: s3.IBucket;
}

export class MtlsDomain extends Construct {
  readonly domain: apigw.DomainName;
  readonly truststoreBucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: MtlsDomainProps) {
    super(scope, id);
    const { settings } = props;
    const truststore = readTruststore();

    this.truststoreBucket = new s3.Bucket(this, 'TruststoreBucket', {
      serverAccessLogsBucket: props.logBucket,
      serverAccessLogsPrefix: 's3/TruststoreBucket/',
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Annotations.of(this.truststoreBucket).acknowledgeWarning('@aws-cdk/aws-s3:accessLogsPolicyNotAdded', 'The data stack log bucket grants the S3 log service its s3/ prefix.');
    const deployment = new s3deploy.BucketDeployment(this, 'Truststore', {
      sources: [s3deploy.Source.data(truststore.key, truststore.pem)],
      destinationBucket: this.truststoreBucket,
      // The domain may still point at the previous key while this runs: never delete it here.
      prune: false,
    });

    this.domain = new apigw.DomainName(this, 'Domain', {
      domainName: settings.domainName,
      certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', settings.certificateArn),
      securityPolicy: apigw.SecurityPolicy.TLS_1_2,
      mtls: { bucket: this.truststoreBucket, key: truststore.key },
    });
    this.domain.node.addDependency(deployment);
    acknowledgeBucketDeploymentHandler(this);
    new apigw.ApiMapping(this, 'Mapping', { api: props.api, domainName: this.domain, stage: props.stage });

    if (settings.hostedZoneId && settings.hostedZoneName) {
      new route53.ARecord(this, 'Alias', {
        zone: route53.HostedZone.fromHostedZoneAttributes(this, 'Zone', { hostedZoneId: settings.hostedZoneId, zoneName: settings.hostedZoneName }),
        recordName: settings.domainName,
        target: route53.RecordTarget.fromAlias(
          new route53Targets.ApiGatewayv2DomainProperties(this.domain.regionalDomainName, this.domain.regionalHostedZoneId),
        ),
      });
    }
  }
}
