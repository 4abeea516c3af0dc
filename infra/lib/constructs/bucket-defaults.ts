/**
 * What every bucket of the app that holds data shares: no public access, the bucket owner owns every
 * object, SSE-S3, TLS 1.2 or later only, server access logs to the log bucket under `<prefix><id>/`, and
 * retained when its stack goes (cdk-nag's S1, S2, S10 rules). Each bucket adds its versioning,
 * lifecycle and CORS.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';

export function bucketPrivado(id: string, accessLogs: { readonly bucket: s3.IBucket; readonly prefix: string }): s3.BucketProps {
  return {
    serverAccessLogsBucket: accessLogs.bucket,
    serverAccessLogsPrefix: `${accessLogs.prefix}${id}/`,
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    minimumTLSVersion: 1.2,
    removalPolicy: RemovalPolicy.RETAIN,
  };
}
