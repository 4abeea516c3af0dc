import { describe, expect, it } from 'vitest';
import { checkWebhookUrl } from './url-guard';

describe('checkWebhookUrl (SSRF guard)', () => {
  it.each([
    ['http://example.com/hook', 'scheme'],
    ['ftp://example.com/hook', 'scheme'],
    ['not a url', 'url'],
    ['https://user:pw@example.com/hook', 'url'],
    ['https://127.0.0.1/hook', 'address'],
    ['https://10.1.2.3/hook', 'address'],
    ['https://172.20.0.1/hook', 'address'],
    ['https://192.168.0.10/hook', 'address'],
    ['https://169.254.169.254/latest/meta-data', 'address'],
    ['https://[::1]/hook', 'address'],
    ['https://[fd00::1]/hook', 'address'],
    ['https://[::ffff:127.0.0.1]/hook', 'address'],
    ['https://localhost/hook', 'address'],
  ])('refuses %s (%s)', async (url, reason) => {
    expect(await checkWebhookUrl(url, false)).toEqual({ ok: false, reason });
  });

  it('accepts a public https address', async () => {
    const verdict = await checkWebhookUrl('https://8.8.8.8/hook', false);
    expect(verdict.ok).toBe(true);
  });

  it('lets the local twin use http on loopback', async () => {
    expect((await checkWebhookUrl('http://127.0.0.1:9000/hook', true)).ok).toBe(true);
  });
});
