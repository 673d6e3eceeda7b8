import { Query } from 'mingo';
import { mingoQuery, mingoUpdate, sharesContext } from './mingo';

describe('mingo without copying its operator tables per query', () => {
  it('shares one context with the installed mingo', () => {
    // false would mean mingo moved ComputeOptions: queries still work, each copying the tables again
    expect(sharesContext).toBe(true);
  });

  it('matches, sorts and projects as a Query from the package entry does', () => {
    const docs = [
      { _id: 1, a: 5, tags: ['x', 'y'], sub: { n: 1 }, when: new Date('2026-01-02') },
      { _id: 2, a: 7, tags: [], sub: { n: 2 }, when: new Date('2026-01-01') },
      { _id: 3, tags: ['y'], items: [{ k: 'p', q: 2 }] },
    ];
    const filters = [
      { a: { $gt: 5 } },
      { a: { $exists: false } },
      { tags: 'y' },
      { tags: { $size: 0 } },
      { 'sub.n': { $in: [2, 3] } },
      { $or: [{ a: 5 }, { items: { $elemMatch: { k: 'p', q: { $gte: 2 } } } }] },
      { $expr: { $gt: [{ $add: ['$a', 1] }, 7] } },
      { when: { $lt: new Date('2026-01-02') } },
      { a: { $not: { $type: 'number' } } },
    ];
    for (const f of filters) {
      expect(docs.filter((d) => mingoQuery(f).test(d))).toEqual(docs.filter((d) => new Query(f).test(d)));
    }
    expect(
      mingoQuery({})
        .find(docs, { a: 1 })
        .sort({ when: 1 })
        .all()
        .map((d) => (d as { _id: number })._id),
    ).toEqual([3, 2, 1]);
    expect(() => mingoQuery({ a: { $nope: 1 } })).toThrow(/\$nope/);
  });

  it('updates as mingo does, positional operator and array filters included', () => {
    const doc = {
      _id: 1,
      items: [
        { k: 'a', n: 1 },
        { k: 'b', n: 2 },
      ],
      tags: ['x', 'y', 'x'],
    };
    mingoUpdate(doc, { $set: { 'items.$.n': 9 } }, undefined, { 'items.k': 'b' }, { cloneMode: 'deep' });
    mingoUpdate(doc, { $inc: { 'items.$[e].n': 1 } }, [{ 'e.k': 'a' }], undefined, { cloneMode: 'deep' });
    mingoUpdate(doc, { $pull: { tags: { $in: ['x'] } } }, undefined, undefined, { cloneMode: 'deep' });
    expect(doc).toEqual({
      _id: 1,
      items: [
        { k: 'a', n: 2 },
        { k: 'b', n: 9 },
      ],
      tags: ['y'],
    });
  });
});
