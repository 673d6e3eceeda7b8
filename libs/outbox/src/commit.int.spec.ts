import mongoose, { Schema, type ClientSession, type Connection } from 'mongoose';
import { asCompanyId } from '@inv/contracts';
import { startEmbeddedMongo } from '@inv/embedded-mongo';
import { createChanges } from './commit';
import { createOutbox, type OutboxMessage } from './outbox';

jest.setTimeout(30_000);

/** "Change and publish": the change and its messages commit together, or neither does. */
describe('commit', () => {
  let mongo: Awaited<ReturnType<typeof startEmbeddedMongo>>;
  let conn: Connection;
  let kicks = 0;
  const msg = (n: number): OutboxMessage => ({ kind: 'event', type: 'thing.changed.v1', companyId: asCompanyId('c1'), data: { n } });

  beforeAll(async () => {
    mongo = await startEmbeddedMongo();
    conn = await mongoose.createConnection(mongo.uri, { dbName: 'commit_test' }).asPromise();
  });
  afterAll(async () => {
    await conn?.close();
    await mongo?.stop();
  });

  const setup = () => {
    const outbox = createOutbox(conn);
    const things = conn.models.Thing ?? conn.model('Thing', new Schema({ _id: String, n: Number }, { versionKey: false }), 'things');
    return { outbox, things, changes: createChanges(conn, outbox, () => void kicks++) };
  };

  it('writes the change and its messages in one transaction and wakes the relay after the commit', async () => {
    const { outbox, things, changes } = setup();
    const before = kicks;
    const result = await changes.commit(async (session, emit) => {
      await things.create([{ _id: 'a', n: 1 }], { session });
      emit(msg(1), msg(2));
      expect(kicks).toBe(before); // not before the commit
      return 'done';
    });
    expect(result).toBe('done');
    expect(kicks).toBe(before + 1);
    expect(await things.countDocuments({ _id: 'a' })).toBe(1);
    expect(await outbox.model.countDocuments({ 'data.n': { $in: [1, 2] } })).toBe(2);
  });

  it('keeps neither the change nor the messages when the work fails', async () => {
    const { outbox, things, changes } = setup();
    const before = kicks;
    await expect(
      changes.commit(async (session, emit) => {
        await things.create([{ _id: 'b', n: 3 }], { session });
        emit(msg(3));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(kicks).toBe(before);
    expect(await things.countDocuments({ _id: 'b' })).toBe(0);
    expect(await outbox.model.countDocuments({ 'data.n': 3 })).toBe(0);
  });

  it('does not wake the relay for a change without messages, and publishes messages that follow no write', async () => {
    const { outbox, things, changes } = setup();
    const before = kicks;
    await changes.commit(async (session) => void (await things.create([{ _id: 'c', n: 4 }], { session })));
    expect(kicks).toBe(before);
    await changes.publish(msg(5));
    expect(kicks).toBe(before + 1);
    expect(await outbox.model.countDocuments({ 'data.n': 5 })).toBe(1);
    await changes.publish();
    expect(kicks).toBe(before + 1);
  });

  it('stores a message as it was emitted: an undefined field stays absent, at any depth, never null', async () => {
    const { outbox, changes } = setup();
    const data = { n: 6, gone: undefined, nested: { kept: 'x', gone: undefined, list: [{ a: 1, gone: undefined }] } };
    await changes.publish({ kind: 'event', type: 'thing.changed.v1', companyId: asCompanyId('c1'), data, correlationId: undefined });
    const stored = await outbox.model.findOne({ 'data.n': 6 }).lean();
    expect(stored?.data).toEqual({ n: 6, nested: { kept: 'x', list: [{ a: 1 }] } });
    expect(JSON.stringify(stored)).not.toContain('null');
    expect(stored).not.toHaveProperty('correlationId');
  });

  it('writes the messages of the attempt that commits only, when concurrent transactions conflict and retry', async () => {
    const { outbox, things, changes } = setup();
    await things.create({ _id: 'counter', n: 0 });
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        changes.commit(async (session, emit) => {
          const doc = await things.findById('counter').session(session).lean<{ n: number }>();
          await things.updateOne({ _id: 'counter' }, { $set: { n: doc!.n + 1 } }, { session });
          emit({ ...msg(100 + i), id: `retry-${i}` });
        }),
      ),
    );
    expect((await things.findById('counter').lean<{ n: number }>())!.n).toBe(8);
    expect(await outbox.model.countDocuments({ _id: { $regex: /^retry-/ } })).toBe(8);
  });

  it('applies a received message once: a redelivery with the same envelope id changes nothing', async () => {
    const { things, changes } = setup();
    await things.create({ _id: 'once', n: 0 });
    const msgIn = { id: 'env-1', companyId: 'c1', type: 'thing.happened.v1' };
    const apply = () =>
      changes.commitOnce(msgIn, async (session) => void (await things.updateOne({ _id: 'once' }, { $inc: { n: 1 } }, { session })));
    expect(await apply()).toBe(true);
    expect(await apply()).toBe(false);
    expect(await Promise.all([apply(), apply()])).toEqual([false, false]);
    expect((await things.findById('once').lean<{ n: number }>())!.n).toBe(1);
    await expect(changes.commitOnce({ ...msgIn, id: 'env-2' }, async () => Promise.reject(new Error('transient')))).rejects.toThrow(
      'transient',
    );
    expect(await changes.commitOnce({ ...msgIn, id: 'env-2' }, async () => undefined)).toBe(true); // a failed attempt is not recorded
  });

  it('applies a batch of received messages once, and nothing of a batch holding one applied before', async () => {
    const { things, changes } = setup();
    await things.create({ _id: 'batch', n: 0 });
    const msg = (id: string) => ({ id, companyId: 'c1', type: 'thing.happened.v1' });
    const add = (k: number) => async (session: ClientSession) =>
      void (await things.updateOne({ _id: 'batch' }, { $inc: { n: k } }, { session }));
    expect(await changes.commitAllOnce([msg('b-1'), msg('b-2')], add(2))).toBe(true);
    expect(await changes.commitAllOnce([msg('b-3'), msg('b-2')], add(2))).toBe(false); // b-2 was applied: b-3 is not recorded either
    expect(await changes.commitOnce(msg('b-3'), add(1))).toBe(true);
    expect((await things.findById('batch').lean<{ n: number }>())!.n).toBe(3);
  });
});
