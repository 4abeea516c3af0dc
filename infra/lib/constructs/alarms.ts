/**
 * The operations alarms of the API stack and their dashboard, generated from the constructs that
 * exist rather than from a list kept by hand, so a new function, API, state machine or schedule is
 * watched from its first deploy:
 *   every function of topology.ts   Errors ≥ 1 and Throttles ≥ 1 in 5 minutes
 *   every HTTP API                  5xx ≥ 1 in 5 minutes; p99 latency above LATENCY_P99_ALARM_MS for 15 minutes
 *   every state machine             ExecutionsFailed ≥ 1, ExecutionsTimedOut ≥ 1
 *   every queue of the stack        ApproximateNumberOfMessagesVisible > 0 (they are all the
 *                                   schedules' dead-letter queues, schedule-dead-letters.ts)
 * All go to the alarm topic of the data stack (its e-mail subscription is the context `alarmEmail`).
 * The data stack's own queue alarms (webhook and documents DLQs, webhook backlog) stay there and are
 * shown on the same dashboard.
 *
 * Thresholds of 1: an uncaught Lambda error is a defect (every handled failure answers from the
 * catalogue, so it is not a Lambda error), a throttle means the account's concurrency is exhausted,
 * and a 5xx is either a defect or a dependency down (CRLs, Sefaz): each is worth a look.
 */
import { Duration } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cwActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** The HTTP functions' timeout is 10 s; a p99 past half of it for 15 minutes is a slow dependency. */
export const LATENCY_P99_ALARM_MS = 5000;
const PERIOD = Duration.minutes(5);
/** CloudWatch's limit of alarms in one alarm status widget. */
export const ALARMS_PER_WIDGET = 100;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface OperationsAlarmsProps {
  readonly topic: sns.ITopic;
  /** Every function of topology.ts by FunctionSpec id. */
  readonly functions: ReadonlyMap<string, lambda.IFunction>;
  /** By a short name for the alarm's id (`WebApi`, `MtlsApi`). */
  readonly apis: Readonly<Record<string, apigw.HttpApi>>;
  /** Where state machines and dead-letter queues are looked for (the API stack). */
  readonly root: Construct;
  /** Alarms defined elsewhere (the data stack's) to show on the dashboard too. */
  readonly otherAlarms?: readonly cloudwatch.IAlarm[];
  readonly dashboardName: string;
}

export class OperationsAlarms extends Construct {
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: OperationsAlarmsProps) {
    super(scope, id);
    const action = new cwActions.SnsAction(props.topic);
    const alarm = (alarmId: string, description: string, metric: cloudwatch.Metric, options: { threshold?: number; evaluationPeriods?: number } = {}) => {
      const created = new cloudwatch.Alarm(this, alarmId, {
        alarmDescription: description,
        metric,
        threshold: options.threshold ?? 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: options.evaluationPeriods ?? 1,
        // No invocations, no requests, no executions: nothing went wrong.
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      created.addAlarmAction(action);
      this.alarms.push(created);
      return created;
    };

    const errors: cloudwatch.IMetric[] = [];
    const throttles: cloudwatch.IMetric[] = [];
    for (const [functionId, fn] of props.functions) {
      const e = fn.metricErrors({ period: PERIOD, statistic: 'Sum' });
      const t = fn.metricThrottles({ period: PERIOD, statistic: 'Sum' });
      alarm(`${functionId}Errors`, `${functionId}: uncaught errors or timeouts`, e);
      alarm(`${functionId}Throttles`, `${functionId}: invocations throttled (account or reserved concurrency exhausted)`, t);
      errors.push(e.with({ label: functionId }));
      throttles.push(t.with({ label: functionId }));
    }

    const serverErrors: cloudwatch.IMetric[] = [];
    const latencies: cloudwatch.IMetric[] = [];
    for (const [name, api] of Object.entries(props.apis)) {
      const fivexx = api.metricServerError({ period: PERIOD, statistic: 'Sum' });
      const p99 = api.metricLatency({ period: PERIOD, statistic: 'p99' });
      alarm(`${name}ServerErrors`, `${name}: answers 5xx`, fivexx);
      alarm(`${name}LatencyP99`, `${name}: p99 latency above ${LATENCY_P99_ALARM_MS} ms for 15 minutes`, p99, { threshold: LATENCY_P99_ALARM_MS, evaluationPeriods: 3 });
      serverErrors.push(fivexx.with({ label: `${name} 5xx` }));
      latencies.push(p99.with({ label: `${name} p99` }));
    }

    const machineMetrics: cloudwatch.IMetric[] = [];
    const machines = props.root.node.findAll().filter((c): c is sfn.StateMachine => c instanceof sfn.StateMachine);
    for (const machine of machines) {
      const name = machine.node.id;
      const failed = machine.metricFailed({ period: PERIOD, statistic: 'Sum' });
      const timedOut = machine.metricTimedOut({ period: PERIOD, statistic: 'Sum' });
      alarm(`${name}ExecutionsFailed`, `${name}: an execution failed`, failed);
      alarm(`${name}ExecutionsTimedOut`, `${name}: an execution timed out`, timedOut);
      machineMetrics.push(failed.with({ label: `${name} failed` }), timedOut.with({ label: `${name} timed out` }));
    }

    const deadLetters: cloudwatch.IMetric[] = [];
    const queues = props.root.node.findAll().filter((c): c is sqs.Queue => c instanceof sqs.Queue);
    for (const queue of queues) {
      const name = queue.node.id;
      const visible = queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' });
      alarm(`${name}Visible`, `${name}: a scheduled start gave up and waits in the dead-letter queue`, visible);
      deadLetters.push(visible.with({ label: name }));
    }

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: props.dashboardName,
      defaultInterval: Duration.hours(6),
      widgets: [
        // An alarm status widget shows at most 100 alarms: one more widget per hundred.
        chunks([...this.alarms, ...(props.otherAlarms ?? [])], ALARMS_PER_WIDGET).map(
          (alarms, i) => new cloudwatch.AlarmStatusWidget({ title: i === 0 ? 'Alarms' : `Alarms (${i + 1})`, alarms, width: 24, height: 8 }),
        ),
        [
          new cloudwatch.GraphWidget({ title: 'Lambda errors', left: errors, width: 12, stacked: true }),
          new cloudwatch.GraphWidget({ title: 'Lambda throttles', left: throttles, width: 12, stacked: true }),
        ],
        [
          new cloudwatch.GraphWidget({ title: 'HTTP API 5xx', left: serverErrors, width: 12 }),
          new cloudwatch.GraphWidget({ title: 'HTTP API p99 latency (ms)', left: latencies, width: 12 }),
        ],
        [
          new cloudwatch.GraphWidget({ title: 'State machines: failed and timed-out executions', left: machineMetrics, width: 12 }),
          new cloudwatch.GraphWidget({ title: 'Schedules: dead letters', left: deadLetters, width: 12 }),
        ],
      ],
    });
  }
}
