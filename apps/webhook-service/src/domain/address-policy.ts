import ipaddr from 'ipaddr.js';

/**
 * Which addresses a webhook may connect to: public unicast only. Refused: private (10/8, 172.16/12, 192.168/16),
 * loopback, link-local (169.254/16 with the cloud metadata address 169.254.169.254, fe80::/10), CGNAT (100.64/10),
 * unique-local IPv6 (fc00::/7, with AWS's fd00:ec2::254), unspecified, multicast, broadcast and the reserved and
 * translation ranges (NAT64 64:ff9b::/96 and /48, 6to4, Teredo, SIIT ::ffff:0:0:0/96). IPv4-mapped IPv6
 * (::ffff:127.0.0.1, ::ffff:a00:1) is judged as the IPv4 address it carries; so is the deprecated IPv4-compatible
 * form (::a00:1, which a URL `[::10.0.0.1]` becomes), which ipaddr.js calls unicast: it is allowed only when the
 * address it carries is public (never as loopback: only 127/8 and ::1 are).
 * `allowLoopback` admits 127/8 and ::1 (local runs and tests only: WEBHOOKS_ALLOW_LOOPBACK).
 */
export function addressAllowed(address: string, allowLoopback: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address();
    else if (isIPv4Compatible(v6)) return ipaddr.fromByteArray(v6.toByteArray().slice(12)).range() === 'unicast';
  }
  const range = ip.range();
  if (range === 'unicast') return true;
  return range === 'loopback' && allowLoopback;
}

/** ::/96 but :: and ::1 (their own ranges): the IPv4-compatible addresses of RFC 4291 (deprecated), ::a.b.c.d. */
function isIPv4Compatible(ip: ipaddr.IPv6): boolean {
  const p = ip.parts;
  return p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7]! > 1);
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
