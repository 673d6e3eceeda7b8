import mongoose, { type Connection } from 'mongoose';
import { startEmbeddedMongo } from '@inv/embedded-mongo';
import { createChanges } from './commit';
import { createOutbox, type Outbox, type OutboxEntry, type OutboxMessage } from './outbox';
import { startOutboxRelay, type OutboxRelay } from './relay';

jest.setTimeout(30_000);

const quiet = { warn: () => undefined, error: () => undefined };
const msg = (n: number): OutboxMessage => ({ kind: 'event', type: 'thing.changed.v1', companyId: 'c1', data: { n } });

/** The relay publishes in order, marks what it published, and reads the outbox only when it must. */
describe('outbox relay', () => {
  let mongo: Awaited<ReturnType<typeof startEmbeddedMongo>>;
  let conn: Connection;
  let outbox: Outbox;
  let relay: OutboxRelay | undefined;
  let reads = 0;
  let markUpdates = 0;

  beforeAll(async () => {
    mongo = await startEmbeddedMongo();
    conn = await mongoose.createConnection(mongo.uri, { dbName: 'relay_test', monitorCommands: true }).asPromise();
    conn.getClient().on('commandStarted', (e) => {
      if (e.commandName === 'find' && (e.command as { find?: string }).find === 'outbox') reads++;
      if (e.commandName === 'update' && (e.command as { update?: string }).update === 'outbox') markUpdates++;
    });
    outbox = createOutbox(conn);
    await outbox.model.init();
  });
  afterEach(async () => {
    await relay?.stop();
    relay = undefined;
    await outbox.model.deleteMany({});
  });
  afterAll(async () => {
    await conn?.close();
    await mongo?.stop();
  });

  const waitFor = async (cond: () => boolean) => {
    for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(cond()).toBe(true);
  };
  const published = (entries: OutboxEntry[]) => entries.map((e) => (e.data as { n: number }).n);
  /** A relay publishing through `publish`, after its start's read of what is pending; and changes that kick it. */
  const startRelay = async (publish: (e: OutboxEntry) => Promise<void>) => {
    relay = startOutboxRelay(outbox, publish, quiet, 60_000);
    await relay.flush();
    return createChanges(conn, outbox, (committed) => relay!.kick(committed));
  };
  /** A publish that fails once, for entry `n`, and records what it sent. */
  const failingOnceFor = (n: number) => {
    const state = { sent: [] as OutboxEntry[], failed: false };
    const publish = async (e: OutboxEntry) => {
      if ((e.data as { n: number }).n === n && !state.failed) {
        state.failed = true;
        throw new Error('broker away');
      }
      state.sent.push(e);
    };
    return { state, publish };
  };

  it('publishes entries handed over after their commit without reading the outbox, and marks them published', async () => {
    const sent: OutboxEntry[] = [];
    const changes = await startRelay(async (e) => void sent.push(e));
    const readsBefore = reads;
    await changes.commit(async (_session, emit) => emit(msg(1), msg(2)));
    await changes.publish(msg(3));
    await waitFor(() => sent.length === 3);
    await relay!.flush();
    expect(published(sent)).toEqual([1, 2, 3]);
    expect(reads - readsBefore).toBe(1); // only flush() reads; the handed-over entries were not read back
    expect(await outbox.model.countDocuments({ publishedAt: { $exists: false } })).toBe(0);
  });

  it('after a failed publish, reads the outbox again and keeps the order (the failed entry first)', async () => {
    const { state, publish } = failingOnceFor(10);
    const changes = await startRelay(publish);
    await changes.publish(msg(10));
    await changes.publish(msg(11));
    await waitFor(() => state.failed);
    await relay!.flush();
    expect(published(state.sent)).toEqual([10, 11]);
    const entry = await outbox.model.findOne({ 'data.n': 10 }).lean();
    expect(entry?.attempts).toBe(1);
    expect(await outbox.model.countDocuments({ publishedAt: { $exists: false } })).toBe(0);
  });

  it('publishes a batch pipelined: in order, without waiting for each confirm before the next publish', async () => {
    const calls: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const changes = await startRelay(async (e) => {
      calls.push((e.data as { n: number }).n);
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      await new Promise((r) => setTimeout(r, 30)); // the broker's confirm
      inFlight--;
    });
    const started = Date.now();
    await changes.commit(async (_session, emit) => emit(...Array.from({ length: 10 }, (_, i) => msg(30 + i))));
    await waitFor(() => calls.length === 10 && inFlight === 0);
    expect(Date.now() - started).toBeLessThan(10 * 30);
    expect(maxInFlight).toBe(10);
    expect(calls).toEqual(Array.from({ length: 10 }, (_, i) => 30 + i));
    await relay!.flush();
    expect(await outbox.model.countDocuments({ publishedAt: { $exists: false } })).toBe(0);
  });

  it('retries an entry that failed inside a batch; its confirmed batch-mates are marked and not sent again', async () => {
    const { state, publish } = failingOnceFor(41);
    const changes = await startRelay(publish);
    await changes.commit(async (_session, emit) => emit(msg(40), msg(41), msg(42)));
    await waitFor(() => state.failed);
    await relay!.flush();
    expect(published(state.sent).sort()).toEqual([40, 41, 42]);
    expect((await outbox.model.findOne({ 'data.n': 41 }).lean())?.attempts).toBe(1);
    expect(await outbox.model.countDocuments({ publishedAt: { $exists: false } })).toBe(0);
  });

  it('marks entries published one after another in few updates, and before it reads the outbox', async () => {
    const sent: OutboxEntry[] = [];
    const changes = await startRelay(async (e) => void sent.push(e));
    const before = markUpdates;
    for (let n = 50; n < 60; n++) await changes.publish(msg(n)); // ten runs of the relay, one entry each
    await waitFor(() => sent.length === 10);
    await relay!.flush(); // reads the outbox: the marks come first
    expect(await outbox.model.countDocuments({ publishedAt: { $exists: false } })).toBe(0);
    expect(markUpdates - before).toBeLessThanOrEqual(3);
    expect(published(sent)).toEqual(Array.from({ length: 10 }, (_, i) => 50 + i));
  });

  it('publishes entries written before it started (a crash before their publish) on its first run', async () => {
    await outbox.add([msg(20), msg(21)]);
    const sent: OutboxEntry[] = [];
    relay = startOutboxRelay(outbox, async (e) => void sent.push(e), quiet, 60_000);
    await relay.flush();
    expect(published(sent)).toEqual([20, 21]);
    expect(await outbox.model.countDocuments({ publishedAt: { $exists: false } })).toBe(0);
  });
});
