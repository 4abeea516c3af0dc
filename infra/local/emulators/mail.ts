/**
 * Local e-mail capture for the twin: a tiny server that speaks the one SES v2 call we use
 * (SendEmail, `POST /v2/email/outbound-emails`), so functions send mail with the real
 * @aws-sdk/client-sesv2 pointed at it (AWS_ENDPOINT_URL_SESV2). Nothing is delivered: each message is
 * kept as a JSON file in `<dataDir>/mail/` (it survives restarts, like the rest of `.data/`), a person
 * reads them at `GET /` (pt-BR pages) and tests read them at `GET /api/messages?to=`.
 *
 * The request signature is not checked (the twin uses placeholder credentials). Only `Content.Simple`
 * is supported; raw and templated messages are answered with SES's BadRequestException so that a
 * function using them fails loudly here instead of silently losing mail.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { assertPortFree, portEnvVars } from './ports';
import type { CapturedMail } from './mail-captured';
import { renderMessage, renderMessageList } from './mail-pages';

export type { CapturedMail } from './mail-captured';

export interface MailCapture {
  /** Base URL: the SES v2 endpoint and, in a browser, the list of captured messages. */
  readonly url: string;
  stop(): Promise<void>;
  /** Captured messages, newest first; `to` keeps those with that address among To, Cc or Bcc. */
  list(to?: string): CapturedMail[];
}

export interface MailCaptureOptions {
  /** The twin's data folder; messages are kept in `<dataDir>/mail/`. */
  dataDir: string;
  port: number;
}

/** SES limits a request to 10 MB of content; more is certainly a mistake. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

export async function startMailCapture(options: MailCaptureOptions): Promise<MailCapture> {
  await assertPortFree(options.port, 'the e-mail capture', portEnvVars.mail);
  const store = new MailStore(join(options.dataDir, 'mail'));

  const server = createServer((req, res) => {
    handle(store, req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { message: String(error) });
      else res.destroy();
    });
  });
  // Loopback only: the captured mail holds password-reset links and must not be readable from the LAN.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;

  let stopping: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    list: (to) => store.list(to),
    stop: () =>
      (stopping ??= new Promise<void>((resolve) => {
        // One event-loop turn after closing, so HTTP clients in this same process (tests that restart
        // the server) read the closed keep-alive sockets before their next request would reuse one.
        server.close(() => setImmediate(resolve));
        server.closeAllConnections(); // keep-alive sockets from SDK clients would hold close() open
      })),
  };
}

async function handle(store: MailStore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://mail.local');
  const path = url.pathname;

  if (req.method === 'POST' && path === '/v2/email/outbound-emails') {
    const body = await readJson(req);
    const mail = toCapturedMail(body);
    if (typeof mail === 'string') {
      // The shape SES uses for client errors, so the SDK raises a BadRequestException with our text.
      res.setHeader('x-amzn-ErrorType', 'BadRequestException');
      sendJson(res, 400, { message: mail });
      return;
    }
    store.save(mail);
    sendJson(res, 200, { MessageId: mail.id });
    return;
  }
  if (req.method === 'GET' && path === '/') {
    sendHtml(res, 200, renderMessageList(store.list()));
    return;
  }
  const match = /^\/messages\/([0-9a-f-]{36})$/.exec(path);
  if (req.method === 'GET' && match?.[1]) {
    const mail = store.get(match[1]);
    if (mail) sendHtml(res, 200, renderMessage(mail));
    else sendHtml(res, 404, renderMessage(undefined));
    return;
  }
  if (path === '/api/messages') {
    if (req.method === 'GET') {
      sendJson(res, 200, store.list(url.searchParams.get('to') ?? undefined));
      return;
    }
    if (req.method === 'DELETE') {
      store.clear();
      res.writeHead(204).end();
      return;
    }
  }
  sendJson(res, 404, { message: `No route for ${req.method} ${path}` });
}

/** Maps an SES v2 SendEmail request body to a stored message, or returns why it cannot. */
function toCapturedMail(body: unknown): CapturedMail | string {
  const request = asRecord(body);
  const destination = asRecord(request.Destination);
  const content = asRecord(request.Content);
  const simple = asRecord(content.Simple);
  if (!('Simple' in content)) return 'The local e-mail capture supports Content.Simple only.';
  const from = typeof request.FromEmailAddress === 'string' ? request.FromEmailAddress : '';
  if (!from) return 'FromEmailAddress is required.';
  const to = strings(destination.ToAddresses);
  const cc = strings(destination.CcAddresses);
  const bcc = strings(destination.BccAddresses);
  if (to.length + cc.length + bcc.length === 0) return 'Destination needs at least one address.';
  const bodyPart = asRecord(simple.Body);
  const text = asRecord(bodyPart.Text).Data;
  const html = asRecord(bodyPart.Html).Data;
  return {
    id: randomUUID(),
    date: nextCaptureDate(),
    from,
    to,
    cc,
    bcc,
    replyTo: strings(request.ReplyToAddresses),
    subject: String(asRecord(simple.Subject).Data ?? ''),
    ...(typeof text === 'string' ? { text } : {}),
    ...(typeof html === 'string' ? { html } : {}),
  };
}

let lastCapture = 0;
/** Capture time, strictly increasing so that "newest first" is well defined within the same millisecond. */
function nextCaptureDate(): string {
  lastCapture = Math.max(Date.now(), lastCapture + 1);
  return new Date(lastCapture).toISOString();
}

/** The messages on disk. Reads the folder on every call: it is small, and a reset may empty it. */
class MailStore {
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  save(mail: CapturedMail): void {
    writeFileSync(join(this.dir, `${mail.id}.json`), JSON.stringify(mail, null, 2));
  }

  get(id: string): CapturedMail | undefined {
    try {
      return JSON.parse(readFileSync(join(this.dir, `${id}.json`), 'utf8')) as CapturedMail;
    } catch {
      return undefined;
    }
  }

  list(to?: string): CapturedMail[] {
    const wanted = to?.trim().toLowerCase();
    const all = this.files().flatMap((file) => {
      const mail = this.get(file.slice(0, -'.json'.length));
      return mail ? [mail] : [];
    });
    return all
      .filter((mail) => !wanted || [...mail.to, ...mail.cc, ...mail.bcc].some((a) => addressOf(a) === wanted))
      .sort((a, b) => b.date.localeCompare(a.date));
  }

  clear(): void {
    for (const file of this.files()) rmSync(join(this.dir, file), { force: true });
  }

  private files(): string[] {
    mkdirSync(this.dir, { recursive: true }); // recreated if a reset removed it while running
    return readdirSync(this.dir).filter((name) => name.endsWith('.json'));
  }
}

/** `Fulano <fulano@x.com.br>` → `fulano@x.com.br`, so tests can look up by bare address. */
function addressOf(address: string): string {
  const angle = /<([^>]+)>/.exec(address);
  return (angle?.[1] ?? address).trim().toLowerCase();
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error('Request body too large.');
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return {};
  }
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res
    .writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      // The pages show untrusted HTML (in a sandboxed iframe); the policy forbids scripts everywhere and
      // any network fetch the captured HTML might attempt (tracking pixels, remote fonts).
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-src 'self'",
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    })
    .end(html);
}
