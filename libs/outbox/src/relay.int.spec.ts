import mongoose, { type Connection, type mongo } from 'mongoose';
import { asCompanyId } from '@inv/contracts';
import { startEmbeddedMongo } from '@inv/embedded-mongo';
import { createChanges } from './commit';
import { createOutbox, outboxEntries, type Outbox, type OutboxEntry, type OutboxMessage } from './outbox';
import { PENDING_INDEX, pushPending, type HeldEntry, type PendingHolder, type PendingSource } from './pending';
import { startOutboxRelay, type OutboxRelay } from './relay';
import { watchOutboxBacklog } from './metrics';
import { register } from 'prom-client';

jest.setTimeout(30_000);

const quiet = { warn: () => undefined, error: () => undefined };
const msg = (n: number): OutboxMessage => ({ kind: 'event', type: 'thing.changed.v1', companyId: asCompanyId('c1'), data: { n } });

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

/** Messages kept inside the documents whose change they announce (pending.ts), beside the outbox. */
describe('outbox relay with messages kept in documents', () => {
  let mongo: Awaited<ReturnType<typeof startEmbeddedMongo>>;
  let conn: Connection;
  let outbox: Outbox;
  let drafts: mongo.Collection<{ _id: number; title?: string; pendingMessages?: OutboxEntry[] }>;
  let relay: OutboxRelay | undefined;

  beforeAll(async () => {
    mongo = await startEmbeddedMongo();
    conn = await mongoose.createConnection(mongo.uri, { dbName: 'relay_pending_test' }).asPromise();
    outbox = createOutbox(conn);
    await outbox.model.init();
    drafts = conn.db!.collection('drafts');
    await drafts.createIndex(PENDING_INDEX.key, {
      name: PENDING_INDEX.name,
      partialFilterExpression: PENDING_INDEX.partialFilterExpression,
    });
  });
  afterEach(async () => {
    await relay?.stop();
    relay = undefined;
    await outbox.model.deleteMany({});
    await drafts.deleteMany({});
  });
  afterAll(async () => {
    await conn?.close();
    await mongo?.stop();
  });

  const source = (): PendingSource => ({ name: 'drafts', collection: drafts as unknown as mongo.Collection<PendingHolder> });
  const held = (entries: OutboxEntry[], id: number): HeldEntry[] => entries.map((e) => ({ ...e, heldBy: { source: 'drafts', id } }));
  const numbers = (entries: OutboxEntry[]) => entries.map((e) => (e.data as { n: number }).n);
  const left = async () =>
    (await drafts.find({}).toArray()).flatMap((d) => (d.pendingMessages ?? []).map((e) => (e.data as { n: number }).n));
  const waitFor = async (cond: () => boolean | Promise<boolean>) => {
    for (let i = 0; i < 500 && !(await cond()); i++) await new Promise((r) => setTimeout(r, 10));
    expect(await cond()).toBe(true);
  };

  it('publishes what the change handed over, then pulls it out of its document; the document is otherwise untouched', async () => {
    const sent: OutboxEntry[] = [];
    relay = startOutboxRelay(outbox, async (e) => void sent.push(e), quiet, 60_000, [source()]);
    await relay.flush();
    const first = outboxEntries([msg(1)]);
    await drafts.insertOne({ _id: 1, title: 'draft', pendingMessages: first });
    relay.kick(held(first, 1));
    const second = outboxEntries([msg(2), msg(3)]);
    await drafts.updateOne({ _id: 1 }, { $set: { title: 'changed' }, ...pushPending(second) });
    relay.kick(held(second, 1));
    await waitFor(() => sent.length === 3);
    await relay.flush();
    expect(numbers(sent)).toEqual([1, 2, 3]);
    expect(sent.every((e) => !('heldBy' in e))).toBe(true); // the bus gets the message, not where it was kept
    expect(await left()).toEqual([]);
    expect(await drafts.findOne({ _id: 1 })).toMatchObject({ title: 'changed', pendingMessages: [] });
  });

  it('publishes messages left in documents (a crash before their publish) on its first run, in creation order with the outbox', async () => {
    const a = outboxEntries([msg(20)]);
    await drafts.insertOne({ _id: 2, pendingMessages: a });
    await new Promise((r) => setTimeout(r, 5));
    await outbox.add([msg(21)]);
    await new Promise((r) => setTimeout(r, 5));
    await drafts.insertOne({ _id: 3, pendingMessages: outboxEntries([msg(22), msg(23)]) });
    await drafts.insertOne({ _id: 4, title: 'nothing pending' });
    const sent: OutboxEntry[] = [];
    relay = startOutboxRelay(outbox, async (e) => void sent.push(e), quiet, 60_000, [source()]);
    await relay.flush();
    expect(numbers(sent)).toEqual([20, 21, 22, 23]);
    expect(await left()).toEqual([]);
    expect(await outbox.model.countDocuments({ publishedAt: { $exists: false } })).toBe(0);
  });

  it('counts the documents holding messages in the backlog gauges, with the outbox', async () => {
    const watch = watchOutboxBacklog('relay-pending-test', outbox, () => [source()]);
    try {
      const old = outboxEntries([msg(40)]);
      old[0]!.createdAt = new Date(Date.now() - 60_000);
      await drafts.insertOne({ _id: 6, pendingMessages: old });
      await drafts.insertOne({ _id: 7, pendingMessages: [] }); // emptied by the relay: not counted
      await outbox.add([msg(41)]);
      expect(await register.getSingleMetricAsString('outbox_pending_entries')).toMatch(/service="relay-pending-test"\} 2$/m);
      const age = /service="relay-pending-test"\} ([0-9.]+)$/m.exec(
        await register.getSingleMetricAsString('outbox_oldest_pending_age_seconds'),
      );
      expect(Number(age?.[1])).toBeGreaterThanOrEqual(59);
    } finally {
      watch.unwatch();
    }
  });

  it('keeps a message whose publish failed in its document and publishes it on a later run', async () => {
    let failed = false;
    const sent: OutboxEntry[] = [];
    relay = startOutboxRelay(
      outbox,
      async (e) => {
        if ((e.data as { n: number }).n === 31 && !failed) {
          failed = true;
          throw new Error('broker away');
        }
        sent.push(e);
      },
      quiet,
      60_000,
      [source()],
    );
    await relay.flush();
    const entries = outboxEntries([msg(30), msg(31)]);
    await drafts.insertOne({ _id: 5, pendingMessages: entries });
    relay.kick(held(entries, 5));
    await waitFor(() => failed && sent.length === 1);
    await relay.flush(); // the failure made it read the documents again
    expect(numbers(sent)).toEqual([30, 31]);
    expect(await left()).toEqual([]);
  });
});
