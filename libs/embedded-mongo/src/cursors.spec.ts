import { Long } from 'bson';
import { CursorRegistry } from './cursors';

const docs = Array.from({ length: 10 }, (_, i) => ({ i }));

describe('CursorRegistry', () => {
  it('hands out batches under an int64 id until exhausted, then forgets the cursor', () => {
    const reg = new CursorRegistry();
    const first = reg.open('db.c', docs, 4);
    expect(first.firstBatch).toHaveLength(4);
    expect(first.id).toBeInstanceOf(Long);
    expect(first.id.greaterThan(Long.fromNumber(2 ** 31))).toBe(true);
    const second = reg.getMore(first.id, 'db.c', 4);
    expect(second.nextBatch.map((d: { i: number }) => d.i)).toEqual([4, 5, 6, 7]);
    const last = reg.getMore(first.id, 'db.c');
    expect(last.nextBatch).toHaveLength(2);
    expect(last.id.isZero()).toBe(true);
    expect(reg.size).toBe(0);
    expect(() => reg.getMore(first.id, 'db.c')).toThrow(expect.objectContaining({ code: 43 }));
  });

  it('returns id 0 when everything fits or a single batch was asked for', () => {
    const reg = new CursorRegistry();
    expect(reg.open('db.c', docs).id.isZero()).toBe(true); // default first batch is 101
    expect(reg.open('db.c', docs, 2, true)).toMatchObject({ firstBatch: [{ i: 0 }, { i: 1 }] });
    expect(reg.size).toBe(0);
    const empty = reg.open('db.c', docs, 0);
    expect(empty.firstBatch).toEqual([]);
    expect(reg.getMore(empty.id, 'db.c').nextBatch).toHaveLength(10);
  });

  it('kills cursors, reports unknown ids, refuses another namespace, reaps idle ones', () => {
    const reg = new CursorRegistry();
    const a = reg.open('db.c', docs, 1);
    const b = reg.open('db.c', docs, 1);
    expect(() => reg.getMore(a.id, 'db.other')).toThrow(expect.objectContaining({ code: 43 }));
    const killed = reg.kill([a.id, Long.fromNumber(12345)]);
    expect(killed.cursorsKilled).toEqual([a.id]);
    expect(killed.cursorsNotFound).toEqual([Long.fromNumber(12345)]);
    reg.sweep(Date.now() + 11 * 60 * 1000);
    expect(() => reg.getMore(b.id, 'db.c')).toThrow(expect.objectContaining({ code: 43 }));
  });
});
