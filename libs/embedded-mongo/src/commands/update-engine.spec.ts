import { ObjectId } from 'bson';
import { applyUpdate, upsertSeed } from './update-engine';

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
