import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailCapture, type CapturedMail, type MailCapture } from './mail';
import { freePort } from './ports';

describe('e-mail capture (SES v2 SendEmail)', () => {
  let dataDir: string;
  let port: number;
  let mail: MailCapture;
  let ses: SESv2Client;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'plac-mail-'));
    port = await freePort();
    mail = await startMailCapture({ dataDir, port });
    ses = new SESv2Client({ endpoint: mail.url, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  });
  afterAll(async () => {
    ses.destroy();
    await mail.stop();
    await mail.stop(); // a second stop is harmless
    await rm(dataDir, { recursive: true, force: true });
  });

  const send = (to: string, subject: string, html?: string) =>
    ses.send(
      new SendEmailCommand({
        FromEmailAddress: 'PLAC Fat-e <nao-responda@plac.example>',
        Destination: { ToAddresses: [`Fulano <${to}>`], CcAddresses: ['copia@plac.example'], BccAddresses: ['oculta@plac.example'] },
        Content: {
          Simple: {
            Subject: { Data: subject, Charset: 'UTF-8' },
            Body: {
              Text: { Data: 'Use o código 123456.', Charset: 'UTF-8' },
              ...(html ? { Html: { Data: html, Charset: 'UTF-8' } } : {}),
            },
          },
        },
      }),
    );

  it('captures what SendEmailCommand sends and lists it by recipient, newest first', async () => {
    const first = await send('maria@cliente.example', 'Redefinição de senha');
    const second = await send('maria@cliente.example', 'Token de degustação');
    await send('joao@cliente.example', 'Outro assunto');
    expect(first.MessageId).toMatch(/^[0-9a-f-]{36}$/);

    const forMaria = mail.list('MARIA@cliente.example');
    expect(forMaria.map((m) => m.subject)).toEqual(['Token de degustação', 'Redefinição de senha']);
    expect(forMaria[0]).toMatchObject({
      id: second.MessageId,
      from: 'PLAC Fat-e <nao-responda@plac.example>',
      to: ['Fulano <maria@cliente.example>'],
      cc: ['copia@plac.example'],
      bcc: ['oculta@plac.example'],
      text: 'Use o código 123456.',
    });
    // Cc and Bcc recipients find their copies too.
    expect(mail.list('oculta@plac.example')).toHaveLength(3);

    const api = (await (await fetch(`${mail.url}/api/messages?to=joao@cliente.example`)).json()) as CapturedMail[];
    expect(api.map((m) => m.subject)).toEqual(['Outro assunto']);
  });

  it('shows the messages in pt-BR pages with every captured value escaped', async () => {
    const evil = '<script>alert(1)</script>';
    const html = '<p onclick="x()">Olá, <b>Maria</b> & "equipe"</p>';
    const { MessageId } = await send('pagina@cliente.example', `Assunto ${evil}`, html);

    const list = await fetch(`${mail.url}/`);
    expect(list.headers.get('content-type')).toContain('text/html');
    expect(list.headers.get('content-security-policy')).toContain("default-src 'none'");
    const listHtml = await list.text();
    expect(listHtml).toContain('Mensagens capturadas');
    expect(listHtml).toMatch(/<th>Data<\/th><th>De<\/th><th>Para<\/th><th>Assunto<\/th>/);
    expect(listHtml).toContain('Assunto &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(listHtml).not.toContain(evil);

    const page = await (await fetch(`${mail.url}/messages/${MessageId}`)).text();
    expect(page).not.toContain(evil);
    expect(page).toContain(
      '<iframe sandbox="allow-popups allow-popups-to-escape-sandbox" title="Corpo HTML da mensagem" ' +
        'srcdoc="&lt;base target=&quot;_blank&quot;&gt;&lt;p onclick=&quot;x()&quot;&gt;Olá, &lt;b&gt;Maria&lt;/b&gt; &amp; &quot;equipe&quot;&lt;/p&gt;">',
    );
    expect(page).toContain('<pre>Use o código 123456.</pre>');

    const missing = await fetch(`${mail.url}/messages/00000000-0000-0000-0000-000000000000`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Mensagem não encontrada');
  });

  it('answers a request it cannot capture with a BadRequestException', async () => {
    await expect(
      ses.send(new SendEmailCommand({ FromEmailAddress: 'a@plac.example', Destination: { ToAddresses: ['b@plac.example'] }, Content: { Raw: { Data: new Uint8Array([1]) } } })),
    ).rejects.toMatchObject({ name: 'BadRequestException', message: 'The local e-mail capture supports Content.Simple only.' });
  });

  it('keeps messages across a restart and clears them on DELETE /api/messages', async () => {
    const before = mail.list().length;
    expect(before).toBeGreaterThan(0);
    await mail.stop();
    mail = await startMailCapture({ dataDir, port });
    expect(mail.list()).toHaveLength(before);

    const cleared = await fetch(`${mail.url}/api/messages`, { method: 'DELETE' });
    expect(cleared.status).toBe(204);
    expect(mail.list()).toEqual([]);
  });
});
