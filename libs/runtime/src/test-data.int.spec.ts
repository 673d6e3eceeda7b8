import mongoose from 'mongoose';
import { asCompanyId, testTwinOf } from '@inv/contracts';
import { testMongo } from '@inv/testing';
import { deleteTestCompanyData } from './test-data';

jest.setTimeout(60_000);

describe('deleteTestCompanyData', () => {
  let mongo: Awaited<ReturnType<typeof testMongo>>;
  let conn: mongoose.Connection;
  const live = asCompanyId('cmp_reset');
  const twin = testTwinOf(live);

  beforeAll(async () => {
    mongo = await testMongo();
    conn = await mongoose.createConnection(mongo.uri, { dbName: `reset_${Date.now()}` }).asPromise();
    const db = conn.db!;
    await db.collection('invoices').insertMany([
      { _id: `${twin}:1` as never, id: 1, companyId: twin },
      { _id: `${live}:1` as never, id: 1, companyId: live },
    ]);
    await db.collection('counters').insertMany([
      { _id: `invoice:${twin}` as never, seq: 5 },
      { _id: `invoice:${live}` as never, seq: 9 },
    ]);
    await db.collection('audit_heads').insertMany([
      { _id: twin as never, seq: 3 },
      { _id: live as never, seq: 4 },
    ]);
    await db.collection('outbox').insertOne({ companyId: twin, type: 'x' });
  });
  afterAll(async () => {
    await conn?.dropDatabase().catch(() => undefined);
    await conn?.close();
    await mongo?.stop();
  });

  it("removes the twin's documents, keys and counters, leaves the live company's and the outbox", async () => {
    expect(await deleteTestCompanyData(conn, twin)).toEqual({ invoices: 1, counters: 1, audit_heads: 1 });
    const db = conn.db!;
    expect(await db.collection('invoices').find().toArray()).toEqual([{ _id: `${live}:1`, id: 1, companyId: live }]);
    expect(await db.collection('counters').countDocuments({ _id: `invoice:${live}` as never })).toBe(1);
    expect(await db.collection('audit_heads').countDocuments({ _id: live as never })).toBe(1);
    expect(await db.collection('outbox').countDocuments({ companyId: twin })).toBe(1);
    // a repeat (a redelivered reset) deletes nothing
    expect(await deleteTestCompanyData(conn, twin)).toEqual({});
  });

  it("refuses a live company's id", async () => {
    await expect(deleteTestCompanyData(conn, live)).rejects.toThrow(/not a test twin/);
    expect(await conn.db!.collection('invoices').countDocuments({ companyId: live })).toBe(1);
  });
});
