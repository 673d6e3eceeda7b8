import { Schema } from 'mongoose';
import { rejection, useMongo } from './harness';

describe('collections and databases through mongoose', () => {
  const h = useMongo();

  it('create fails with NamespaceExists (48) on an existing collection, which mongoose tolerates', async () => {
    const db = h.conn().db!;
    await db.createCollection('made');
    const err = await rejection(db.createCollection('made'));
    expect(err.code).toBe(48);
    const Made = h.conn().model('Made', new Schema({ x: Number }), 'made');
    await Made.createCollection();
    await Made.init();
  });

  it('lists collections, with a name filter', async () => {
    const db = h.conn().db!;
    await db.collection('listed_a').insertOne({ x: 1 });
    await db.collection('listed_b').insertOne({ x: 1 });
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['listed_a', 'listed_b']));
    const filtered = await db.listCollections({ name: 'listed_a' }).toArray();
    expect(filtered.map((c) => c.name)).toEqual(['listed_a']);
  });

  it('drops a collection and a database', async () => {
    const db = h.conn().db!;
    await db.collection('dropme').insertOne({ x: 1 });
    expect(await db.collection('dropme').drop()).toBe(true);
    expect(await db.collection('dropme').countDocuments()).toBe(0);
    const other = h.conn().useDb(`${h.conn().name}_other`);
    await other.db!.collection('c').insertOne({ x: 1 });
    await other.dropDatabase();
    expect(await other.db!.listCollections().toArray()).toEqual([]);
  });

  it('renames a collection with its documents and indexes; reports database stats', async () => {
    const db = h.conn().db!;
    await db.collection('before').createIndex({ k: 1 }, { unique: true });
    await db.collection('before').insertMany([{ k: 1 }, { k: 2 }]);
    await db.renameCollection('before', 'after');
    expect(await db.collection('after').countDocuments()).toBe(2);
    expect((await rejection(db.collection('after').insertOne({ k: 1 }))).code).toBe(11000);
    expect(await db.collection('before').countDocuments()).toBe(0);
    expect((await rejection(db.renameCollection('missing', 'x'))).code).toBe(26);
    const stats = await db.stats();
    expect(stats.collections).toBeGreaterThanOrEqual(1);
    expect(stats.objects).toBeGreaterThanOrEqual(2);
  });

  it('lists databases, changes a TTL with collMod and drops all indexes', async () => {
    const db = h.conn().db!;
    const c = db.collection('modded');
    await c.createIndex({ at: 1 }, { expireAfterSeconds: 60 });
    await c.createIndex({ other: 1 });
    const dbs = await db.admin().listDatabases();
    expect(dbs.databases.map((d) => d.name)).toContain(h.conn().name);
    await db.command({ collMod: 'modded', index: { keyPattern: { at: 1 }, expireAfterSeconds: 120 } });
    expect((await c.listIndexes().toArray()).find((i) => i.name === 'at_1')?.expireAfterSeconds).toBe(120);
    await c.dropIndexes();
    expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
  });

  it('answers unknown commands with CommandNotFound (59)', async () => {
    const err = await rejection(h.conn().db!.command({ noSuchCommandHere: 1 }));
    expect(err.code).toBe(59);
    expect(err.codeName).toBe('CommandNotFound');
  });

  it('answers ping and reports a replica set primary', async () => {
    const admin = h.conn().db!.admin();
    expect((await admin.ping()).ok).toBe(1);
    const hello = await admin.command({ hello: 1 });
    expect(hello.isWritablePrimary).toBe(true);
    expect(typeof hello.setName).toBe('string');
    expect(hello.logicalSessionTimeoutMinutes).toBeGreaterThan(0);
  });
});
