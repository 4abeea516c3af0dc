/**
 * The dead-letter queue of one EventBridge Scheduler schedule: when the scheduler cannot start its
 * target after its retries (the state machine deleted, throttled for an hour, a permission lost),
 * the event lands here instead of vanishing, and the operations alarms (alarms.ts) fire on it.
 * Every queue of the API stack is such a queue, which is how alarms.ts finds them.
 */
import { Duration } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';

/** As long as SQS allows: a missed billing run or load must still be there when someone looks. */
export const SCHEDULE_DLQ_RETENTION = Duration.days(14);

export function scheduleDeadLetters(scope: Construct, scheduleId: string): sqs.Queue {
  const queue = new sqs.Queue(scope, `${scheduleId}DeadLetters`, {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: SCHEDULE_DLQ_RETENTION,
  });
  NagSuppressions.addResourceSuppressions(queue, [
    { id: 'AwsSolutions-SQS3', reason: 'This queue is itself a dead-letter queue (of an EventBridge Scheduler schedule); nothing consumes it, its alarm calls a person.' },
  ]);
  return queue;
}
