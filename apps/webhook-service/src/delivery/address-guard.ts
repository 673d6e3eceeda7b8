import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { addressAllowed, checkUrlForm, literalAddressOf } from '../domain/address-policy';

/** Resolves a host name to every address (node's dns.lookup; tests replace it to play DNS rebinding). */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>;
export const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

export class AddressNotAllowed extends Error {
  readonly code = 'EADDRNOTALLOWED';
}

/**
 * The connect-time guard (DNS rebinding): the socket's `lookup`, which resolves the host and refuses the
 * connection when any address it resolves to is not allowed, so a name that resolved to a public address when the
 * endpoint was created cannot point the delivery at an internal one later. A URL with an address literal never
 * reaches a lookup: the sender checks those itself (`literalAllowed`).
 */
export function guardedLookup(resolve: Resolve, allowLoopback: boolean) {
  return (
    hostname: string,
    options: { all?: boolean; family?: number | string } | number,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    const all = typeof options === 'object' && options.all === true;
    resolve(hostname).then(
      (addresses) => {
        const refused = addresses.find((a) => !addressAllowed(a.address, allowLoopback));
        if (refused || !addresses.length) {
          callback(new AddressNotAllowed(`${hostname} resolves to an address that is not allowed`), all ? [] : '', undefined);
          return;
        }
        if (all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, all ? [] : '', undefined),
    );
  };
}

/** Whether a URL whose host is an address literal may be called (undefined: the host is a name). */
export function literalAllowed(url: URL, allowLoopback: boolean): boolean | undefined {
  const literal = literalAddressOf(url);
  return literal === undefined ? undefined : addressAllowed(literal, allowLoopback);
}

/**
 * The creation-time check of an endpoint URL: its form (https in production, no credentials) and every address its
 * host resolves to now. Answers the reason it is refused, or undefined.
 */
export async function refusalOf(
  raw: string,
  opts: { httpsOnly: boolean; allowLoopback: boolean; resolve: Resolve },
): Promise<string | undefined> {
  const form = checkUrlForm(raw, opts.httpsOnly);
  if (!form.ok) return form.reason;
  const literal = literalAllowed(form.url, opts.allowLoopback);
  if (literal === false) return 'the address is private, loopback, link-local or otherwise not public';
  if (literal === true) return undefined;
  let addresses: LookupAddress[];
  try {
    addresses = await opts.resolve(form.url.hostname);
  } catch {
    return 'the host name does not resolve';
  }
  if (!addresses.length) return 'the host name does not resolve';
  if (addresses.some((a) => !addressAllowed(a.address, opts.allowLoopback)))
    return 'the host resolves to a private, loopback, link-local or otherwise not public address';
  return undefined;
}
