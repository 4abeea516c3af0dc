import type * as Sqs from '@aws-sdk/client-sqs';
import type { Servico } from './chamada';
import { ClienteAws, comando } from './comando';

/** SQS in its AWS JSON 1.0 protocol (chamada.ts), with the SDK's command names. */
export const SQS: Servico = { assinatura: 'sqs', host: 'sqs', variavel: 'SQS', json: { versao: '1.0', alvo: 'AmazonSQS' } };

export class SendMessageCommand extends comando<Sqs.SendMessageCommandInput, Sqs.SendMessageCommandOutput>('SendMessage') {}
export class SendMessageBatchCommand extends comando<Sqs.SendMessageBatchCommandInput, Sqs.SendMessageBatchCommandOutput>('SendMessageBatch') {}
export class ChangeMessageVisibilityCommand extends comando<Sqs.ChangeMessageVisibilityCommandInput, Sqs.ChangeMessageVisibilityCommandOutput>('ChangeMessageVisibility') {}
export class ReceiveMessageCommand extends comando<Sqs.ReceiveMessageCommandInput, Sqs.ReceiveMessageCommandOutput>('ReceiveMessage') {}
export class DeleteMessageBatchCommand extends comando<Sqs.DeleteMessageBatchCommandInput, Sqs.DeleteMessageBatchCommandOutput>('DeleteMessageBatch') {}
export class CreateQueueCommand extends comando<Sqs.CreateQueueCommandInput, Sqs.CreateQueueCommandOutput>('CreateQueue') {}
export class GetQueueAttributesCommand extends comando<Sqs.GetQueueAttributesCommandInput, Sqs.GetQueueAttributesCommandOutput>('GetQueueAttributes') {}

export class SQSClient extends ClienteAws {
  constructor() {
    super(SQS);
  }
}
