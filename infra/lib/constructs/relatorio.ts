/**
 * The report job (functions/consumo/relatorio-job.ts, docs/faturamento.md "Report jobs"): Passo → the
 * Choice Concluido, back to Passo until the file is complete → Done, with a Catch on Passo to
 * MarcarFalha (the job FALHA, so a new request starts it again) → Failed. Each Passo reads a bounded
 * number of pages of the request log and appends to the file's S3 multipart upload; everything the next
 * step needs is in the job's item, so the execution's state is only the job's id. JSONPath, Task and
 * Choice only: the same definition runs in AWS and in the twin. Started by the consumo and faturamento
 * APIs and by the billing run's shards (grant relatorio:start), named after the job and its attempt.
 *
 * A job of any length (issue 38): a Standard execution's history stops at 25,000 events and each loop
 * is about 7, so every PLAC_RELATORIO_PASSOS_POR_EXECUCAO steps (1,000) Passo starts the job's next
 * execution itself (`<jobId>-<attempt>-<n>`, the same input: idempotent) and answers `continuar`, and
 * this one ends in Continuado (Succeed). Not a StartExecution Task state: the twin's runner
 * (aws-local-stepfunctions) runs Lambda Tasks only. The task learns the machine's ARN from
 * `$$.Execution.Id` (its environment cannot hold it: the definition names the task), and may start it
 * through a policy of its own, which the function does not depend on (no cycle).
 */
import { relatorio, type TarefaContract } from '@plac/shared/contracts/tarefas';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { RELATORIO_STATES as S } from '../state-machines';
import { relatorioStateMachine } from '../topology';
import { FATURAMENTO_RETRY } from './faturamento';
import { lambdaTask, type CamposDaTarefa } from './lambda-task';
import { acknowledgeStateMachineRole } from './nag-acknowledgements';
import { LOG_RETENTION } from './plac-function';

export function relatorioMachine(scope: Construct, task: lambda.Function): sfn.StateMachine {
  const steps = new Construct(scope, `${relatorioStateMachine.id}Steps`);
  const invoke = <C extends TarefaContract>(name: string, contrato: C, campos: CamposDaTarefa<C>) =>
    lambdaTask(steps, name, task, contrato, campos, { retryOnServiceExceptions: false });

  const markFailed = invoke(S.markFailed, relatorio.marcarFalha, { 'jobId.$': '$.jobId', 'erro.$': '$.erro' }).next(
    new sfn.Fail(steps, S.failed, { error: 'RelatorioFalhou', cause: 'The report job failed; see the job record and the task logs.' }),
  );
  // A step run again reads the same job item and writes its result only once (conditional on the step number).
  const step = invoke(S.step, relatorio.passo, { 'jobId.$': '$.jobId', 'execucaoId.$': '$$.Execution.Id', 'execucao.$': '$$.Execution.Name' })
    .addRetry(FATURAMENTO_RETRY)
    .addCatch(markFailed, { resultPath: '$.erro' });
  const done = new sfn.Choice(steps, S.done)
    .when(sfn.Condition.booleanEquals('$.concluido', true), new sfn.Succeed(steps, S.finished))
    // The next execution was started by the step: this one ends here, its history short.
    .when(sfn.Condition.and(sfn.Condition.isPresent('$.continuar'), sfn.Condition.booleanEquals('$.continuar', true)), new sfn.Succeed(steps, S.continued))
    .otherwise(step);
  const definition = step.next(done);

  const machine = new sfn.StateMachine(scope, relatorioStateMachine.id, {
    definitionBody: sfn.DefinitionBody.fromChainable(definition),
    stateMachineType: sfn.StateMachineType.STANDARD,
    // One execution: at most PLAC_RELATORIO_PASSOS_POR_EXECUCAO (1,000) steps of seconds each, 25 M lines at 25,000 a step.
    timeout: Duration.hours(6),
    tracingEnabled: true,
    logs: {
      destination: new logs.LogGroup(scope, `${relatorioStateMachine.id}Logs`, { retention: LOG_RETENTION, removalPolicy: RemovalPolicy.RETAIN }),
      // Every state transition (which step ran, how long, which failed), never the payloads: they carry
      // CNPJs and amounts, and the step's own function logs what it did.
      level: sfn.LogLevel.ALL,
      includeExecutionData: false,
    },
  });
  acknowledgeStateMachineRole(machine);
  // The task starts the job's next execution of this machine: a policy apart from the function's own
  // (which the machine's definition, naming the function, would make a cycle of).
  new iam.Policy(scope, `${relatorioStateMachine.id}Continuacao`, {
    roles: [task.role!],
    statements: [new iam.PolicyStatement({ actions: ['states:StartExecution'], resources: [machine.stateMachineArn] })],
  });
  return machine;
}
