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
