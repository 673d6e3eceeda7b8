import { Schema, type ClientSession, type Model } from 'mongoose';
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

  /** Settles to 'pending' if the promise has not settled within ms. */
  const within = <T>(p: Promise<T>, ms: number) =>
    Promise.race([p.then(() => 'settled' as const), new Promise<'pending'>((r) => setTimeout(() => r('pending'), ms))]);

  /** Runs `work` while an open transaction has written account a (+1); `work` commits or aborts it. */
  const whileLockingA = async (work: (txn: ClientSession) => Promise<void>) => {
    const txn = await h.conn().startSession();
    try {
      txn.startTransaction();
      await Accounts.updateOne({ _id: 'a' }, { $inc: { balance: 1 } }, { session: txn });
      await work(txn);
    } finally {
      await txn.endSession();
    }
  };

  it('makes a write outside a transaction wait for a document an open transaction wrote, then applies it after the commit', async () => {
    await whileLockingA(async (txn) => {
      const outside = Accounts.updateOne({ _id: 'a' }, { $inc: { balance: 10 } }).exec();
      expect(await within(outside, 300)).toBe('pending');
      // Other documents are written at once meanwhile.
      await Accounts.updateOne({ _id: 'b' }, { $inc: { balance: 5 } });
      await txn.commitTransaction(); // no WriteConflict: the outside write waited instead of slipping in
      expect((await outside).modifiedCount).toBe(1);
    });
    expect(await balances()).toEqual({ a: 111, b: 5 });
  });

  it('lets a waiting write outside a transaction run on the old version when the transaction aborts', async () => {
    await whileLockingA(async (txn) => {
      const outside = Accounts.findOneAndUpdate({ _id: 'a' }, { $inc: { balance: 10 } }, { returnDocument: 'after' })
        .lean()
        .exec();
      expect(await within(outside, 300)).toBe('pending');
      await txn.abortTransaction();
      expect((await outside)?.balance).toBe(110);
    });
    expect(await balances()).toEqual({ a: 110, b: 0 });
  });

  it('makes the statement of a bulk write that meets a locked document wait, and counts the whole bulk write', async () => {
    await whileLockingA(async (txn) => {
      const outside = Accounts.bulkWrite(
        [
          { updateOne: { filter: { _id: 'b' }, update: { $inc: { balance: 1 } } } },
          { updateOne: { filter: { _id: 'a' }, update: { $inc: { balance: 10 } } } },
          { updateOne: { filter: { _id: 'z' }, update: { $inc: { balance: 7 } }, upsert: true } },
        ],
        { ordered: false },
      );
      expect(await within(outside, 300)).toBe('pending');
      await txn.commitTransaction();
      const result = await outside;
      expect([result.matchedCount, result.modifiedCount, result.upsertedCount]).toEqual([2, 2, 1]);
      expect(result.upsertedIds).toEqual({ 2: 'z' });
    });
    expect(await balances()).toEqual({ a: 111, b: 1, z: 7 });
  });

  it('reports the write errors of a waiting insert at their own positions', async () => {
    const s1 = await h.conn().startSession();
    const raw = h.conn().db!.collection<{ _id: string; balance: number }>('accounts');
    try {
      s1.startTransaction();
      await raw.insertOne({ _id: 'd', balance: 1 }, { session: s1 });
      const outside = raw.insertMany(
        [
          { _id: 'b', balance: 2 },
          { _id: 'd', balance: 2 },
          { _id: 'e', balance: 2 },
        ],
        { ordered: false },
      );
      expect(await within(outside, 300)).toBe('pending');
      await s1.commitTransaction();
      const err = (await rejection(outside)) as unknown as { insertedCount: number; writeErrors: Array<{ index: number; code: number }> };
      expect(err.insertedCount).toBe(1);
      expect(err.writeErrors.map((e) => [e.index, e.code])).toEqual([
        [0, 11000],
        [1, 11000],
      ]);
    } finally {
      await s1.endSession();
    }
    expect(await balances()).toEqual({ a: 100, b: 0, d: 1, e: 2 });
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
