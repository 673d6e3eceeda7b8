import mongoose, { Schema, type Connection } from 'mongoose';
import { startEmbeddedMongo } from '@inv/embedded-mongo';
import { runIdempotent, type IdempotentRequest } from '@inv/service-kit';
import { createChanges } from './commit';
import { createOutbox } from './outbox';
import { requestJournal } from './request-journal';

jest.setTimeout(30_000);

/**
 * The journal of a request sent with an Idempotency-Key: each commit records its result in its own transaction; a
 * later attempt of the same request gets those results back from its commits, which then write nothing.
 */
describe('request journal (Idempotency-Key)', () => {
  let mongo: Awaited<ReturnType<typeof startEmbeddedMongo>>;
  let conn: Connection;

  beforeAll(async () => {
    mongo = await startEmbeddedMongo();
    conn = await mongoose.createConnection(mongo.uri, { dbName: 'journal_test' }).asPromise();
  });
  afterAll(async () => {
    await conn?.close();
    await mongo?.stop();
  });

  const setup = async () => {
    const outbox = createOutbox(conn);
    const things = conn.models.Thing ?? conn.model('Thing', new Schema({ _id: String, n: Number }, { versionKey: false }), 'things');
    const changes = createChanges(conn, outbox, () => undefined);
    await changes.init();
    return { things, changes, journal: requestJournal(conn) };
  };
  const request = (key: string, replayed: unknown[] = [], fingerprint = 'f'.repeat(64)): IdempotentRequest => ({
    companyId: 'c1',
    key,
    fingerprint,
    commits: 0,
    replayed,
  });

  it('records every commit of the request with its result, and a replay answers them without writing', async () => {
    const { things, changes, journal } = await setup();
    const work = (id: string) =>
      changes.commit(async (session) => {
        await things.create([{ _id: id, n: 1 }], { session });
        return { id, at: new Date('2026-11-29T10:00:00Z'), secret: `ak_live_${'a'.repeat(32)}` };
      });
    const first = await runIdempotent(request('k1'), async () => [await work('x1'), await work('x2')]);
    expect(first.map((r) => r.id)).toEqual(['x1', 'x2']);
    const kept = await journal.find({ companyId: 'c1', key: 'k1' });
    expect(kept?.results).toEqual([
      { id: 'x1', at: new Date('2026-11-29T10:00:00Z'), secret: `ak_live_${'*'.repeat(32)}` },
      { id: 'x2', at: new Date('2026-11-29T10:00:00Z'), secret: `ak_live_${'*'.repeat(32)}` },
    ]);
    // the retry: both commits answer the first attempt's results, a third runs
    const again = await runIdempotent(request('k1', kept!.results), async () => [await work('y1'), await work('y2'), await work('y3')]);
    expect(again.map((r) => r.id)).toEqual(['x1', 'x2', 'y3']);
    expect(await things.countDocuments({ _id: { $in: ['y1', 'y2'] } })).toBe(0);
    expect((await journal.find({ companyId: 'c1', key: 'k1' }))?.results).toHaveLength(3);
  });

  it("journals a commit tried again within the request after a failed one under the failed one's index", async () => {
    const { changes, journal } = await setup();
    await runIdempotent(request('k5'), async () => {
      await expect(
        changes.commit(async () => {
          throw new Error('conflict');
        }),
      ).rejects.toThrow('conflict');
      await changes.commit(async () => 'second try');
    });
    expect((await journal.find({ companyId: 'c1', key: 'k5' }))?.results).toEqual(['second try']);
  });

  it('lets one of two attempts running at once commit; the other is 409 and leaves nothing', async () => {
    const { things, changes } = await setup();
    const attempt = (id: string) =>
      runIdempotent(request('k2'), () =>
        changes.commit(async (session) => {
          await things.create([{ _id: id, n: 2 }], { session });
          await new Promise((r) => setTimeout(r, 20));
          return id;
        }),
      );
    const outcomes = await Promise.allSettled([attempt('p1'), attempt('p2')]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS' });
    expect(await things.countDocuments({ _id: { $in: ['p1', 'p2'] } })).toBe(1);
  });

  it('refuses another request under a key already used (422) and keeps a result BSON cannot hold as unreplayable', async () => {
    const { changes } = await setup();
    await runIdempotent(request('k3'), () => changes.commit(async () => 'one'));
    await expect(runIdempotent(request('k3', [], 'e'.repeat(64)), () => changes.commit(async () => 'two'))).rejects.toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(await runIdempotent(request('k4'), () => changes.commit(async () => circular))).toBe(circular);
    const { journal } = await setup();
    const kept = await journal.find({ companyId: 'c1', key: 'k4' });
    await expect(runIdempotent(request('k4', kept!.results), () => changes.commit(async () => 'again'))).rejects.toMatchObject({
      code: 'IDEMPOTENCY_IN_PROGRESS',
    });
  });
});
