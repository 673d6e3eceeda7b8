import { Schema } from 'mongoose';
import { rejection, useMongo } from './harness';

describe('indexes through mongoose', () => {
  const h = useMongo();
  const coll = (name: string) => h.conn().db!.collection(name);

  it('enforces a unique index with the real E11000 error, keyPattern and keyValue', async () => {
    const Users = h.conn().model('User', new Schema({ email: { type: String, unique: true } }), 'users');
    await Users.createIndexes();
    await Users.create({ email: 'a@example.com' });
    const err = await rejection(Users.create({ email: 'a@example.com' }));
    expect(err.code).toBe(11000);
    expect(err.message).toContain(
      `E11000 duplicate key error collection: ${h.conn().name}.users index: email_1 dup key: { email: "a@example.com" }`,
    );
    expect(err.keyPattern).toEqual({ email: 1 });
    expect(err.keyValue).toEqual({ email: 'a@example.com' });
    const upd = await Users.create({ email: 'b@example.com' });
    const viaUpdate = await rejection(Users.updateOne({ _id: upd._id }, { $set: { email: 'a@example.com' } }));
    expect(viaUpdate.code).toBe(11000);
    const viaFindAndModify = await rejection(Users.findOneAndUpdate({ _id: upd._id }, { $set: { email: 'a@example.com' } }));
    expect(viaFindAndModify.code).toBe(11000);
    expect(viaFindAndModify.keyValue).toEqual({ email: 'a@example.com' });
  });

  it("syncs a model's indexes (mongoose syncIndexes: listIndexes, createIndex, dropIndex)", async () => {
    const schema = new Schema({ code: String, other: String });
    schema.index({ code: 1 }, { unique: true });
    const first = h.conn().model('Synced', schema, 'synced');
    await first.syncIndexes();
    await h.conn().db!.collection('synced').createIndex({ other: 1 });
    const dropped = await first.syncIndexes();
    expect(dropped).toEqual(['other_1']);
    const names = (await first.listIndexes()).map((i) => i.name).sort();
    expect(names).toEqual(['_id_', 'code_1']);
  });

  it('rejects a duplicate _id', async () => {
    await coll('ids').insertOne({ _id: 'x' } as never);
    const err = await rejection(coll('ids').insertOne({ _id: 'x' } as never));
    expect(err.code).toBe(11000);
    expect(err.message).toContain('index: _id_ dup key: { _id: "x" }');
  });

  it('enforces compound unique indexes on the combination only', async () => {
    const c = coll('compound');
    await c.createIndex({ companyId: 1, number: 1 }, { unique: true });
    await c.insertMany([
      { companyId: 1, number: 7 },
      { companyId: 2, number: 7 },
    ]);
    const err = await rejection(c.insertOne({ companyId: 1, number: 7 }));
    expect(err.code).toBe(11000);
    expect(err.keyPattern).toEqual({ companyId: 1, number: 1 });
    expect(err.keyValue).toEqual({ companyId: 1, number: 7 });
  });

  it('partial unique indexes ignore documents outside the filter; sparse ones ignore missing fields', async () => {
    const p = coll('partial');
    await p.createIndex({ code: 1 }, { unique: true, partialFilterExpression: { active: true } });
    await p.insertMany([
      { code: 'A', active: false },
      { code: 'A', active: false },
      { code: 'A', active: true },
    ]);
    expect((await rejection(p.insertOne({ code: 'A', active: true }))).code).toBe(11000);
    const s = coll('sparse');
    await s.createIndex({ vat: 1 }, { unique: true, sparse: true });
    await s.insertMany([{ name: 'no vat 1' }, { name: 'no vat 2' }, { vat: 'DE1' }]);
    expect((await rejection(s.insertOne({ vat: 'DE1' }))).code).toBe(11000);
    const plain = coll('plainunique');
    await plain.createIndex({ vat: 1 }, { unique: true });
    await plain.insertOne({ name: 'missing counts as null' });
    expect((await rejection(plain.insertOne({ name: 'second null' }))).code).toBe(11000);
  });

  it('refuses a unique index over existing duplicates', async () => {
    const c = coll('dupdata');
    await c.insertMany([{ k: 1 }, { k: 1 }]);
    expect((await rejection(c.createIndex({ k: 1 }, { unique: true }))).code).toBe(11000);
  });

  it('lists, re-creates idempotently and drops indexes; conflicting options fail', async () => {
    const c = coll('listed');
    await c.createIndex({ a: 1, b: -1 });
    await c.createIndex({ a: 1, b: -1 });
    await c.createIndex({ t: 1 }, { expireAfterSeconds: 3600, name: 'ttl' });
    const names = (await c.listIndexes().toArray()).map((i) => i.name).sort();
    expect(names).toEqual(['_id_', 'a_1_b_-1', 'ttl']);
    const ttl = (await c.listIndexes().toArray()).find((i) => i.name === 'ttl');
    expect(ttl?.expireAfterSeconds).toBe(3600);
    const conflict = await rejection(c.createIndex({ a: 1, b: -1 }, { unique: true }));
    expect([85, 86]).toContain(conflict.code);
    await c.dropIndex('a_1_b_-1');
    expect((await c.listIndexes().toArray()).length).toBe(2);
    expect((await rejection(coll('nonexistent').listIndexes().toArray())).code).toBe(26);
  });

  it('removes expired documents through a TTL index', async () => {
    const c = coll('ttl');
    await c.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
    await c.insertMany([
      { k: 'old', expiresAt: new Date(Date.now() - 1000) },
      { k: 'future', expiresAt: new Date(Date.now() + 3_600_000) },
      { k: 'no date' },
    ]);
    if (!h.embedded()) return; // mongod's TTL monitor runs only every 60 s
    const deadline = Date.now() + 5000;
    while ((await c.countDocuments({ k: 'old' })) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect((await c.find().toArray()).map((d) => d.k).sort()).toEqual(['future', 'no date']);
  });
});
