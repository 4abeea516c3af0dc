/**
 * The Lambda event-source mapping for SQS, locally: long-polls a queue, hands batches to the
 * consumer as SQS events, deletes the records the consumer did not report as failed, and leaves the
 * failed ones to come back after their visibility timeout; the queue's redrive policy then moves a
 * message that failed maxReceiveCount times to its dead-letter queue, as in AWS.
 */
import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  SQSClient,
  type Message,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { Invoke } from './lambda-runtime';

/** No call to the queue may hang the loop: an unanswered one is abandoned (and logged) after this. */
const SQS_CALL_TIMEOUT_MS = 15_000;

export interface ConsumerOptions {
  queueUrl: string;
  queueArn: string;
  invoke: Invoke;
  batchSize?: number;
  /**
   * Seconds before a failed record is visible again. Unset: the queue's own visibility timeout, as
   * in AWS; the tests shorten it so that a retry-until-DLQ run takes seconds, not minutes.
   */
  retryDelaySeconds?: number;
}

export interface Consumer {
  stop(): Promise<void>;
}

export function startQueueConsumer(options: ConsumerOptions): Consumer {
  const sqs = new SQSClient({});
  let running = true;
  const abort = new AbortController();
  const loop = (async () => {
    while (running) {
      try {
        const { Messages } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: options.queueUrl,
            MaxNumberOfMessages: options.batchSize ?? 10,
            WaitTimeSeconds: 1,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          { abortSignal: AbortSignal.any([abort.signal, AbortSignal.timeout(SQS_CALL_TIMEOUT_MS)]) },
        );
        if (Messages?.length) await deliver(sqs, options, Messages);
      } catch (error) {
        if (!running) break;
        console.error(`[sqs] ${options.queueArn}:`, (error as Error).message);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  })();
  return {
    async stop() {
      running = false;
      abort.abort();
      await loop;
    },
  };
}

async function deliver(sqs: SQSClient, options: ConsumerOptions, messages: Message[]) {
  const event: SQSEvent = {
    Records: messages.map((m) => ({
      messageId: m.MessageId!,
      receiptHandle: m.ReceiptHandle!,
      body: m.Body ?? '',
      attributes: {
        ApproximateReceiveCount: m.Attributes?.ApproximateReceiveCount ?? '1',
        SentTimestamp: m.Attributes?.SentTimestamp ?? String(Date.now()),
        SenderId: m.Attributes?.SenderId ?? 'local',
        ApproximateFirstReceiveTimestamp: m.Attributes?.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
      },
      messageAttributes: {},
      md5OfBody: m.MD5OfBody ?? '',
      eventSource: 'aws:sqs',
      eventSourceARN: options.queueArn,
      awsRegion: process.env.AWS_REGION ?? 'us-east-1',
    })),
  };
  let failed: Set<string>;
  try {
    const response = (await options.invoke(event)) as SQSBatchResponse | undefined;
    failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
  } catch (error) {
    // The whole invocation failed: every record of the batch is retried.
    console.error(`[sqs] consumer of ${options.queueArn} failed:`, (error as Error).message);
    failed = new Set(messages.map((m) => m.MessageId!));
  }
  const done = messages.filter((m) => !failed.has(m.MessageId!));
  const retry = messages.filter((m) => failed.has(m.MessageId!));
  if (done.length) {
    await sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: options.queueUrl,
        Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
      }),
      { abortSignal: AbortSignal.timeout(SQS_CALL_TIMEOUT_MS) },
    );
  }
  if (retry.length && options.retryDelaySeconds !== undefined) {
    await sqs.send(
      new ChangeMessageVisibilityBatchCommand({
        QueueUrl: options.queueUrl,
        Entries: retry.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle!, VisibilityTimeout: options.retryDelaySeconds })),
      }),
    );
  }
}
