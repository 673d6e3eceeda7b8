import { Schema, Types, type Model } from 'mongoose';
import { rejection, useMongo } from './harness';

interface Doc {
  name: string;
  n: number;
  tags: string[];
  items: Array<{ sku: string; qty: number }>;
  old?: string;
  renamed?: string;
  touchedAt?: Date;
  owner?: Types.ObjectId;
  createdAt?: Date;
  updatedAt?: Date;
}

describe('update operators and mongoose features', () => {
  const h = useMongo();
  let Docs: Model<Doc>;
  let Owners: Model<{ name: string }>;

  beforeAll(() => {
    Owners = h.conn().model('Owner', new Schema<{ name: string }>({ name: String }), 'owners');
    Docs = h.conn().model<Doc>(
      'Doc',
      new Schema<Doc>(
        {
          name: String,
          n: Number,
          tags: [String],
          items: [{ _id: false, sku: String, qty: Number }],
          old: String,
          renamed: String,
          touchedAt: Date,
          owner: { type: Schema.Types.ObjectId, ref: 'Owner' },
        },
        { timestamps: true },
      ),
      'docs',
    );
  });
  beforeEach(async () => {
    await Docs.deleteMany({});
  });

  it('supports the positional $ operator, $pull, $addToSet, $push with $each/$sort/$slice', async () => {
    const d = await Docs.create({
      name: 'a',
      n: 1,
      tags: ['x', 'y'],
      items: [
        { sku: 'p', qty: 1 },
        { sku: 'q', qty: 2 },
      ],
    });
    await Docs.updateOne({ _id: d._id, 'items.sku': 'q' }, { $inc: { 'items.$.qty': 5 } });
    await Docs.updateOne({ _id: d._id }, { $pull: { tags: 'x' } });
    await Docs.updateOne({ _id: d._id }, { $addToSet: { tags: 'y' } });
    const raw = h.conn().db!.collection<{ tags: string[] }>('docs');
    const conflict = await rejection(raw.updateOne({ _id: d._id }, { $pull: { tags: 'x' }, $addToSet: { tags: 'y' } }));
    expect(conflict.code).toBe(40);
    await Docs.updateOne({ _id: d._id }, { $push: { tags: { $each: ['c', 'b', 'a'], $sort: 1, $slice: 3 } } });
    const after = await Docs.findById(d._id).lean();
    expect(after?.items).toEqual([
      { sku: 'p', qty: 1 },
      { sku: 'q', qty: 7 },
    ]);
    expect(after?.tags).toEqual(['a', 'b', 'c']);
  });

  it('supports $unset, $rename, $min, $max, $mul and $currentDate', async () => {
    const d = await Docs.create({ name: 'b', n: 10, old: 'value' });
    await Docs.collection.updateOne({ _id: d._id }, { $rename: { old: 'renamed' }, $min: { n: 4 }, $currentDate: { touchedAt: true } });
    await Docs.collection.updateOne({ _id: d._id }, { $mul: { n: 3 }, $unset: { name: '' } });
    await Docs.collection.updateOne({ _id: d._id }, { $max: { n: 5 } });
    const after = await Docs.findById(d._id).lean();
    expect(after).toMatchObject({ n: 12, renamed: 'value' });
    expect(after?.old).toBeUndefined();
    expect(after?.name).toBeUndefined();
    expect(after?.touchedAt).toBeInstanceOf(Date);
    expect((await rejection(Docs.collection.updateOne({ _id: d._id }, { $inc: { renamed: 1 } }))).code).toBe(14);
  });

  it('maintains timestamps and supports findOneAndReplace, exists and populate', async () => {
    const owner = await Owners.create({ name: 'Ada' });
    const d = await Docs.create({ name: 'c', n: 1, owner: owner._id });
    expect(d.createdAt).toBeInstanceOf(Date);
    await new Promise((r) => setTimeout(r, 5));
    await Docs.updateOne({ _id: d._id }, { $set: { n: 2 } });
    const updated = await Docs.findById(d._id).lean();
    expect(updated!.updatedAt!.getTime()).toBeGreaterThan(updated!.createdAt!.getTime());
    const replaced = await Docs.findOneAndReplace(
      { _id: d._id },
      { name: 'c2', n: 3, owner: owner._id },
      { returnDocument: 'after' },
    ).lean();
    expect(replaced).toMatchObject({ name: 'c2', n: 3 });
    expect(await Docs.exists({ name: 'c2' })).toMatchObject({ _id: d._id });
    const populated = await Docs.findById(d._id).populate<{ owner: { name: string } }>('owner').lean();
    expect(populated?.owner.name).toBe('Ada');
  });

  it('uses optimistic concurrency through the version key', async () => {
    const Versioned = h.conn().model('Versioned', new Schema({ n: Number }, { optimisticConcurrency: true }), 'versioned');
    const doc = await Versioned.create({ n: 1 });
    const a = await Versioned.findById(doc._id);
    const b = await Versioned.findById(doc._id);
    a!.n = 2;
    await a!.save();
    b!.n = 3;
    expect((await rejection(b!.save())).name).toBe('VersionError');
  });
});
