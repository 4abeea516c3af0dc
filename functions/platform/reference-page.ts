import { contracts, type AnyContract } from '@plac/shared/contracts';
import { MESSAGES } from '@plac/shared/messages';
import { accessText, schemaOf } from '@plac/shared/openapi';

/**
 * The integrators' reference page (/api/docs): rendered on the server from the contract table, with
 * no script and no external asset, so that it works behind the strict CSP and without a CDN.
 */
export function referencePage(version: string): string {
  const byContext = new Map<string, AnyContract[]>();
  for (const contract of contracts) byContext.set(contract.context, [...(byContext.get(contract.context) ?? []), contract]);
  const sections = [...byContext]
    .map(([context, list]) => `<section><h2>${esc(context)}</h2>${list.map(endpoint).join('')}</section>`)
    .join('');
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>PLAC Fat-e — Referência da API</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;color:#1f2937;background:#f8faf9}
header{background:#15803d;color:#fff;padding:1rem 2rem}main{max-width:72rem;margin:0 auto;padding:1rem 2rem}
h2{border-bottom:2px solid #15803d;padding-bottom:.25rem;text-transform:capitalize}
article{background:#fff;border:1px solid #d1d5db;border-radius:6px;margin:1rem 0;padding:.75rem 1rem}
.m{display:inline-block;min-width:4.5rem;font-weight:700;color:#fff;border-radius:4px;text-align:center;padding:.1rem .4rem;margin-right:.5rem}
.GET{background:#2563eb}.POST{background:#15803d}.PUT{background:#b45309}.DELETE{background:#b91c1c}.PATCH{background:#7c3aed}
code,pre{font-family:ui-monospace,monospace;font-size:.85rem}pre{background:#f3f4f6;padding:.5rem;overflow:auto}
</style></head><body>
<header><h1>PLAC Fat-e — Referência da API</h1><p>Versão ${esc(version)} · documento OpenAPI 3.1: <a style="color:#fff" href="/api/v1/openapi.json">/api/v1/openapi.json</a></p></header>
<main>
<p>Autentique-se com <code>Authorization: Bearer &lt;token&gt;</code>. Erros respondem <code>{ "error": "&lt;chave&gt;", "message": "&lt;texto&gt;" }</code> ou <code>{ "errors": { "&lt;campo&gt;": ["&lt;texto&gt;"] } }</code>; chaves que começam com <code>token_</code> indicam que é preciso autenticar-se novamente.</p>
${sections}
</main></body></html>`;
}

function endpoint(c: AnyContract): string {
  const parts = [
    c.params && block('Parâmetros de caminho', schemaOf(c.params, 'input')),
    c.query && block('Parâmetros de consulta', schemaOf(c.query, 'input')),
    c.body && block('Corpo da requisição', schemaOf(c.body, 'input')),
    block(`Resposta ${c.status ?? 200}`, schemaOf(c.response, 'output')),
  ].filter(Boolean);
  const errors = c.errors.length
    ? `<p>Erros: ${c.errors.map((key) => `<code>${esc(key)}</code> ${esc(MESSAGES[key])}`).join('; ')}</p>`
    : '';
  return `<article id="${esc(c.id)}"><p><span class="m ${c.method}">${c.method}</span><code>${esc(c.path)}</code></p>
<p>${esc(c.summary)}</p><p>Acesso: ${esc(accessText(c))}${c.channel === 'mtls' ? ' · somente no domínio com TLS mútuo' : ''}</p>${errors}${parts.join('')}</article>`;
}

function block(title: string, schema: unknown): string {
  return `<details><summary>${esc(title)}</summary><pre>${esc(JSON.stringify(schema, null, 2))}</pre></details>`;
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
