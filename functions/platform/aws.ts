import { S3Client } from '@aws-sdk/client-s3';
import { DynamoDB } from './aws-json/dynamodb';
import { SQSClient } from './aws-json/sqs';

/**
 * The AWS clients, created once per container. Endpoints come from the standard variables
 * (AWS_ENDPOINT_URL_DYNAMODB, _S3, _SQS …), so the same code talks to AWS or the twin. DynamoDB and
 * SQS speak JSON and are called without the SDK's core (aws-json/chamada.ts); S3 (XML, streams,
 * presigned URLs) keeps the SDK's client.
 */
let dynamo: DynamoDB | undefined;
let s3: S3Client | undefined;
let sqs: SQSClient | undefined;

/**
 * The table's client: document commands (aws-json/dynamodb.ts, lib-dynamodb's names: plain objects)
 * and plain ones (GetItemCommand …: attribute values typed by hand, for a hot read that needs no table
 * layer) alike.
 */
export function dynamoDb(): DynamoDB {
  dynamo ??= new DynamoDB();
  return dynamo;
}

/** The same client, named for the plain commands its callers send. */
export const dynamoDbBase = dynamoDb;

export function s3Client(): S3Client {
  s3 ??= new S3Client({
    // Emulators serve buckets by path, not by virtual host.
    forcePathStyle: process.env.PLAC_S3_FORCE_PATH_STYLE === '1',
    // Otherwise a presigned PUT carries the checksum of an empty body and S3 refuses every upload.
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  return s3;
}

export function sqsClient(): SQSClient {
  sqs ??= new SQSClient();
  return sqs;
}
