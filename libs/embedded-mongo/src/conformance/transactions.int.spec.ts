import { Schema, type Model } from 'mongoose';
import { rejection, useMongo } from './harness';

interface Account {
  _id: string;
  balance: number;
}

describe('transactions through mongoose sessions', () => {
  const h = useMongo();
  let Accounts: Model<Account>;

  beforeAll(async () => {
    Accounts = h.conn().model<Account>('Account', new Schema<Account>({ _id: String, balance: Number }), 'accounts');
    await Accounts.createCollection();
  });
  beforeEach(async () => {
    await Accounts.deleteMany({});
    await Accounts.insertMany([
      { _id: 'a', balance: 100 },
      { _id: 'b', balance: 0 },
    ]);
  });

  const balances = async () => Object.fromEntries((await Accounts.find().lean()).map((d) => [d._id, d.balance]));

  it('commits all writes of withTransaction together, invisible to others until commit', async () => {
    const session = await h.conn().startSession();
    try {
      await session.withTransaction(async () => {
        await Accounts.updateOne({ _id: 'a' }, { $inc: { balance: -30 } }, { session });
        await Accounts.updateOne({ _id: 'b' }, { $inc: { balance: 30 } }, { session });
        await Accounts.create([{ _id: 'c', balance: 1 }], { session });
        // inside: own writes visible; outside: not yet
        expect((await Accounts.findById('a').session(session).lean())?.balance).toBe(70);
        expect(await balances()).toEqual({ a: 100, b: 0 });
      });
    } finally {
      await session.endSession();
    }
    expect(await balances()).toEqual({ a: 70, b: 30, c: 1 });
  });

  it('creates a collection inside a transaction, visible only after commit', async () => {
    const name = `txn_created_${Date.now()}`;
    const session = await h.conn().startSession();
    try {
      await session.withTransaction(async () => {
        await h.conn().db!.collection(name).insertOne({ k: 1 }, { session });
        expect(await h.conn().db!.collection(name).countDocuments()).toBe(0);
      });
    } finally {
      await session.endSession();
    }
    expect(await h.conn().db!.collection(name).countDocuments()).toBe(1);
  });

  it('commits a swap of unique values between documents', async () => {
    const Handles = h.conn().model('Handle', new Schema({ _id: String, handle: { type: String, unique: true } }), 'handles');
    await Handles.createCollection();
    await Handles.createIndexes();
    await Handles.insertMany([
      { _id: 'x', handle: 'alpha' },
      { _id: 'y', handle: 'beta' },
    ]);
    const session = await h.conn().startSession();
    try {
      await session.withTransaction(async () => {
        await Handles.updateOne({ _id: 'x' }, { handle: 'tmp' }, { session });
        await Handles.updateOne({ _id: 'y' }, { handle: 'alpha' }, { session });
        await Handles.updateOne({ _id: 'x' }, { handle: 'beta' }, { session });
      });
    } finally {
      await session.endSession();
    }
    expect(await Handles.find({}, { _id: 1, handle: 1 }).sort({ _id: 1 }).lean()).toEqual([
      { _id: 'x', handle: 'beta' },
      { _id: 'y', handle: 'alpha' },
    ]);
  });

  it('discards every write when the callback throws', async () => {
    const session = await h.conn().startSession();
    try {
      const err = await rejection(
        session.withTransaction(async () => {
          await Accounts.updateOne({ _id: 'a' }, { $inc: { balance: -30 } }, { session });
          await Accounts.deleteOne({ _id: 'b' }, { session });
          throw new Error('business rule failed');
        }),
      );
      expect(err.message).toBe('business rule failed');
    } finally {
      await session.endSession();
    }
    expect(await balances()).toEqual({ a: 100, b: 0 });
  });

  it('discards writes on an explicit abortTransaction', async () => {
    const session = await h.conn().startSession();
    try {
      session.startTransaction();
      await Accounts.create([{ _id: 'z', balance: 5 }], { session });
      await session.abortTransaction();
    } finally {
      await session.endSession();
    }
    expect(await Accounts.exists({ _id: 'z' })).toBeNull();
  });

  it('answers a duplicate key inside a transaction with 11000', async () => {
    const session = await h.conn().startSession();
    try {
      const err = await rejection(
        session.withTransaction(async () => {
          await Accounts.create([{ _id: 'a', balance: 1 }], { session });
        }),
      );
      expect(err.code).toBe(11000);
    } finally {
      await session.endSession();
    }
    expect(await balances()).toEqual({ a: 100, b: 0 });
  });

  it('answers a write to a document another open transaction wrote with WriteConflict (112), TransientTransactionError', async () => {
    const s1 = await h.conn().startSession();
    const s2 = await h.conn().startSession();
    try {
      s1.startTransaction();
      await Accounts.updateOne({ _id: 'a' }, { $inc: { balance: 1 } }, { session: s1 });
      s2.startTransaction();
      const err = await rejection(Accounts.updateOne({ _id: 'a' }, { $inc: { balance: 1 } }, { session: s2 }));
      expect(err.code).toBe(112);
      expect((err as unknown as { hasErrorLabel(l: string): boolean }).hasErrorLabel('TransientTransactionError')).toBe(true);
      await s2.abortTransaction().catch(() => undefined);
      await s1.commitTransaction();
    } finally {
      await s1.endSession();
      await s2.endSession();
    }
    expect(await balances()).toEqual({ a: 101, b: 0 });
  });

  it('lets withTransaction retry through a write conflict until the other transaction commits', async () => {
    const s1 = await h.conn().startSession();
    const s2 = await h.conn().startSession();
    let attempts = 0;
    try {
      s1.startTransaction();
      await Accounts.updateOne({ _id: 'a' }, { $inc: { balance: 1 } }, { session: s1 });
      const commitLater = new Promise<void>((resolve, reject) =>
        setTimeout(() => s1.commitTransaction().then(() => resolve(), reject), 150),
      );
      await s2.withTransaction(async () => {
        attempts++;
        await Accounts.updateOne({ _id: 'a' }, { $inc: { balance: 10 } }, { session: s2 });
      });
      await commitLater;
    } finally {
      await s1.endSession();
      await s2.endSession();
    }
    expect(attempts).toBeGreaterThan(1);
    expect(await balances()).toEqual({ a: 111, b: 0 });
  });

  it('runs concurrent counter transactions without losing an increment', async () => {
    const Counters = h.conn().model('TxnCounter', new Schema({ _id: String, seq: Number }), 'txn_counters');
    await Counters.createCollection();
    await Counters.create({ _id: 'n', seq: 0 });
    await Promise.all(
      Array.from({ length: 5 }, async () => {
        const session = await h.conn().startSession();
        try {
          await session.withTransaction(async () => {
            await Counters.findOneAndUpdate({ _id: 'n' }, { $inc: { seq: 1 } }, { session, returnDocument: 'after' });
          });
        } finally {
          await session.endSession();
        }
      }),
    );
    expect((await Counters.findById('n').lean())?.seq).toBe(5);
  });
});
