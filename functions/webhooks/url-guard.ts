import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * SSRF guard for webhook targets: https only, and the host must not be (or resolve to) a private,
 * loopback, link-local or otherwise internal address. The local twin alone may allow http and
 * loopback (PLAC_WEBHOOK_ALLOW_LOCAL=1) so that tests can run a receiver on this machine.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 3],
] as const) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: 'url' | 'scheme' | 'address' };

export async function checkWebhookUrl(raw: string, allowLocal = process.env.PLAC_WEBHOOK_ALLOW_LOCAL === '1'): Promise<UrlVerdict> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'url' };
  }
  if (url.protocol !== 'https:' && !(allowLocal && url.protocol === 'http:')) return { ok: false, reason: 'scheme' };
  if (url.username || url.password) return { ok: false, reason: 'url' };
  if (allowLocal) return { ok: true, url };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
  } catch {
    return { ok: false, reason: 'address' };
  }
  const internal = addresses.some(({ address, family }) => {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    if (mapped) return blocked.check(mapped, 'ipv4');
    return blocked.check(address, family === 6 ? 'ipv6' : 'ipv4');
  });
  return internal || addresses.length === 0 ? { ok: false, reason: 'address' } : { ok: true, url };
}
