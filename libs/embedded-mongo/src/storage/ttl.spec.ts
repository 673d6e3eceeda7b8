import { EmbeddedMongoServer } from '../server';
import { Store } from './store';
import { sweepExpired } from './ttl';

describe('sweepExpired', () => {
  it('removes documents whose TTL date is older than expireAfterSeconds', () => {
    const store = new Store();
    const c = store.create('db', 'sessions');
    c.addIndex({ v: 2, key: { at: 1 }, name: 'at_1', expireAfterSeconds: 60 });
    const now = Date.UTC(2026, 0, 1);
    c.insert({ _id: 1, at: new Date(now - 61_000) });
    c.insert({ _id: 2, at: new Date(now - 59_000) });
    c.insert({ _id: 3, at: [new Date(now), new Date(now - 120_000)] }); // earliest date counts
    c.insert({ _id: 4, at: 'not a date' });
    c.insert({ _id: 5 });
    expect(sweepExpired(store, now)).toBe(2);
    expect(c.all().map((d) => d._id)).toEqual([2, 4, 5]);
  });
});

describe('the server sweep', () => {
  it('removes expired documents once per TTL interval, as the TTL monitor of mongod does', () => {
    const server = new EmbeddedMongoServer({ ttlIntervalMs: 60_000 });
    const c = server.store.create('db', 'outbox');
    c.addIndex({ v: 2, key: { at: 1 }, name: 'at_1', expireAfterSeconds: 0 });
    const start = Date.now();
    c.insert({ _id: 1, at: new Date(start - 1) });
    server.sweep(start + 1_000);
    expect(c.docs.size).toBe(1); // within the interval of the server's start
    server.sweep(start + 61_000);
    expect(c.docs.size).toBe(0);
    c.insert({ _id: 2, at: new Date(start) });
    server.sweep(start + 62_000);
    expect(c.docs.size).toBe(1);
    server.sweep(start + 62_000, true); // a pass on demand
    expect(c.docs.size).toBe(0);
  });
});
