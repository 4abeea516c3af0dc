import { DynamoDB } from './aws-direto/dynamodb';
import { S3Client } from './aws-direto/s3';
import { SQSClient } from './aws-direto/sqs';

/**
 * The AWS clients, created once per container. Endpoints come from the standard variables
 * (AWS_ENDPOINT_URL_DYNAMODB, _S3, _SQS …), so the same code talks to AWS or the twin, and every
 * one is called without the SDK's core (aws-direto/).
 */
let dynamo: DynamoDB | undefined;
let s3: S3Client | undefined;
let sqs: SQSClient | undefined;

/**
 * The table's client: document commands (aws-direto/dynamodb.ts, lib-dynamodb's names: plain objects)
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
  // Emulators serve buckets by path, not by virtual host.
  s3 ??= new S3Client({ forcePathStyle: process.env.PLAC_S3_FORCE_PATH_STYLE === '1' });
  return s3;
}

export function sqsClient(): SQSClient {
  sqs ??= new SQSClient();
  return sqs;
}
