import { ObjectId } from 'bson';
import { applyUpdate, changed, upsertSeed } from './update-engine';

describe('applyUpdate', () => {
  it('applies operators to a copy, leaving the stored document untouched', () => {
    const original = { _id: 1, n: 1, list: [{ k: 1 }, { k: 2 }] };
    const next = applyUpdate(original, { $inc: { n: 2 }, $set: { 'list.$[e].k': 9 } }, { arrayFilters: [{ 'e.k': 2 }] });
    expect(next).toEqual({ _id: 1, n: 3, list: [{ k: 1 }, { k: 9 }] });
    expect(original).toEqual({ _id: 1, n: 1, list: [{ k: 1 }, { k: 2 }] });
  });

  it('honours $setOnInsert only when inserting', () => {
    expect(applyUpdate({ _id: 1 }, { $setOnInsert: { a: 1 }, $set: { b: 2 } })).toEqual({ _id: 1, b: 2 });
    expect(applyUpdate({ _id: 1 }, { $setOnInsert: { a: 1 }, $set: { b: 2 } }, { inserting: true })).toEqual({ _id: 1, a: 1, b: 2 });
  });

  it('replaces the document but keeps _id; rejects _id changes with code 66', () => {
    expect(applyUpdate({ _id: 1, a: 1 }, { b: 2 })).toEqual({ _id: 1, b: 2 });
    expect(() => applyUpdate({ _id: 1 }, { _id: 2, b: 2 })).toThrow(expect.objectContaining({ code: 66 }));
    expect(() => applyUpdate({ _id: 1 }, { $set: { _id: 2 } })).toThrow(expect.objectContaining({ code: 66 }));
    expect(() => applyUpdate({ _id: 1, a: 'x' }, { $inc: { a: 1 } })).toThrow(expect.objectContaining({ code: 14 }));
    expect(() => applyUpdate({ _id: 1, a: 1 }, { $inc: { a: 'one' } })).toThrow(expect.objectContaining({ code: 14 }));
  });

  it('runs pipeline-style updates and gives new documents an ObjectId first', () => {
    expect(applyUpdate({ _id: 1, a: 2 }, [{ $set: { b: { $multiply: ['$a', 3] } } }])).toEqual({ _id: 1, a: 2, b: 6 });
    const inserted = applyUpdate({ a: 1 }, { $set: { b: 1 } }, { inserting: true });
    expect(inserted._id).toBeInstanceOf(ObjectId);
    expect(Object.keys(inserted)[0]).toBe('_id');
  });
});

describe('applyUpdate of top-level $set, $unset, $inc, $push and $pull (applied without mingo)', () => {
  it('replaces fields, shares the untouched ones and leaves the stored document as it was', () => {
    const nested = { deep: [1, { x: 2 }] };
    const original = { _id: 1, keep: nested, n: 1, gone: 'x', list: [1] };
    const setValue = { a: [{ b: 1 }] };
    const next = applyUpdate(original, { $set: { list: [2], added: setValue }, $unset: { gone: '' }, $inc: { n: 2, fresh: 5 } });
    expect(next).toEqual({ _id: 1, keep: nested, n: 3, list: [2], added: { a: [{ b: 1 }] }, fresh: 5 });
    expect(Object.keys(next)).toEqual(['_id', 'keep', 'n', 'list', 'added', 'fresh']);
    expect(next.keep).toBe(nested);
    expect(next.added).not.toBe(setValue); // the command's value is copied, as mingo's deep clone mode does
    expect(original).toEqual({ _id: 1, keep: { deep: [1, { x: 2 }] }, n: 1, gone: 'x', list: [1] });
  });

  it('gives the same documents as mingo for the same updates', () => {
    const original = { _id: 1, a: 1, b: { c: 2 }, d: 'x' };
    // a dotted path sends the whole update to mingo; the same top-level part without it is applied here
    const viaMingo = applyUpdate(original, { $set: { b: { c: 3 }, 'z.y': 1 }, $inc: { a: 1 }, $unset: { d: 1 } });
    const direct = applyUpdate(original, { $set: { b: { c: 3 } }, $inc: { a: 1 }, $unset: { d: 1 } });
    expect({ ...viaMingo, z: undefined }).toEqual({ ...direct, z: undefined });
    expect(Object.keys(direct)).toEqual(Object.keys(viaMingo).filter((k) => k !== 'z'));
  });

  it('leaves what it does not handle to mingo, errors included', () => {
    // one field named by two operators: the server's ConflictingUpdateOperators (40)
    expect(() => applyUpdate({ _id: 1, a: 1 }, { $set: { a: 2 }, $inc: { a: 1 } })).toThrow(expect.objectContaining({ code: 40 }));
    expect(() => applyUpdate({ _id: 1 }, { $set: { _id: 2 } })).toThrow(expect.objectContaining({ code: 66 }));
    expect(applyUpdate({ _id: 1, a: { b: 1 } }, { $set: { 'a.c': 2 } })).toEqual({ _id: 1, a: { b: 1, c: 2 } });
    expect(applyUpdate({ _id: 1 }, { $push: { list: 1 } })).toEqual({ _id: 1, list: [1] });
  });

  it('applies $push of values and $each, and $pull of matching documents, as mingo does', () => {
    const messages = [
      { _id: 'm1', type: 'a' },
      { _id: 'm2', type: 'b' },
      { _id: 'm3', type: 'a' },
    ];
    const original = { _id: 1, pending: messages, tags: ['x'] };
    const updates = [
      { $push: { pending: { $each: [{ _id: 'm4', type: 'c' }] } }, $set: { at: 1 } },
      { $push: { tags: 'y', fresh: { $each: [1, 2] }, one: { a: 1 } } },
      { $pull: { pending: { _id: { $in: ['m1', 'm3', 'zz'] } } } },
      { $pull: { pending: { type: 'b' }, absent: { _id: 'm1' } } },
      { $pull: { pending: { _id: 'none' } } },
    ];
    for (const u of updates) {
      // a dotted path sends the whole update to mingo; the same update without it is applied here
      const viaMingo = applyUpdate(original, { ...u, $unset: { 'z.y': 1 } });
      const direct = applyUpdate(original, u);
      expect(direct).toEqual(viaMingo);
      expect(Object.keys(direct)).toEqual(Object.keys(viaMingo));
    }
    expect(applyUpdate(original, updates[2]!).pending).toEqual([{ _id: 'm2', type: 'b' }]);
    expect(original.pending).toBe(messages); // the stored document is left as it was
    expect(messages).toHaveLength(3);
    const pushed = { _id: 'm5' };
    const next = applyUpdate(original, { $push: { pending: pushed } });
    expect((next.pending as unknown[])[3]).not.toBe(pushed); // the command's value is copied
  });

  it('leaves other $push and $pull shapes to mingo', () => {
    expect(applyUpdate({ _id: 1, l: [3, 1] }, { $push: { l: { $each: [2], $sort: 1 } } })).toEqual({ _id: 1, l: [1, 2, 3] });
    expect(applyUpdate({ _id: 1, l: [1, 2, 1] }, { $pull: { l: 1 } })).toEqual({ _id: 1, l: [2] });
    expect(applyUpdate({ _id: 1, l: [1, 5, 9] }, { $pull: { l: { $gte: 5 } } })).toEqual({ _id: 1, l: [1] });
    expect(applyUpdate({ _id: 1, l: [{ a: 1 }, 2] }, { $pull: { l: { a: 1 } } })).toEqual({ _id: 1, l: [2] });
  });

  it('applies $setOnInsert with the update on an insert only', () => {
    expect(applyUpdate({ _id: 1 }, { $setOnInsert: { a: 1 }, $inc: { n: 1 } }, { inserting: true })).toEqual({ _id: 1, a: 1, n: 1 });
    expect(applyUpdate({ _id: 1 }, { $setOnInsert: { a: 1 }, $inc: { n: 1 } })).toEqual({ _id: 1, n: 1 });
  });
});

describe('changed', () => {
  it('compares fields, their order and values as index keys', () => {
    const shared = { big: [1, 2, 3] };
    expect(changed({ _id: 1, s: shared }, { _id: 1, s: shared })).toBe(false);
    expect(changed({ _id: 1, n: 1 }, { _id: 1, n: 1.0 })).toBe(false);
    expect(changed({ _id: 1, a: { x: 1 } }, { _id: 1, a: { x: 1 } })).toBe(false);
    expect(changed({ _id: 1, a: null }, { _id: 1 })).toBe(true);
    expect(changed({ _id: 1, a: 1, b: 2 }, { _id: 1, b: 2, a: 1 })).toBe(true);
    expect(changed({ _id: 1, a: 's1,"b":n2' }, { _id: 1, a: 's1', b: 2 })).toBe(true);
    expect(changed({ _id: 1, a: [1] }, { _id: 1, a: [2] })).toBe(true);
  });
});

describe('upsertSeed', () => {
  it('keeps the equality conditions of a filter, including dotted paths and $and', () => {
    expect(upsertSeed({ _id: 'inv', 'a.b': 1, c: { $eq: 2 }, d: { $gt: 1 }, $and: [{ e: 3 }], f: /x/ })).toEqual({
      _id: 'inv',
      a: { b: 1 },
      c: 2,
      e: 3,
    });
  });
});
