/**
 * An EventBridge Scheduler schedule that starts a state machine (`{"trigger": "schedule"}` as its
 * input): the cron and time zone of its topology entry, two retries within the hour, and a start that
 * still fails kept in the schedule's own dead-letter queue (its alarm calls a person: alarms.ts).
 */
import { Duration, TimeZone } from 'aws-cdk-lib';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as schedulerTargets from 'aws-cdk-lib/aws-scheduler-targets';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { scheduleDeadLetters } from './schedule-dead-letters';

export function scheduleMachine(
  scope: Construct,
  id: string,
  machine: sfn.IStateMachine,
  schedule: { readonly expression: string; readonly timezone: string },
  description: string,
): scheduler.Schedule {
  return new scheduler.Schedule(scope, `${id}Schedule`, {
    description,
    schedule: scheduler.ScheduleExpression.expression(schedule.expression, TimeZone.of(schedule.timezone)),
    target: new schedulerTargets.StepFunctionsStartExecution(machine, {
      input: scheduler.ScheduleTargetInput.fromObject({ trigger: 'schedule' }),
      retryAttempts: 2,
      maxEventAge: Duration.hours(1),
      deadLetterQueue: scheduleDeadLetters(scope, `${id}Schedule`),
    }),
  });
}
