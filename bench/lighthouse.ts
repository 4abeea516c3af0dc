/**
 * Lighthouse on the production build (issue 29 item 3): the login page, Faturas and Clientes (and, when
 * named in BENCH_LIGHTHOUSE_PAGES, the lists of users and of institutions), with
 * Lighthouse's default mobile preset (a mid-range phone's screen, 4× CPU slowdown, slow 4G simulated),
 * in Debian's Chromium, against a twin of its own serving web/dist as CloudFront does: compressed, the
 * same security headers and CSP, over HTTP/2 and TLS (h2-front.ts: browsers reach the distribution over
 * HTTP/2 or 3, its `http2and3`, while the twin's own port speaks HTTP/1.1). The list pages are
 * measured signed in as the demo administrator: the session is put in the tab's sessionStorage as the portal
 * keeps it, and Lighthouse keeps the tab's storage.
 *
 * Reports, per page, the four category scores (0–100) and the largest contentful paint in ms, of the
 * median run by performance of `BENCH_LIGHTHOUSE_RUNS` (3; Lighthouse's own advice against its run-to-run
 * variance), with every run's performance score. Aims: performance ≥ 90 and LCP ≤ 2,500 ms on each
 * page (issue 29 for the login page, issue 39 for Faturas and the other list pages, here Clientes). A
 * miss is printed, never a failure: timings belong here, not in a test.
 *
 * Alone: `npm run build -w web && npx tsx bench/lighthouse.ts` (the result is printed as JSON, last line).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import puppeteer, { type Page } from 'puppeteer-core';
import { startH2Front } from './h2-front';
import { startOwnTwin } from './twin-process';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The flags the e2e suite gives Debian's Chromium (no sandbox in CI containers, nothing phoning home). */
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--headless=new'];
/** The twin's local CA signs the HTTP/2 front's certificate (h2-front.ts). */
const ACCEPT_LOCAL_CA = ['--ignore-certificate-errors'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
/** The list pages of the signed-in area the bench can measure, by name. */
const LIST_PAGES = {
  faturas: '/app/fatura/consultarFatura',
  // Another list page, another feature's code (issue 39: every list page).
  clientes: '/app/cliente',
  usuarios: '/app/user',
  instituicoes: '/app/consulta/instituicaoFinanceira',
} as const;
type ListPageName = keyof typeof LIST_PAGES;
/**
 * `BENCH_LIGHTHOUSE_PAGES=faturas,usuarios`: the pages to measure, `login` and the names of LIST_PAGES;
 * by default the login page, Faturas and Clientes.
 */
const PAGES = new Set((process.env.BENCH_LIGHTHOUSE_PAGES ?? 'login,faturas,clientes').split(','));

export interface PageScores {
  url: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
  /** The performance score of every run, in order; the figures above are the median run's. */
  runs: number[];
  /** The aims of issues 29 and 39 for this page. */
  meetsAim: boolean;
}

export async function lighthouseScores(): Promise<Partial<Record<'login' | ListPageName, PageScores>>> {
  const served = await startTwin();
  const front = await startH2Front(served, join(root, 'web/dist'));
  const twin = { url: front.url };
  const browser = await puppeteer.launch({ executablePath: process.env.PLAC_CHROMIUM ?? '/usr/bin/chromium', args: [...CHROMIUM_ARGS, ...ACCEPT_LOCAL_CA] });
  try {
    const page = await browser.newPage();
    const cdp = await page.createCDPSession();
    // Every run a first visit: nothing in the HTTP cache. (Lighthouse clears it itself only together
    // with the storage, which would sign Faturas out.)
    const firstVisit = async (url: string) => (await cdp.send('Network.clearBrowserCache'), audit(page, url));
    const scores: Partial<Record<'login' | ListPageName, PageScores>> = {};
    if (PAGES.has('login')) scores.login = await median(() => firstVisit(`${twin.url}/`), 90, true);
    // Signed in as the demo administrator: the portal's session as the login form would leave it.
    const session = await signIn(served.url);
    await page.goto(`${twin.url}/`, { waitUntil: 'load' });
    await page.evaluate((value) => sessionStorage.setItem('plac-fate.session', value), JSON.stringify({ ...session, filters: {}, reportProcessing: null }));
    for (const [name, path] of Object.entries(LIST_PAGES) as [ListPageName, string][]) {
      if (PAGES.has(name)) scores[name] = await median(() => firstVisit(`${twin.url}${path}`), 90, true);
    }
    return scores;
  } finally {
    await browser.close();
    await front.close();
    await served.stop();
  }
}

type Scores = Omit<PageScores, 'runs' | 'meetsAim'>;

/** The run of median performance among RUNS, with each run's score. */
async function median(run: () => Promise<Scores>, aim: number, lcpAim: boolean): Promise<PageScores> {
  const all: Scores[] = [];
  for (let i = 0; i < RUNS; i++) all.push(await run());
  const middle = [...all].sort((a, b) => a.performance - b.performance)[Math.floor(all.length / 2)]!;
  return { ...middle, runs: all.map((r) => r.performance), meetsAim: middle.performance >= aim && (!lcpAim || middle.lcpMs <= 2500) };
}

async function audit(page: Page, url: string): Promise<Scores> {
  // Storage kept so the signed-in session survives (the caller clears the cache).
  const result = await lighthouse(url, { output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES], disableStorageReset: true }, undefined, page);
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { categories, audits, finalDisplayedUrl, runtimeError } = result.lhr;
  // PLAC_LIGHTHOUSE_DIR: keep each page's whole report (JSON) there, to read what the scores come from.
  const keep = process.env.PLAC_LIGHTHOUSE_DIR;
  if (keep) {
    mkdirSync(keep, { recursive: true });
    const name = new URL(url).pathname.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'login';
    writeFileSync(join(keep, `${name}-${Date.now()}.json`), JSON.stringify(result.lhr));
  }
  if (runtimeError) throw new Error(`Lighthouse on ${url}: ${runtimeError.code} ${runtimeError.message}`);
  // A redirect to the login page would measure the wrong page.
  if (new URL(finalDisplayedUrl).pathname !== new URL(url).pathname) throw new Error(`Lighthouse on ${url} ended on ${finalDisplayedUrl}`);
  const score = (id: (typeof CATEGORIES)[number]) => Math.round((categories[id]?.score ?? 0) * 100);
  const ms = (id: string) => Math.round(audits[id]?.numericValue ?? NaN);
  return {
    url: new URL(url).pathname,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: ms('largest-contentful-paint'),
    fcpMs: ms('first-contentful-paint'),
    tbtMs: ms('total-blocking-time'),
    cls: Math.round((audits['cumulative-layout-shift']?.numericValue ?? NaN) * 1000) / 1000,
  };
}

async function signIn(url: string): Promise<{ user: unknown; token: string }> {
  const { DEMO_PASSWORD } = await import('../infra/local/demo-data');
  const r = await fetch(`${url}/api/v1/authenticate/sefaz`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@plac.local', password: DEMO_PASSWORD }),
  });
  if (!r.ok) throw new Error(`the demo administrator could not sign in: ${r.status} ${await r.text()}`);
  // Then the code step of the demo administrator's second factor (issue 42).
  const { concluirLogin } = await import('../infra/local/segundo-fator-demo');
  return concluirLogin(url, (await r.json()) as { user: unknown; token: string });
}

/** A twin of its own serving the built portal, with the demo data and no scheduled work. */
async function startTwin() {
  // The built portal must be there: the twin answers a hint instead of index.html otherwise.
  readFileSync(join(root, 'web/dist/index.html'));
  return startOwnTwin('dist');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const scores = await lighthouseScores();
  console.log(JSON.stringify(scores));
}
