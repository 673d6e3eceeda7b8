import { Collection } from './collection';

function users(): Collection {
  const c = new Collection('db', 'users');
  c.addIndex({ v: 2, key: { email: 1 }, name: 'email_1', unique: true });
  return c;
}

describe('Collection with secondary indexes', () => {
  it('rejects duplicate _id and duplicate unique keys with E11000 details', () => {
    const c = users();
    c.insert({ _id: 1, email: 'a' });
    expect(() => c.insert({ _id: 1, email: 'b' })).toThrow(
      'E11000 duplicate key error collection: db.users index: _id_ dup key: { _id: 1 }',
    );
    try {
      c.insert({ _id: 2, email: 'a' });
      throw new Error('no error');
    } catch (err) {
      expect(err).toMatchObject({ code: 11000, extra: { keyPattern: { email: 1 }, keyValue: { email: 'a' } } });
    }
    expect(c.docs.size).toBe(1);
  });

  it('keeps index maps in step on replace and remove, restoring the old keys when a replace fails', () => {
    const c = users();
    const idA = c.insert({ _id: 1, email: 'a' });
    c.insert({ _id: 2, email: 'b' });
    expect(() => c.replace(idA, { _id: 1, email: 'b' })).toThrow(/E11000/);
    expect(c.candidates({ email: 'a' }).docs).toEqual([{ _id: 1, email: 'a' }]);
    c.replace(idA, { _id: 1, email: 'c' });
    expect(c.candidates({ email: 'a' }).docs).toEqual([]);
    expect(c.candidates({ email: 'c' })).toEqual({ docs: [{ _id: 1, email: 'c' }], exact: true });
    c.remove(idA);
    c.insert({ _id: 3, email: 'c' });
  });

  it('applies a batch atomically, allowing unique values to swap between documents', () => {
    const c = users();
    c.insert({ _id: 1, email: 'a' });
    c.insert({ _id: 2, email: 'b' });
    c.applyBatch([
      { id: 'n1', doc: { _id: 1, email: 'b' } },
      { id: 'n2', doc: { _id: 2, email: 'a' } },
    ]);
    expect(c.candidates({ email: 'a' }).docs).toEqual([{ _id: 2, email: 'a' }]);
    expect(c.all().map((d) => d._id)).toEqual([1, 2]); // natural order kept
    expect(() => c.applyBatch([{ id: 'n1' }, { id: 'n3', doc: { _id: 3, email: 'a' } }])).toThrow(/E11000/);
    expect(c.all()).toEqual([
      { _id: 1, email: 'b' },
      { _id: 2, email: 'a' },
    ]);
    expect(c.candidates({ email: 'b' }).docs).toEqual([{ _id: 1, email: 'b' }]);
    c.applyBatch([{ id: 'n1' }, { id: 'n3', doc: { _id: 3, email: 'b' } }]);
    expect(c.all().map((d) => d.email)).toEqual(['a', 'b']);
  });

  it('leaves an index in which a write keeps the keys as it was, and undoes a failed batch in each index', () => {
    const c = users();
    c.addIndex({ v: 2, key: { team: 1 }, name: 'team_1' });
    for (const id of [1, 2, 3]) c.insert({ _id: id, email: `e${id}`, team: 't' });
    const ids = () => c.candidates({ team: 't' }).docs.map((d) => d._id);
    c.replace('n1', { _id: 1, email: 'e1', team: 't', seen: true }); // no key changes
    expect(ids()).toEqual([1, 2, 3]); // the entry keeps its place, as a server's index keeps its record
    c.replace('n1', { _id: 1, email: 'x1', team: 't' }); // only the email's key changes
    expect(ids()).toEqual([1, 2, 3]);
    expect(c.candidates({ email: 'e1' }).docs).toEqual([]);
    expect(c.candidates({ email: 'x1' }).docs).toEqual([{ _id: 1, email: 'x1', team: 't' }]);
    // one change moves a team key, the other takes a taken email: nothing of the batch stays
    expect(() =>
      c.applyBatch([
        { id: 'n2', doc: { _id: 2, email: 'e2', team: 'u' } },
        { id: 'n4', doc: { _id: 4, email: 'e3', team: 't' } },
      ]),
    ).toThrow(/E11000.*email_1/);
    expect(ids()).toEqual([1, 3, 2]); // 2 left team t and came back: a moved entry goes to the end
    expect(c.candidates({ team: 'u' }).docs).toEqual([]);
    expect(c.candidates({ email: 'e3' }).docs.map((d) => d._id)).toEqual([3]);
    expect(c.docs.size).toBe(3);
    c.remove('n3');
    expect(ids()).toEqual([1, 2]);
    expect(c.candidates({ email: 'e3' }).docs).toEqual([]);
  });

  it('indexes array elements (multikey), compound keys, sparse and partial filters', () => {
    const c = new Collection('db', 'c');
    c.addIndex({ v: 2, key: { tags: 1 }, name: 'tags_1', unique: true });
    c.insert({ _id: 1, tags: ['x', 'y', 'x'] });
    expect(() => c.insert({ _id: 2, tags: ['z', 'y'] })).toThrow(/dup key: \{ tags: "y" \}/);
    expect(() => c.insert({ _id: 9 })).not.toThrow();
    expect(() => c.insert({ _id: 10 })).toThrow(/dup key: \{ tags: null \}/); // missing counts as null
    const compound = new Collection('db', 'compound');
    compound.addIndex({ v: 2, key: { a: 1, b: 1 }, name: 'a_1_b_1', unique: true });
    compound.insert({ _id: 3, a: 1, b: 2 });
    compound.insert({ _id: 4, a: 2, b: 1 });
    expect(() => compound.insert({ _id: 5, a: 1, b: 2 })).toThrow(/dup key: \{ a: 1, b: 2 \}/);
    const sparse = new Collection('db', 'sparse');
    sparse.addIndex({ v: 2, key: { s: 1 }, name: 's_1', unique: true, sparse: true });
    sparse.addIndex({ v: 2, key: { p: 1 }, name: 'p_1', unique: true, partialFilterExpression: { live: true } });
    sparse.insert({ _id: 6, p: 'q' });
    sparse.insert({ _id: 7, p: 'q', live: true });
    expect(() => sparse.insert({ _id: 8, p: 'q', live: true })).toThrow(/index: p_1/);
  });

  it("answers a filter that is exactly a partial index's filter expression from that index", () => {
    const c = new Collection('db', 'drafts');
    const holding = { 'pending._id': { $exists: true } };
    c.addIndex({ v: 2, key: { 'pending._id': 1 }, name: 'pending', partialFilterExpression: holding });
    c.insert({ _id: 1, pending: [{ _id: 'a' }, { _id: 'b' }] });
    c.insert({ _id: 2, pending: [] });
    c.insert({ _id: 3 });
    c.insert({ _id: 4, pending: [{ _id: 'c' }] });
    expect(c.candidates({ 'pending._id': { $exists: true } })).toEqual({
      docs: [
        { _id: 1, pending: [{ _id: 'a' }, { _id: 'b' }] },
        { _id: 4, pending: [{ _id: 'c' }] },
      ],
      exact: true,
    });
    c.replace('n1', { _id: 1, pending: [] });
    expect(c.candidates(holding).docs.map((d) => d._id)).toEqual([4]);
    // a sparse index with the same filter is not used: it leaves out documents without its key
    const sparse = new Collection('db', 'sparse');
    sparse.addIndex({ v: 2, key: { k: 1 }, name: 'k', sparse: true, partialFilterExpression: { live: true } });
    sparse.insert({ _id: 1, live: true });
    expect(sparse.candidates({ live: true })).toMatchObject({ exact: false, docs: [{ _id: 1, live: true }] });
    // any other filter is not the index's: every document is a candidate
    expect(c.candidates({ 'pending.0': { $exists: true } })).toMatchObject({ exact: false });
    expect(c.candidates({ 'pending.0': { $exists: true } }).docs).toHaveLength(4);
  });

  it('uses an index only for equality filters and says when the lookup alone is the answer', () => {
    const c = users();
    for (let i = 0; i < 50; i++) c.insert({ _id: i, email: `u${i}`, n: i % 5 });
    expect(c.candidates({ email: 'u7' })).toEqual({ docs: [{ _id: 7, email: 'u7', n: 2 }], exact: true });
    expect(c.candidates({ email: 'u7', n: 3 })).toMatchObject({ exact: false });
    expect(c.candidates({ email: { $eq: 'u7' } }).docs).toHaveLength(1);
    expect(c.candidates({ email: { $gt: 'u7' } }).docs).toHaveLength(50);
    expect(c.candidates({ email: null })).toEqual({ docs: [], exact: true }); // nobody lacks an email
    c.insert({ _id: 99, n: 1 });
    expect(c.candidates({ email: null })).toMatchObject({ exact: false });
    expect(c.candidates({ _id: 3 })).toEqual({ docs: [{ _id: 3, email: 'u3', n: 3 }], exact: true });
    expect(c.candidates({ _id: { $in: [3, 4, 3, 1000] } })).toEqual({
      docs: [
        { _id: 3, email: 'u3', n: 3 },
        { _id: 4, email: 'u4', n: 4 },
      ],
      exact: false,
    });
    expect(c.candidates({ email: { $in: ['u1', 'u2'] } }).docs).toHaveLength(2);
    expect(c.candidates({ email: { $in: [/u/] } }).docs.length).toBeGreaterThan(2);
  });

  it('refuses a unique index over existing duplicates and clones independently', () => {
    const c = new Collection('db', 'c');
    c.insert({ _id: 1, k: 1 });
    c.insert({ _id: 2, k: 1 });
    expect(() => c.addIndex({ v: 2, key: { k: 1 }, name: 'k_1', unique: true })).toThrow(/E11000/);
    expect(c.indexSpecs().map((s) => s.name)).toEqual(['_id_']);
    c.addIndex({ v: 2, key: { k: 1 }, name: 'k_1' });
    const copy = c.clone();
    copy.insert({ _id: 3, k: 1 });
    c.remove('n1');
    expect(c.docs.size).toBe(1);
    expect(copy.docs.size).toBe(3);
    expect(
      copy
        .candidates({ k: 1 })
        .docs.map((d) => d._id)
        .sort(),
    ).toEqual([1, 2, 3]);
    expect(c.candidates({ k: 1 }).docs.map((d) => d._id)).toEqual([2]);
  });
});
