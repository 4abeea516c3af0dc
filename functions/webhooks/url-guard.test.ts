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
    // IPv4 hidden in IPv6, and special-purpose IPv6 ranges
    ['https://[::127.0.0.1]/hook', 'address'],
    ['https://[::7f00:1]/hook', 'address'],
    ['https://[64:ff9b::7f00:1]/hook', 'address'],
    ['https://[2002:7f00:1::]/hook', 'address'],
    ['https://[100::1]/hook', 'address'],
    ['https://[2001:db8::1]/hook', 'address'],
    ['https://[2001::1]/hook', 'address'],
    ['https://[fe80::1]/hook', 'address'],
    ['https://[ff02::1]/hook', 'address'],
    ['https://[::]/hook', 'address'],
    // IPv4 special-purpose ranges and other spellings of loopback
    ['https://100.64.0.1/hook', 'address'],
    ['https://192.0.2.1/hook', 'address'],
    ['https://198.18.0.1/hook', 'address'],
    ['https://240.0.0.1/hook', 'address'],
    ['https://255.255.255.255/hook', 'address'],
    ['https://0.0.0.0/hook', 'address'],
    ['https://0x7f.1/hook', 'address'],
    ['https://2130706433/hook', 'address'],
  ])('refuses %s (%s)', async (url, reason) => {
    expect(await checkWebhookUrl(url, false)).toEqual({ ok: false, reason });
  });

  it.each(['https://8.8.8.8/hook', 'https://[2606:4700:4700::1111]/hook', 'https://[2001:4860:4860::8888]:8443/hook', 'https://[::ffff:8.8.8.8]/hook'])(
    'accepts the public https address %s',
    async (url) => {
      expect((await checkWebhookUrl(url, false)).ok).toBe(true);
    },
  );

  it('lets the local twin use http on loopback', async () => {
    expect((await checkWebhookUrl('http://127.0.0.1:9000/hook', true)).ok).toBe(true);
  });

  it('refuses a host name that resolves to a private address at delivery time (localhost → 127.0.0.1)', async () => {
    expect(await checkWebhookUrl('https://localhost/hook', false)).toEqual({ ok: false, reason: 'address' });
  });

  it('hands over the checked address, for the connection to be pinned to it', async () => {
    expect(await checkWebhookUrl('https://8.8.8.8/hook', false)).toMatchObject({ ok: true, address: { address: '8.8.8.8', family: 4 } });
    expect(await checkWebhookUrl('https://[2606:4700:4700::1111]/hook', false)).toMatchObject({ ok: true, address: { address: '2606:4700:4700::1111', family: 6 } });
  });
});
