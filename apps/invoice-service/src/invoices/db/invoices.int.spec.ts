import mongoose, { type Connection } from 'mongoose';
import { startEmbeddedMongo } from '@inv/embedded-mongo';
import { asCompanyId, type InvoiceSnapshot } from '@inv/contracts';
import { HOLDING_PENDING, outboxEntries, type OutboxEntry } from '@inv/outbox';
import { invoiceSchema, invoicesRepo, type InvoiceDoc, type PositionDoc } from './invoices';
import { jobsRepo, type JobDoc } from './jobs';

jest.setTimeout(30_000);

const A = asCompanyId('cmp_a');
const B = asCompanyId('cmp_b');

/**
 * The hot writes of invoices and jobs go to the driver, not through mongoose (invoices.ts says why). Each case
 * here writes one document through the repository and its twin through mongoose as before, and compares what
 * was stored: the same fields, types and values, no `null` for an unset field.
 */
describe('invoice and job writes through the driver', () => {
  let mongo: Awaited<ReturnType<typeof startEmbeddedMongo>>;
  let conn: Connection;
  let repo: ReturnType<typeof invoicesRepo>;
  let jobs: ReturnType<typeof jobsRepo>;
  let viaMongoose: mongoose.Model<InvoiceDoc>;
  let jobsViaMongoose: mongoose.Model<JobDoc>;

  beforeAll(async () => {
    mongo = await startEmbeddedMongo();
    conn = await mongoose.createConnection(mongo.uri, { dbName: 'invoices_repo_test' }).asPromise();
    repo = invoicesRepo(conn);
    jobs = jobsRepo(conn);
    // the same schema and collection, written the mongoose way
    viaMongoose = conn.model<InvoiceDoc>('InvoiceViaMongoose', invoiceSchema, 'invoices');
    jobsViaMongoose = conn.model<JobDoc>('JobViaMongoose', conn.models.Job.schema, 'jobs');
    await repo.init();
  });
  afterAll(async () => {
    await conn?.close();
    await mongo?.stop();
  });

  const stored = async (collection: string, id: unknown) => {
    const key = collection === 'invoices' ? `${A}:${String(id)}` : id; // an invoice's key names its company
    const doc = await conn.db!.collection(collection).findOne({ _id: key as never });
    if (!doc) throw new Error(`${collection} ${String(id)} is not stored`);
    const { _id, id: _publicId, number: _number, ...rest } = doc; // the twins differ in these
    return rest;
  };
  const position = (id: number, extra: Partial<PositionDoc> = {}): PositionDoc => ({
    id,
    title: `Consulting ${id}`,
    description: undefined,
    quantity: '2.5',
    unitCode: 'HUR',
    unitPrice: '100.00',
    taxRate: '0.19',
    taxTreatmentId: 'standard',
    discountType: undefined,
    discountValue: undefined,
    ...extra,
  });
  const at = new Date('2026-11-26T06:00:00.123Z');
  const jobDoc = (id: string, extra: Pick<JobDoc, 'invoiceId' | 'reservationId'> & Partial<JobDoc>): JobDoc => ({
    _id: id,
    companyId: A,
    task: 'finalize',
    status: 'queued',
    createdAt: at,
    ...extra,
  });
  const draft = (id: number, positions: PositionDoc[] = []): InvoiceDoc => ({
    _id: `${A}:${id}`,
    id,
    companyId: A,
    customerId: 7,
    customerName: 'Buyer GmbH',
    grossCents: 0,
    status: 'DRAFT',
    number: `RE-${id}`,
    typeCode: '380',
    format: 'ZUGFERD',
    templateId: undefined,
    taxTreatmentId: undefined,
    buyerReference: undefined,
    note: 'a note',
    positions,
    attachmentsUploaded: false,
    createdAt: at,
    updatedAt: at,
  });

  it('inserts a draft as mongoose did', async () => {
    const positions = [position(1), position(2, { discountType: 'PERCENTAGE', discountValue: '10', productId: 3, description: 'd' })];
    await repo.insert(draft(1, positions));
    await viaMongoose.create([draft(2, positions)]);
    const mine = await stored('invoices', 1);
    expect(mine).toEqual(await stored('invoices', 2));
    expect(mine).not.toHaveProperty('templateId');
    expect(mine.createdAt).toBeInstanceOf(Date);
  });

  it('refuses a number the company used, with the duplicate key error the use cases look for', async () => {
    await expect(repo.insert({ ...draft(3), number: 'RE-1' })).rejects.toMatchObject({ code: 11000 });
  });

  it('writes positions as mongoose did, only while the draft is as seen', async () => {
    await repo.insert(draft(4));
    await viaMongoose.create([draft(5)]);
    const later = new Date(at.getTime() + 1000);
    const set = {
      positions: [position(10), position(11, { productId: 9, discountType: 'FIXED_AMOUNT', discountValue: '1.50' })],
      grossCents: 53550,
      updatedAt: later,
    };
    // null in the filter matches a draft without a tax treatment
    expect(await repo.setPositions(A, 4, { updatedAt: at, taxTreatmentId: undefined }, set)).toBe(true);
    await viaMongoose.updateOne({ _id: `${A}:5`, companyId: A, status: 'DRAFT', updatedAt: at }, { $set: set });
    expect(await stored('invoices', 4)).toEqual(await stored('invoices', 5));

    // not matched: another company, a stale updatedAt, another treatment, a draft being finalized
    expect(await repo.setPositions(B, 4, { updatedAt: later, taxTreatmentId: undefined }, set)).toBe(false);
    expect(await repo.setPositions(A, 4, { updatedAt: at, taxTreatmentId: undefined }, set)).toBe(false);
    expect(await repo.setPositions(A, 4, { updatedAt: later, taxTreatmentId: 'reduced' }, set)).toBe(false);
    expect(await repo.claimForFinalize(A, 4, later, 'job_1', {})).toBe(true);
    expect(await repo.setPositions(A, 4, { updatedAt: later, taxTreatmentId: undefined }, set)).toBe(false);
  });

  it('keeps the messages announcing a change in the draft with it, and only when the change is written', async () => {
    await repo.insert({
      ...draft(12),
      pendingMessages: outboxEntries([{ kind: 'event', type: 'invoice.changed.v1', companyId: A, data: { n: 1 } }]),
    });
    const later = new Date(at.getTime() + 1000);
    const set = { positions: [position(1)], grossCents: 29750, updatedAt: later };
    const announced = outboxEntries([{ kind: 'event', type: 'invoice.changed.v1', companyId: A, data: { n: 2 } }]);
    // a stale draft: neither the change nor its message is written
    expect(await repo.setPositions(A, 12, { updatedAt: later, taxTreatmentId: undefined }, set, announced)).toBe(false);
    expect((await stored('invoices', 12)).pendingMessages.map((e: OutboxEntry) => e.data)).toEqual([{ n: 1 }]);
    expect(await repo.setPositions(A, 12, { updatedAt: at, taxTreatmentId: undefined }, set, announced)).toBe(true);
    const mine = await stored('invoices', 12);
    expect(mine.positions).toHaveLength(1);
    expect(mine.pendingMessages.map((e: OutboxEntry) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(mine.pendingMessages[1]).toEqual(announced[0]);
    // the relay finds it through the partial index's filter
    expect(await conn.db!.collection('invoices').countDocuments(HOLDING_PENDING)).toBe(1);
  });

  it('keeps the event of an update or a cancellation in the draft with it, and none when the draft is not one', async () => {
    const event = (n: number) => outboxEntries([{ kind: 'event', type: 'invoice.changed.v1', companyId: A, data: { n } }]);
    await repo.insert(draft(13));
    await repo.insert(draft(14));
    const later = new Date(at.getTime() + 1000);
    expect(await repo.updateDraft(A, 13, { note: 'changed', updatedAt: later }, event(1))).toBe(true);
    expect(await repo.updateDraft(B, 13, { note: 'theirs' }, event(2))).toBe(false); // another company's
    expect(await repo.cancelDraft(A, 14, later, event(3))).toBe(true);
    expect(await repo.cancelDraft(A, 14, later, event(4))).toBe(false); // no longer a draft
    expect(await repo.updateDraft(A, 14, { note: 'too late' }, event(5))).toBe(false);
    const updated = await stored('invoices', 13);
    expect([updated.note, updated.pendingMessages.map((e: OutboxEntry) => e.data)]).toEqual(['changed', [{ n: 1 }]]);
    const cancelled = await stored('invoices', 14);
    expect([cancelled.status, cancelled.note, cancelled.pendingMessages.map((e: OutboxEntry) => e.data)]).toEqual([
      'CANCELLED',
      'a note', // as inserted: the update after the cancellation was refused
      [{ n: 3 }],
    ]);
    // without events, nothing is pushed (no empty array either)
    await repo.insert(draft(15));
    expect(await repo.updateDraft(A, 15, { note: 'quiet' })).toBe(true);
    expect(await stored('invoices', 15)).not.toHaveProperty('pendingMessages');
  });

  it('claims a draft for finalization as mongoose did, the frozen snapshot included', async () => {
    await repo.insert(draft(6, [position(1)]));
    await viaMongoose.create([draft(7, [position(1)])]);
    const snapshot = {
      number: 'RE-6',
      dueDate: '2026-12-10',
      buyer: { name: 'Buyer GmbH', vatId: undefined },
    } as unknown as InvoiceSnapshot;
    const frozen = {
      snapshot,
      invoiceDate: '2026-11-26',
      dueDate: '2026-12-10',
      positions: [position(1, { taxRate: '0' })],
      grossCents: 25000,
    };
    expect(await repo.claimForFinalize(A, 6, at, 'job_6', frozen)).toBe(true);
    await viaMongoose.updateOne(
      { _id: `${A}:7`, companyId: A, status: 'DRAFT', updatedAt: at },
      { $set: { ...frozen, finalizingJobId: 'job_6' } },
    );
    const mine = await stored('invoices', 6);
    const theirs = await stored('invoices', 7);
    // the only difference: an unset field inside the snapshot is left out instead of stored as null
    expect(theirs.snapshot.buyer).toEqual({ name: 'Buyer GmbH', vatId: null });
    expect(mine.snapshot.buyer).toEqual({ name: 'Buyer GmbH' });
    expect({ ...mine, snapshot: undefined }).toEqual({ ...theirs, snapshot: undefined });
    // a second claim (another job, or the same draft changed meanwhile) finds nothing
    expect(await repo.claimForFinalize(A, 6, at, 'job_other', frozen)).toBe(false);
  });

  it('completes a finalization as mongoose did, and reads an invoice only for its company', async () => {
    const frozen = { invoiceDate: '2026-11-26', dueDate: '2026-12-10', grossCents: 25000 };
    await repo.insert(draft(8, [position(1)]));
    await viaMongoose.create([draft(9, [position(1)])]);
    expect(await repo.claimForFinalize(A, 8, at, 'job_8', frozen)).toBe(true);
    expect(await repo.claimForFinalize(A, 9, at, 'job_9', frozen)).toBe(true);
    const files = {
      pdf: { key: 'cmp_a/8.pdf', filename: 'RE-8.pdf', contentType: 'application/pdf', size: 1234 },
      xml: undefined,
    };
    const done = new Date(at.getTime() + 5000);
    const mine = await repo.completeFinalize(A, 8, 'job_8', files, done);
    await viaMongoose
      .findOneAndUpdate(
        { _id: `${A}:9`, companyId: A, status: 'DRAFT', finalizingJobId: 'job_9' },
        { $set: { status: 'OPEN', ...files, finalizedAt: done, updatedAt: done }, $unset: { finalizingJobId: 1 } },
        { returnDocument: 'after' },
      )
      .lean();
    expect(await stored('invoices', 8)).toEqual(await stored('invoices', 9));
    expect(mine).toMatchObject({ id: 8, status: 'OPEN', pdf: files.pdf, finalizedAt: done });
    expect(mine).not.toHaveProperty('finalizingJobId');
    expect(mine).not.toHaveProperty('xml');
    // a redelivered completion, or one for another job or company, finds nothing
    expect(await repo.completeFinalize(A, 8, 'job_8', files, done)).toBeNull();
    expect(await repo.completeFinalize(B, 9, 'job_9', files, done)).toBeNull();

    expect(await repo.get(A, 8)).toEqual(mine);
    expect(await repo.get(B, 8)).toBeNull();
    expect(await repo.get(A, 999)).toBeNull();
  });

  it('moves a job through its states as mongoose did', async () => {
    const job = (id: string) => jobDoc(id, { invoiceId: 8, reservationId: 'r' });
    await jobs.insert(job('job_m1'));
    await jobs.insert(job('job_m2'));
    const started = new Date(at.getTime() + 100);
    const moved = await jobs.markStarted(A, 'job_m1', started);
    await jobsViaMongoose.findOneAndUpdate(
      { _id: 'job_m2', companyId: A, status: 'queued' },
      { $set: { status: 'started', startedAt: started } },
    );
    expect(moved).toMatchObject({ _id: 'job_m1', status: 'started', startedAt: started });
    expect(await stored('jobs', 'job_m1')).toEqual(await stored('jobs', 'job_m2'));
    expect(await jobs.markStarted(A, 'job_m1', started)).toBeNull(); // only from queued

    const end = new Date(at.getTime() + 900);
    await jobs.markFinished(A, 'job_m1', end, started);
    await jobsViaMongoose.updateOne({ _id: 'job_m2', companyId: A }, { $set: { status: 'finished', finishedAt: end, startedAt: started } });
    expect(await stored('jobs', 'job_m1')).toEqual(await stored('jobs', 'job_m2'));

    await jobs.insert(job('job_m3'));
    await jobs.insert(job('job_m4'));
    await jobs.markFailed(A, 'job_m3', 'render failed', end, undefined);
    await jobsViaMongoose.updateOne(
      { _id: 'job_m4', companyId: A },
      { $set: { status: 'failed', finishedAt: end, errorMessage: 'render failed' } },
    );
    expect(await stored('jobs', 'job_m3')).toEqual(await stored('jobs', 'job_m4'));
    expect(await stored('jobs', 'job_m3')).not.toHaveProperty('startedAt');

    expect(await jobs.byId(A, 'job_m1')).toMatchObject({ status: 'finished', finishedAt: end });
    expect(await jobs.byId(B, 'job_m1')).toBeNull();
    expect(await jobs.get(A, 8, 'job_m3')).toMatchObject({ status: 'failed', errorMessage: 'render failed' });
    expect(await jobs.get(A, 9, 'job_m3')).toBeNull();
  });

  it('inserts a job as mongoose did', async () => {
    // an absent optional field (errorMessage) must stay absent, as mongoose left it
    const job = (id: string) => jobDoc(id, { invoiceId: 6, reservationId: 'rsv_1', errorMessage: undefined });
    await jobs.insert(job('job_a'));
    await jobsViaMongoose.create([job('job_b')]);
    expect(await stored('jobs', 'job_a')).toEqual(await stored('jobs', 'job_b'));
    await expect(jobs.insert(job('job_a'))).rejects.toMatchObject({ code: 11000 });
  });
});
