/**
 * The edge: CloudFront serving the web build from a private bucket (Origin Access Control) and
 * forwarding /api/* to the HTTP API, so the portal and its API share one origin (no CORS). Strict
 * security headers on every response, standard logs to the access-log bucket, the WAF web ACL of the
 * edge stack, and a secret header on what goes to the API, which answers nothing without it. The build
 * is uploaded only when web/dist exists, so the app synthesizes before the web app is built.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Annotations, CfnOutput, Duration, Fn, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import type { AppConfig } from '../config';
import { ORIGIN_VERIFY_HEADER } from '../topology';
import { webDist } from '../paths';
import { CONTENT_SECURITY_POLICY, HSTS_MAX_AGE_SECONDS } from '../security-headers';
import { CLOUDFRONT_LOG_PREFIX, S3_ACCESS_LOG_PREFIX } from './data-stack';
import { acknowledgeBucketDeploymentHandler } from '../constructs/nag-acknowledgements';
import { WEB_ACL_ARN_OUTPUT } from './edge-stack';

export interface WebStackProps extends StackProps {
  readonly config: AppConfig;
  /** `https://{id}.execute-api.{region}.amazonaws.com` of the web HTTP API. */
  readonly apiEndpoint: string;
  /** The data stack's access-log bucket: the web bucket's server access logs and CloudFront's logs. */
  readonly logBucket: s3.IBucket;
  /** Its value is the header CloudFront adds to what it forwards to the API (ORIGIN_VERIFY_HEADER). */
  readonly originVerifySecret: secretsmanager.ISecret;
  /** The edge stack holding the web ACL (us-east-1), whose ARN output the distribution reads. */
  readonly webAcl?: { readonly stackName: string; readonly region: string };
}

/**
 * SPA fallback as a viewer-request function on the web behaviour only. Unlike errorResponses it
 * cannot turn an API's 403/404 into a page: /api/* never reaches it, and it is checked anyway. '/'
 * gets index.html, where the build wrote the login page's text; every other page path gets spa.html,
 * the same scripts with a placeholder (web/scripts/prerender-plugin.ts).
 */
export const SPA_REWRITE_CODE = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri.indexOf('/api/') === 0) return request;
  if (uri === '/') {
    request.uri = '/index.html';
    return request;
  }
  var last = uri.substring(uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1) request.uri = '/spa.html';
  return request;
}`;

export class WebStack extends Stack {
  readonly distribution: cloudfront.Distribution;
  readonly webBucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);
    const { config } = props;

    // By name: handing the bucket object over would make CDK add the log-delivery grant to the data
    // stack's bucket policy from here (a cycle); the data stack grants the S3 log service its s3/ prefix.
    const logBucket = s3.Bucket.fromBucketAttributes(this, 'AccessLogs', { bucketName: props.logBucket.bucketName, bucketArn: props.logBucket.bucketArn });

    this.webBucket = new s3.Bucket(this, 'WebBucket', {
      serverAccessLogsBucket: logBucket,
      serverAccessLogsPrefix: `${S3_ACCESS_LOG_PREFIX}WebBucket/`,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const securityHeaders = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'PLAC portal: strict CSP, HSTS preload, no framing',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: CONTENT_SECURITY_POLICY, override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS),
          includeSubdomains: true,
          preload: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
      },
    });

    const spaRewrite = new cloudfront.Function(this, 'SpaRewrite', {
      comment: 'The root gets /index.html, other extension-less paths outside /api/ /spa.html',
      code: cloudfront.FunctionCode.fromInline(SPA_REWRITE_CODE),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });

    const apiOrigin = new origins.HttpOrigin(Fn.select(2, Fn.split('/', props.apiEndpoint)), {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
      // Proves to the API that the request came through here (WAF, logs); it replaces a header of the
      // same name a viewer might send. A dynamic reference: resolved by CloudFormation, not in the template.
      customHeaders: { [ORIGIN_VERIFY_HEADER]: props.originVerifySecret.secretValue.unsafeUnwrap() },
    });

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'PLAC Fat-e portal',
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      // South American edge locations are only in the "All" price class.
      priceClass: cloudfront.PriceClass.PRICE_CLASS_ALL,
      // Standard logs to the access-log bucket (ACLs enabled there for CloudFront's log delivery).
      enableLogging: true,
      logBucket,
      logFilePrefix: CLOUDFRONT_LOG_PREFIX,
      // The WAF web ACL lives in us-east-1 (edge-stack.ts): its ARN is read from that stack's output,
      // across regions, by CloudFormation itself.
      ...(props.webAcl ? { webAclId: Fn.getStackOutput(props.webAcl.stackName, WEB_ACL_ARN_OUTPUT, props.webAcl.region) } : {}),
      // TLS 1.2 minimum needs a certificate of our own: the default *.cloudfront.net certificate is
      // served with CloudFront's fixed TLSv1 policy (portalDomainName + portalCertificateArn).
      ...(config.portalDomain
        ? {
            domainNames: [config.portalDomain.domainName],
            certificate: acm.Certificate.fromCertificateArn(this, 'PortalCertificate', config.portalDomain.certificateArn),
            minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.webBucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: securityHeaders,
        functionAssociations: [{ function: spaRewrite, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
        compress: true,
      },
      additionalBehaviors: {
        '/api/*': {
          origin: apiOrigin,
          // Redirecting would turn a POST into a GET; API clients must use HTTPS.
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          // Everything but Host (API Gateway routes by its own host name), including Authorization.
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: securityHeaders,
          compress: true,
        },
      },
    });

    if (!config.portalDomain) {
      NagSuppressions.addResourceSuppressions(this.distribution, [
        {
          id: 'AwsSolutions-CFR4',
          reason: 'Without portalDomainName the default *.cloudfront.net certificate is served, whose TLS policy CloudFront fixes; set portalDomainName and portalCertificateArn in production (TLS 1.2 minimum, docs/deploy.md).',
        },
      ]);
    }
    // Its log delivery is granted by the log bucket's own policy (data-stack.ts accessLogsBucket).
    Annotations.of(this.webBucket).acknowledgeWarning('@aws-cdk/aws-s3:accessLogsPolicyNotAdded', 'The data stack log bucket grants the S3 log service its s3/ prefix.');

    if (existsSync(join(webDist, 'index.html'))) this.deployWebBuild();

    new CfnOutput(this, 'PortalUrl', {
      value: config.portalDomain ? `https://${config.portalDomain.domainName}/` : `https://${this.distribution.distributionDomainName}/`,
    });
    new CfnOutput(this, 'CloudFrontUrl', { value: `https://${this.distribution.distributionDomainName}/` });
    new CfnOutput(this, 'WebBucketName', { value: this.webBucket.bucketName });
  }

  /**
   * Vite's hashed files under assets/ never change, so browsers may keep them for a year; everything
   * else (index.html first) must be revalidated, or a deploy would not reach returning users. Old
   * assets are not pruned: a page loaded before the deploy may still ask for its chunks.
   */
  private deployWebBuild(): void {
    const assets = new s3deploy.BucketDeployment(this, 'WebAssets', {
      sources: [s3deploy.Source.asset(webDist, { exclude: ['*', '!assets', '!assets/**'] })],
      destinationBucket: this.webBucket,
      cacheControl: [s3deploy.CacheControl.fromString('public, max-age=31536000, immutable')],
      prune: false,
      memoryLimit: 512,
    });
    const pages = new s3deploy.BucketDeployment(this, 'WebPages', {
      sources: [s3deploy.Source.asset(webDist, { exclude: ['assets', 'assets/**'] })],
      destinationBucket: this.webBucket,
      cacheControl: [s3deploy.CacheControl.noCache()],
      prune: false,
      memoryLimit: 512,
      distribution: this.distribution,
      distributionPaths: ['/*'],
    });
    pages.node.addDependency(assets);
    acknowledgeBucketDeploymentHandler(this);
  }
}
