/**
 * The e-mail capture's pages, in pt-BR like the portal. Kept apart from the server so the escaping
 * rules are in one place: every captured value is untrusted text and is escaped; the message's HTML
 * body is shown only inside an iframe with `sandbox` (no scripts, no same-origin, no forms) through
 * `srcdoc`, escaped as an attribute value, under a CSP that blocks every remote fetch.
 */
import type { CapturedMail } from './mail-captured';

const dateFormat = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Bahia', // the portal shows times in Bahia time (docs/architecture.md, "Conventions")
  dateStyle: 'short',
  timeStyle: 'medium',
});

const style = `
  body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #1f2933; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid #d9e2ec; vertical-align: top; }
  th { background: #f0f4f8; }
  a { color: #0b69a3; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
  dt { font-weight: 600; }
  pre { white-space: pre-wrap; background: #f0f4f8; padding: .8rem; }
  iframe { width: 100%; height: 60vh; border: 1px solid #d9e2ec; }
  .aviso { color: #52606d; }
`;

export function renderMessageList(messages: readonly CapturedMail[]): string {
  const rows = messages
    .map(
      (m) => `<tr>
        <td>${escapeHtml(formatDate(m.date))}</td>
        <td>${escapeHtml(m.from)}</td>
        <td>${escapeHtml(m.to.join(', '))}</td>
        <td><a href="/messages/${encodeURIComponent(m.id)}">${escapeHtml(m.subject || '(sem assunto)')}</a></td>
      </tr>`,
    )
    .join('\n');
  const body = messages.length
    ? `<table>
        <thead><tr><th>Data</th><th>De</th><th>Para</th><th>Assunto</th></tr></thead>
        <tbody>${rows}</tbody>
      </table>`
    : '<p class="aviso">Nenhuma mensagem capturada.</p>';
  return page(
    'Mensagens capturadas',
    `<h1>Mensagens capturadas</h1>
     <p class="aviso">E-mails enviados pelo ambiente local. Nada é entregue de verdade.</p>
     ${body}`,
  );
}

export function renderMessage(mail: CapturedMail | undefined): string {
  if (!mail) {
    return page('Mensagem não encontrada', '<p>Mensagem não encontrada.</p><p><a href="/">Voltar</a></p>');
  }
  const field = (label: string, values: readonly string[]): string =>
    values.length ? `<dt>${label}</dt><dd>${escapeHtml(values.join(', '))}</dd>` : '';
  // Links (password reset, registration) must stay clickable: <base target="_blank"> plus the two
  // popup permissions open them in a normal tab, while scripts, forms and same-origin stay forbidden.
  const html = mail.html
    ? `<h2>HTML</h2><iframe sandbox="allow-popups allow-popups-to-escape-sandbox" title="Corpo HTML da mensagem" srcdoc="${escapeHtml(`<base target="_blank">${mail.html}`)}"></iframe>`
    : '';
  const text = mail.text !== undefined ? `<h2>Texto</h2><pre>${escapeHtml(mail.text)}</pre>` : '';
  return page(
    mail.subject || '(sem assunto)',
    `<p><a href="/">← Todas as mensagens</a></p>
     <h1>${escapeHtml(mail.subject || '(sem assunto)')}</h1>
     <dl>
       <dt>Data</dt><dd>${escapeHtml(formatDate(mail.date))}</dd>
       ${field('De', [mail.from])}
       ${field('Para', mail.to)}
       ${field('Cc', mail.cc)}
       ${field('Cco', mail.bcc)}
       ${field('Responder para', mail.replyTo)}
     </dl>
     ${html}
     ${text}`,
  );
}

/** Escapes text for element content and for double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
}

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — PLAC Fat-e (local)</title>
<style>${style}</style>
</head>
<body>
${content}
</body>
</html>`;
}
