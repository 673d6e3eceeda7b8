import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { createLogger } from './logger';
import { createPeerDataCache, invalidatePeerData, openPeerDataRedis, peerDataKeys, type PeerDataOutcome } from './peer-data';
import { connectRedis, type Redis } from './redis';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const logger = createLogger('peer-data-test', 'silent');

/** Copies of another service's data, used only while the owner's change token in Redis is unchanged. */
describe('peer data cache (real Redis)', () => {
  const prefix = `pd-${randomBytes(4).toString('hex')}:`;
  let owner: Redis;
  let reader: Redis;

  beforeAll(async () => {
    owner = connectRedis(REDIS_URL, prefix);
    reader = openPeerDataRedis(REDIS_URL, prefix);
    // the reader does not queue commands: until it is connected, lookups ask the owner
    if (reader.status !== 'ready') await new Promise((resolve) => reader.once('ready', resolve));
  });
  afterAll(async () => {
    const keys = await owner.keys(`${prefix}*`);
    if (keys.length) await owner.del(...keys.map((k) => k.slice(prefix.length)));
    owner.disconnect();
    reader.disconnect();
  });

  /** A cache over a loader that answers the owner's current value, counting the loads and outcomes. */
  function setup(opts: { ttlMs?: number; redis?: Redis } = {}) {
    let value = { name: 'Alt GmbH', found: true };
    let loads = 0;
    const outcomes: PeerDataOutcome[] = [];
    const cache = createPeerDataCache({
      redis: 'redis' in opts ? opts.redis : reader,
      ttlMs: opts.ttlMs ?? 30_000,
      max: 100,
      logger,
      onLookup: (_kind, outcome) => void outcomes.push(outcome),
    });
    const load = async () => {
      loads++;
      return { ...value };
    };
    return {
      cache,
      get: (key: string) => cache.get('seller', key, load, (v) => v.found),
      change: (next: Partial<typeof value>) => void (value = { ...value, ...next }),
      loads: () => loads,
      outcomes,
    };
  }

  it('asks the owner once, then answers from the copy while the token is unchanged', async () => {
    const s = setup();
    const key = peerDataKeys.seller('c-1');
    expect(await s.get(key)).toEqual({ name: 'Alt GmbH', found: true });
    expect(await s.get(key)).toEqual({ name: 'Alt GmbH', found: true });
    expect(await s.get(key)).toEqual({ name: 'Alt GmbH', found: true });
    expect(s.loads()).toBe(1);
    expect(s.outcomes).toEqual(['miss', 'hit', 'hit']);
  });

  it('reads the change of the owner right after the owner invalidated it (read your writes)', async () => {
    const s = setup();
    const key = peerDataKeys.buyer('c-2', 7);
    await s.get(key);
    s.change({ name: 'Neu GmbH' });
    await invalidatePeerData(owner, [key], logger);
    expect((await s.get(key)).name).toBe('Neu GmbH');
    expect((await s.get(key)).name).toBe('Neu GmbH');
    expect(s.loads()).toBe(2);
    expect(s.outcomes).toEqual(['miss', 'miss', 'hit']);
  });

  it('never keeps a load that started before a change past that change', async () => {
    const s = setup();
    const key = peerDataKeys.seller('c-3');
    // the reader reads the token, then the owner commits and invalidates before the reader's load reads the data
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = s.cache.get('seller', key, async () => {
      await gate;
      return { name: 'old', found: true }; // what a load that read before the commit would answer
    });
    await new Promise((r) => setTimeout(r, 20)); // its token is read
    await invalidatePeerData(owner, [key], logger);
    s.change({ name: 'after the change' });
    release();
    expect((await slow).name).toBe('old');
    // the copy kept beside the old token is not used: the token is gone
    expect((await s.get(key)).name).toBe('after the change');
    expect(s.loads()).toBe(1);
  });

  it('keeps no answer the caller does not want kept (an unknown company), and answers frozen copies', async () => {
    const s = setup();
    const key = peerDataKeys.seller('c-4');
    s.change({ found: false });
    await s.get(key);
    await s.get(key);
    expect(s.loads()).toBe(2);
    // and no token is left for it (made-up ids cannot fill Redis)
    await new Promise((r) => setTimeout(r, 20));
    expect(await owner.exists(key)).toBe(0);
    s.change({ found: true });
    const copy = await s.get(key);
    expect(Object.isFrozen(copy)).toBe(true);
    expect(() => {
      (copy as { name: string }).name = 'changed';
    }).toThrow(TypeError);
  });

  it('uses a copy for at most ttlMs, whatever the token says (an owner that could not reach Redis)', async () => {
    const s = setup({ ttlMs: 50 });
    const key = peerDataKeys.seller('c-5');
    await s.get(key);
    s.change({ name: 'changed without an invalidation' });
    expect((await s.get(key)).name).toBe('Alt GmbH');
    await new Promise((r) => setTimeout(r, 80));
    expect((await s.get(key)).name).toBe('changed without an invalidation');
  });

  it('drops its copies when its connection to Redis is made again (changes may have missed their tokens meanwhile)', async () => {
    const s = setup();
    const key = peerDataKeys.seller('c-9');
    await s.get(key);
    await s.get(key);
    expect(s.loads()).toBe(1);
    const ready = new Promise((resolve) => reader.once('ready', resolve));
    reader.disconnect(true); // and reconnect
    await ready;
    await s.get(key);
    expect(s.loads()).toBe(2);
    expect(s.outcomes).toEqual(['miss', 'hit', 'miss']);
  });

  it('asks the owner every time without Redis, or with the cache off', async () => {
    const off = setup({ ttlMs: 0 });
    await off.get(peerDataKeys.seller('c-6'));
    await off.get(peerDataKeys.seller('c-6'));
    expect(off.loads()).toBe(2);
    expect(off.outcomes).toEqual(['bypass', 'bypass']);
    const none = setup({ redis: undefined });
    await none.get(peerDataKeys.seller('c-6'));
    expect(none.outcomes).toEqual(['bypass']);
  });

  it('asks the owner at once while Redis does not answer, and keeps nothing from that time', async () => {
    // a port that accepts connections and never answers, and then one that refuses them
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const stuck = openPeerDataRedis(`redis://127.0.0.1:${port}`, prefix, 100);
    stuck.on('error', () => undefined);
    try {
      const s = setup({ redis: stuck });
      const started = Date.now();
      await s.get(peerDataKeys.seller('c-7'));
      await s.get(peerDataKeys.seller('c-7'));
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(s.loads()).toBe(2);
      expect(s.outcomes).toEqual(['bypass', 'bypass']);
    } finally {
      stuck.disconnect();
      silent.close();
    }
  });

  it('an owner answers within waitMs (and logs) when Redis refuses or does not answer, and never throws', async () => {
    const refused = connectRedis('redis://127.0.0.1:1', prefix);
    refused.on('error', () => undefined);
    // a port that accepts connections and never answers: ioredis queues the command until it is connected
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const stuck = connectRedis(`redis://127.0.0.1:${(silent.address() as { port: number }).port}`, prefix);
    stuck.on('error', () => undefined);
    try {
      for (const client of [refused, stuck]) {
        const started = Date.now();
        await expect(invalidatePeerData(client, [peerDataKeys.seller('c-8')], logger, 200)).resolves.toBeUndefined();
        expect(Date.now() - started).toBeLessThan(1_000);
      }
    } finally {
      refused.disconnect();
      stuck.disconnect();
      silent.close();
    }
  });
});
