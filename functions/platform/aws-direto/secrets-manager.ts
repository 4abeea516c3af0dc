import type * as Sm from '@aws-sdk/client-secrets-manager';
import type { Servico } from './chamada';
import { ClienteAws, comando } from './comando';

/** Secrets Manager in its AWS JSON 1.1 protocol (chamada.ts), with the SDK's command names. */
export const SECRETS_MANAGER: Servico = { assinatura: 'secretsmanager', host: 'secretsmanager', variavel: 'SECRETS_MANAGER', json: { versao: '1.1', alvo: 'secretsmanager' } };

export class GetSecretValueCommand extends comando<Sm.GetSecretValueCommandInput, Sm.GetSecretValueCommandOutput>('GetSecretValue') {}
export class DescribeSecretCommand extends comando<Sm.DescribeSecretCommandInput, Sm.DescribeSecretCommandOutput>('DescribeSecret') {}
export class PutSecretValueCommand extends comando<Sm.PutSecretValueCommandInput, Sm.PutSecretValueCommandOutput>('PutSecretValue') {}
export class UpdateSecretVersionStageCommand extends comando<Sm.UpdateSecretVersionStageCommandInput, Sm.UpdateSecretVersionStageCommandOutput>('UpdateSecretVersionStage') {}

export class SecretsManagerClient extends ClienteAws {
  constructor() {
    super(SECRETS_MANAGER);
  }
}
