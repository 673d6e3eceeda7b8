import ipaddr from 'ipaddr.js';

/**
 * Which addresses a webhook may connect to: public unicast only. Refused: private (10/8, 172.16/12, 192.168/16),
 * loopback, link-local (169.254/16 with the cloud metadata address 169.254.169.254, fe80::/10), CGNAT (100.64/10),
 * unique-local IPv6 (fc00::/7, with AWS's fd00:ec2::254), unspecified, multicast, broadcast and the reserved and
 * translation ranges. IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it carries.
 * `allowLoopback` admits 127/8 and ::1 (local runs and tests only: WEBHOOKS_ALLOW_LOOPBACK).
 */
export function addressAllowed(address: string, allowLoopback: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  const range = ip.range();
  if (range === 'unicast') return true;
  return range === 'loopback' && allowLoopback;
}

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

/** The URL's form: absolute http(s), https only when `httpsOnly`, no credentials in it. */
export function checkUrlForm(raw: string, httpsOnly: boolean): UrlVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not an absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'the scheme must be https' };
  if (httpsOnly && url.protocol !== 'https:') return { ok: false, reason: 'the scheme must be https' };
  if (url.username || url.password) return { ok: false, reason: 'credentials in the URL are not allowed (they would be shown and logged)' };
  if (!url.hostname) return { ok: false, reason: 'the URL has no host' };
  return { ok: true, url };
}

/** The host of a URL as an address literal (without IPv6 brackets), or undefined for a name. */
export function literalAddressOf(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(host) ? host : undefined;
}
