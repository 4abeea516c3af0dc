/**
 * The operations alarms and dashboard (constructs/alarms.ts) in a stack of their own: they watch the
 * API stack's functions, APIs, state machines and schedule dead-letter queues, and with the mTLS API
 * and the Sefaz schedule the API stack alone is within a few resources of CloudFormation's 500 per
 * stack. Stateless: destroying it removes only alarms and the dashboard.
 */
import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { AppConfig } from '../config';
import { OperationsAlarms } from '../constructs/alarms';
import type { ApiStack } from './api-stack';
import type { DataStack } from './data-stack';

export interface OperationsStackProps extends StackProps {
  readonly config: AppConfig;
  readonly data: DataStack;
  readonly api: ApiStack;
}

export class OperationsStack extends Stack {
  readonly operations: OperationsAlarms;

  constructor(scope: Construct, id: string, props: OperationsStackProps) {
    super(scope, id, props);
    const { api, data, config } = props;
    this.operations = new OperationsAlarms(this, 'Operations', {
      topic: data.alarmTopic,
      functions: api.functions,
      apis: { WebApi: api.webApi.api, ...(api.mtlsApi ? { MtlsApi: api.mtlsApi.api } : {}) },
      root: api,
      otherAlarms: data.queueAlarms,
      dashboardName: `plac-${config.stage}`,
    });
  }
}
