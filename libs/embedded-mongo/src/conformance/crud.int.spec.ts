import { Schema, type Model } from 'mongoose';
import { rejection, useMongo } from './harness';

interface Item {
  sku: string;
  qty: number;
  tags: string[];
  lines: Array<{ n: number; price: string }>;
  note?: string;
  created?: boolean;
}

const schema = new Schema<Item>({
  sku: String,
  qty: Number,
  tags: [String],
  lines: [{ _id: false, n: Number, price: String }],
  note: String,
  created: Boolean,
});

describe('CRUD through mongoose', () => {
  const h = useMongo();
  let Items: Model<Item>;

  beforeAll(() => {
    Items = h.conn().model<Item>('Item', schema, 'items');
  });
  beforeEach(async () => {
    await Items.deleteMany({});
  });

  it('inserts and finds with filter, sort, skip, limit and projection', async () => {
    await Items.insertMany([
      { sku: 'a', qty: 5, tags: ['x'] },
      { sku: 'b', qty: 1, tags: ['y'] },
      { sku: 'c', qty: 9, tags: ['x', 'y'] },
      { sku: 'd', qty: 3, tags: [] },
    ]);
    const docs = await Items.find({ qty: { $gte: 2 } }, { sku: 1, _id: 0 })
      .sort({ qty: -1 })
      .skip(1)
      .limit(2)
      .lean();
    expect(docs).toEqual([{ sku: 'a' }, { sku: 'd' }]);
    expect(await Items.countDocuments({ tags: 'x' })).toBe(2);
    expect(await Items.estimatedDocumentCount()).toBe(4);
    expect((await Items.findOne({ sku: 'c' }).lean())?.qty).toBe(9);
  });

  it('walks a cursor across batches (getMore) and closes it early (killCursors)', async () => {
    await Items.insertMany(Array.from({ length: 25 }, (_, i) => ({ sku: `s${i}`, qty: i })));
    const seen: number[] = [];
    for await (const doc of Items.find().sort({ qty: 1 }).batchSize(4).cursor()) seen.push(doc.qty);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => i));
    const cursor = Items.find().batchSize(3).cursor();
    expect((await cursor.next())?.sku).toBeDefined();
    await cursor.close();
  });

  it('insertMany ordered stops at the first error; unordered reports every error and inserts the rest', async () => {
    await Items.collection.createIndex({ sku: 1 }, { unique: true });
    try {
      const ordered = await rejection(Items.insertMany([{ sku: 'u1' }, { sku: 'u1' }, { sku: 'u2' }], { ordered: true }));
      expect(ordered.code).toBe(11000);
      expect(await Items.countDocuments()).toBe(1);
      await Items.deleteMany({});
      const unordered = await rejection(Items.insertMany([{ sku: 'u1' }, { sku: 'u1' }, { sku: 'u2' }, { sku: 'u2' }], { ordered: false }));
      expect((unordered.writeErrors as unknown[]).length).toBe(2);
      expect(await Items.countDocuments()).toBe(2);
    } finally {
      await Items.collection.dropIndex('sku_1');
    }
  });

  it('updates with operators, multi, arrayFilters and replacement', async () => {
    await Items.insertMany([
      {
        sku: 'a',
        qty: 1,
        tags: ['x'],
        lines: [
          { n: 1, price: '1.00' },
          { n: 2, price: '2.00' },
        ],
      },
      { sku: 'b', qty: 2, tags: [] },
    ]);
    const one = await Items.updateOne({ sku: 'a' }, { $inc: { qty: 4 }, $push: { tags: 'z' } });
    expect(one).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    await Items.updateOne({ sku: 'a' }, { $set: { 'lines.$[l].price': '9.99' } }, { arrayFilters: [{ 'l.n': 2 }] });
    const many = await Items.updateMany({}, { $set: { note: 'seen' } });
    expect(many).toMatchObject({ matchedCount: 2, modifiedCount: 2 });
    const a = await Items.findOne({ sku: 'a' }).lean();
    expect(a).toMatchObject({
      qty: 5,
      tags: ['x', 'z'],
      note: 'seen',
      lines: [
        { n: 1, price: '1.00' },
        { n: 2, price: '9.99' },
      ],
    });
    await Items.replaceOne({ sku: 'b' }, { sku: 'b2', qty: 7 });
    expect(await Items.findOne({ sku: 'b2' }).lean()).toMatchObject({ qty: 7 });
    const unchanged = await Items.updateOne({ sku: 'b2' }, { $set: { qty: 7 } });
    expect(unchanged.modifiedCount).toBe(0);
  });

  it('upserts, applying $setOnInsert only on insert', async () => {
    const first = await Items.updateOne({ sku: 'new' }, { $inc: { qty: 1 }, $setOnInsert: { created: true } }, { upsert: true });
    expect(first.upsertedCount).toBe(1);
    await Items.collection.updateOne({ sku: 'new' }, { $inc: { qty: 1 }, $setOnInsert: { note: 'inserted' } }, { upsert: true });
    expect(await Items.findOne({ sku: 'new' }).lean()).toMatchObject({ sku: 'new', qty: 2, created: true });
    expect((await Items.findOne({ sku: 'new' }).lean())?.note).toBeUndefined();
  });

  it('rejects changing _id with ImmutableField (66)', async () => {
    const doc = await Items.create({ sku: 'imm', qty: 1 });
    const err = await rejection(Items.collection.updateOne({ _id: doc._id }, { $set: { _id: 'other' } }));
    expect(err.code).toBe(66);
    const replaced = await rejection(Items.collection.replaceOne({ _id: doc._id }, { _id: 'other', sku: 'x' }));
    expect(replaced.code).toBe(66);
  });

  it('findOneAndUpdate works as a counter ($inc + upsert + new)', async () => {
    const Counters = h.conn().model('Counter', new Schema({ _id: String, seq: Number }), 'counters');
    const next = async () =>
      (await Counters.findOneAndUpdate({ _id: 'invoice' }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after' }).lean())?.seq;
    expect(await next()).toBe(1);
    expect(await next()).toBe(2);
    const before = await Counters.findOneAndUpdate({ _id: 'invoice' }, { $inc: { seq: 1 } }, { returnDocument: 'before' }).lean();
    expect(before?.seq).toBe(2);
    const removed = await Counters.findOneAndDelete({ _id: 'invoice' }).lean();
    expect(removed?.seq).toBe(3);
    expect(await Counters.countDocuments()).toBe(0);
  });

  it('deletes one or many', async () => {
    await Items.insertMany([
      { sku: 'a', qty: 1 },
      { sku: 'b', qty: 1 },
      { sku: 'c', qty: 2 },
    ]);
    expect((await Items.deleteOne({ qty: 1 })).deletedCount).toBe(1);
    expect((await Items.deleteMany({ qty: { $lt: 5 } })).deletedCount).toBe(2);
  });

  it('answers distinct, unwinding arrays', async () => {
    await Items.insertMany([
      { sku: 'a', tags: ['x', 'y'] },
      { sku: 'b', tags: ['y', 'z'] },
      { sku: 'c', tags: [] },
    ]);
    expect((await Items.distinct('tags')).sort()).toEqual(['x', 'y', 'z']);
    expect(await Items.distinct('sku', { tags: 'z' })).toEqual(['b']);
  });

  it('runs bulkWrite through mongoose', async () => {
    await Items.create({ sku: 'keep', qty: 1 });
    const res = await Items.bulkWrite([
      { insertOne: { document: { sku: 'bw1', qty: 1 } } },
      { updateOne: { filter: { sku: 'keep' }, update: { $inc: { qty: 10 } } } },
      { updateOne: { filter: { sku: 'ups' }, update: { $set: { qty: 3 } }, upsert: true } },
      { deleteOne: { filter: { sku: 'bw1' } } },
    ]);
    expect(res).toMatchObject({ insertedCount: 1, modifiedCount: 1, upsertedCount: 1, deletedCount: 1 });
    expect((await Items.findOne({ sku: 'keep' }).lean())?.qty).toBe(11);
  });
});
