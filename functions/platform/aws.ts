import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * AWS SDK clients, created once per container. Endpoints come from the standard variables
 * (AWS_ENDPOINT_URL_DYNAMODB, _S3, _SQS …), so the same code talks to AWS, LocalStack or the twin.
 */
let base: DynamoDBClient | undefined;
let dynamo: DynamoDBDocumentClient | undefined;
let s3: S3Client | undefined;
let sqs: SQSClient | undefined;

/** The plain DynamoDB client (attribute values typed by hand): for a hot read that needs no table layer. */
export function dynamoDbBase(): DynamoDBClient {
  base ??= new DynamoDBClient({});
  return base;
}

export function dynamoDb(): DynamoDBDocumentClient {
  dynamo ??= DynamoDBDocumentClient.from(dynamoDbBase(), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return dynamo;
}

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
  sqs ??= new SQSClient({});
  return sqs;
}
