import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * SSRF guard for webhook targets: https only, no credentials in the URL, and every address the host
 * is or resolves to must be a global unicast address. Anything else is refused: loopback, private,
 * link-local, carrier-grade NAT, documentation and benchmarking ranges, multicast, and IPv4 hidden
 * in IPv6 (IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo). The ranges are
 * ipaddr.js's IANA special-purpose registries; an IPv6 address must also lie in 2000::/3, the only
 * block IANA allocates for global unicast. The local twin alone may allow http and loopback
 * (PLAC_WEBHOOK_ALLOW_LOCAL=1) so that tests can run a receiver on this machine.
 */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

export function isGlobalUnicast(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === 'unicast';
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
}

/**
 * `address`: the checked address the delivery must connect to (the first the host resolved to), so
 * that a second DNS answer between the check and the connection cannot point elsewhere (DNS
 * rebinding). Absent only in the twin's local mode.
 */
export type UrlVerdict =
  | { ok: true; url: URL; address?: { address: string; family: 4 | 6 } }
  | { ok: false; reason: 'url' | 'scheme' | 'address' };

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
  // The URL parser has already normalised every spelling of an address (0x7f.1, [::127.0.0.1]).
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return { ok: false, reason: 'address' };
  }
  if (addresses.length === 0 || !addresses.every(isGlobalUnicast)) return { ok: false, reason: 'address' };
  const first = addresses[0]!;
  return { ok: true, url, address: { address: first, family: ipaddr.parse(first).kind() === 'ipv6' ? 6 : 4 } };
}
