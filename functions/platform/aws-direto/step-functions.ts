import type * as Sfn from '@aws-sdk/client-sfn';
import type { Servico } from './chamada';
import { ClienteAws, comando } from './comando';

/** Step Functions in its AWS JSON 1.0 protocol (chamada.ts), with the SDK's command names. */
export const SFN: Servico = { assinatura: 'states', host: 'states', variavel: 'SFN', json: { versao: '1.0', alvo: 'AWSStepFunctions' } };

export class StartExecutionCommand extends comando<Sfn.StartExecutionCommandInput, Sfn.StartExecutionCommandOutput>('StartExecution') {}
export class DescribeExecutionCommand extends comando<Sfn.DescribeExecutionCommandInput, Sfn.DescribeExecutionCommandOutput>('DescribeExecution') {}

export class SFNClient extends ClienteAws {
  constructor() {
    super(SFN);
  }
}
