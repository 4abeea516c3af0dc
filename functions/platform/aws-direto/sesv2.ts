import type * as Ses from '@aws-sdk/client-sesv2';
import type { Servico } from './chamada';
import { ClienteAws, comando } from './comando';

/** SES v2 in its REST-JSON protocol (chamada.ts), with the SDK's command name. */
export const SESV2: Servico = { assinatura: 'ses', host: 'email', variavel: 'SESV2' };

export class SendEmailCommand extends comando<Ses.SendEmailCommandInput, Ses.SendEmailCommandOutput>('SendEmail', { metodo: 'POST', caminho: '/v2/email/outbound-emails' }) {}

export class SESv2Client extends ClienteAws {
  constructor() {
    super(SESV2);
  }
}
