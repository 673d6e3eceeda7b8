import type { LookupAddress } from 'node:dns';
import { guardedLookup, refusalOf, type Resolve } from './address-guard';
import { createSender } from './sender';

/** DNS that answers the given address for every name. */
const answering =
  (address: string): Resolve =>
  async () => [{ address, family: address.includes(':') ? 6 : 4 }];
const policy = { httpsOnly: false, allowLoopback: false };

describe('address guard: IPv6 forms that carry an IPv4 address', () => {
  it.each([
    'http://[::a00:1]/hook',
    'http://[::10.0.0.1]/hook',
    'http://[::127.0.0.1]/hook',
    'http://[::169.254.169.254]/latest/meta-data/',
    'http://[::ffff:10.0.0.1]/hook',
    'http://[::ffff:a9fe:a9fe]/hook',
    'http://[0:0:0:0:0:ffff:192.168.1.1]/hook',
    'http://[64:ff9b::10.0.0.1]/hook',
  ])('refuses %s at creation', async (url) => {
    const resolve = jest.fn(answering('93.184.216.34'));
    expect(await refusalOf(url, { ...policy, resolve })).toMatch(/private, loopback, link-local/);
    expect(resolve).not.toHaveBeenCalled();
  });

  it.each(['::a00:1', '::7f00:1', '::a9fe:a9fe', '::ffff:a00:1', '::ffff:127.0.0.1'])(
    'refuses a host whose DNS answer is %s, at creation and at connect time',
    async (address) => {
      expect(await refusalOf('http://hook.test/x', { ...policy, resolve: answering(address) })).toMatch(/resolves to a private/);
      const lookup = guardedLookup(answering(address), false);
      const err = await new Promise<NodeJS.ErrnoException | null>((done) => lookup('hook.test', { all: true }, (e) => done(e)));
      expect(err?.code).toBe('EADDRNOTALLOWED');
      // the sender's own check of an address literal, before any socket (the IPv4-compatible ones even where
      // loopback is allowed: they are not loopback)
      const sender = createSender({ allowLoopback: !address.startsWith('::ffff:'), timeoutMs: 1000, resolve: answering(address) });
      try {
        expect(await sender.send(`http://[${address}]/hook`, {}, '{}')).toMatchObject({ error: 'address_not_allowed' });
      } finally {
        sender.close();
      }
    },
  );

  it('still allows a public address, also in IPv4-compatible form', async () => {
    expect(await refusalOf('http://[::5db8:d822]/hook', { ...policy, resolve: answering('93.184.216.34') })).toBeUndefined();
    expect(await refusalOf('http://hook.test/x', { ...policy, resolve: answering('2606:2800:220:1:248:1893:25c8:1946') })).toBeUndefined();
    const lookup = guardedLookup(answering('93.184.216.34'), false);
    const got = await new Promise<LookupAddress[] | string>((done) => lookup('hook.test', { all: true }, (_e, a) => done(a)));
    expect(got).toEqual([{ address: '93.184.216.34', family: 4 }]);
  });
});
