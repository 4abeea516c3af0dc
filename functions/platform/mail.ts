import { SendEmailCommand, SESv2Client } from './aws-direto/sesv2';

/** E-mail through SES (the twin captures it). The sender comes from MAIL_FROM. */
let ses: SESv2Client | undefined;

export interface Mail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

export async function sendMail(mail: Mail): Promise<void> {
  ses ??= new SESv2Client();
  await ses.send(
    new SendEmailCommand({
      FromEmailAddress: process.env.MAIL_FROM ?? 'PLAC Fat-e <nao-responda@plac.local>',
      Destination: { ToAddresses: mail.to },
      Content: {
        Simple: {
          Subject: { Data: mail.subject, Charset: 'UTF-8' },
          Body: { Text: { Data: mail.text, Charset: 'UTF-8' }, Html: { Data: mail.html, Charset: 'UTF-8' } },
        },
      },
    }),
  );
}

/** The portal's public address, for links in e-mails. */
export function portalUrl(path: string): string {
  return (process.env.PORTAL_URL ?? 'http://localhost:3000').replace(/\/$/, '') + path;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
