import mongoose, { type Connection } from 'mongoose';
import { startEmbeddedMongo } from '@inv/embedded-mongo';
import { asCompanyId, type CompanyId } from '@inv/contracts';
import { DEFAULT_SEQUENCES, formatNumber } from '../domain/number-patterns';
import { numberingRepo, type SequenceDoc } from './numbering';

jest.setTimeout(30_000);

const NOW = new Date('2026-11-20T10:00:00Z');

/**
 * The credit notes' prefix: GS (Gutschrift, self-billing in § 14 UStG terms) became RK (Rechnungskorrektur). A
 * sequence still at the former default moves to the new one keeping its period and value: the numbers given stay,
 * the next one continues the count (no gap, no number twice); sequences a company chose stay as they are.
 */
describe('credit note numbers: RK- for new credit notes', () => {
  let mongo: Awaited<ReturnType<typeof startEmbeddedMongo>>;
  let conn: Connection;
  let repo: ReturnType<typeof numberingRepo>;
  const sequences = () => conn.db!.collection<SequenceDoc>('numbering_sequences');
  const seed = (companyId: string, documentType: 'invoice' | 'credit_note', pattern: string, next: number) =>
    sequences().insertOne({
      _id: `${companyId}:${documentType}`,
      companyId: asCompanyId(companyId),
      documentType,
      pattern,
      reset: 'yearly',
      periodKey: '2026',
      next,
      updatedAt: new Date('2026-01-02T00:00:00Z'),
    });
  const take = (companyId: CompanyId) =>
    conn.transaction(async (session) => {
      const { seq, value } = await repo.take(companyId, 'credit_note', NOW, session);
      return formatNumber(seq.pattern, NOW, value);
    });

  beforeAll(async () => {
    mongo = await startEmbeddedMongo();
    conn = await mongoose.createConnection(mongo.uri, { dbName: 'numbering_repo_test' }).asPromise();
    repo = numberingRepo(conn);
    await repo.init();
  });
  afterAll(async () => {
    await conn?.close();
    await mongo?.stop();
  });

  it('starts a new company with RK-{YYYY}-{SEQ:5}', async () => {
    expect(DEFAULT_SEQUENCES.credit_note.pattern).toBe('RK-{YYYY}-{SEQ:5}');
    const fresh = asCompanyId('cmp_fresh');
    expect((await repo.ensure(fresh, 'credit_note', NOW)).pattern).toBe('RK-{YYYY}-{SEQ:5}');
    expect(await take(fresh)).toBe('RK-2026-00001');
  });

  it('moves the former default GS- sequence to RK- keeping its value, once, and leaves chosen patterns alone', async () => {
    await seed('cmp_old', 'credit_note', 'GS-{YYYY}-{SEQ:5}', 8); // GS-2026-00001 .. 00007 were given
    await seed('cmp_own', 'credit_note', 'GS/{YY}/{SEQ:4}', 3); // the company's own pattern
    await seed('cmp_clash', 'credit_note', 'GS-{YYYY}-{SEQ:5}', 2);
    await seed('cmp_clash', 'invoice', 'RK-{YYYY}-{SEQ:3}', 40); // RK- would collide with its invoices

    expect(await repo.adoptCreditNotePrefixAcrossCompanies(NOW)).toBe(1);
    expect(await repo.adoptCreditNotePrefixAcrossCompanies(NOW)).toBe(0); // idempotent: every start runs it

    const old = await sequences().findOne({ _id: 'cmp_old:credit_note' });
    expect(old).toMatchObject({ pattern: 'RK-{YYYY}-{SEQ:5}', periodKey: '2026', next: 8 });
    expect(await take(asCompanyId('cmp_old'))).toBe('RK-2026-00008'); // gapless: 1..7 under GS, 8 under RK
    expect(await take(asCompanyId('cmp_old'))).toBe('RK-2026-00009');
    expect(await sequences().findOne({ _id: 'cmp_own:credit_note' })).toMatchObject({ pattern: 'GS/{YY}/{SEQ:4}', next: 3 });
    expect(await sequences().findOne({ _id: 'cmp_clash:credit_note' })).toMatchObject({ pattern: 'GS-{YYYY}-{SEQ:5}', next: 2 });
  });
});
