import { isTestCompany, type CompanyId } from '@inv/contracts';
import { Schema, type ClientSession, type Connection } from 'mongoose';
import { driverCollection } from '@inv/service-kit';
import {
  DEFAULT_SEQUENCES,
  FORMER_CREDIT_NOTE_PATTERN,
  fixedTextOf,
  periodKeyOf,
  type DocumentType,
  type ResetPeriod,
} from '../domain/number-patterns';

export interface SequenceDoc {
  _id: string; // `${companyId}:${documentType}`
  companyId: CompanyId;
  documentType: DocumentType;
  pattern: string;
  reset: ResetPeriod;
  /** The period `next` belongs to; a document in a later period starts again at 1. */
  periodKey: string;
  next: number;
  updatedAt: Date;
}

const schema = new Schema<SequenceDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    documentType: { type: String, required: true },
    pattern: { type: String, required: true },
    reset: { type: String, required: true },
    periodKey: { type: String, required: true },
    next: { type: Number, required: true },
    updatedAt: { type: Date, required: true },
  },
  { versionKey: false },
);

const RESET_PERIODS: readonly ResetPeriod[] = ['never', 'yearly', 'monthly'];

/** Counters of the numbering that existed before sequences were configurable (libs/runtime counters). */
const legacyCounterOf = (companyId: CompanyId, type: DocumentType, year: string) =>
  `${type === 'invoice' ? 'invoice-number' : 'credit-note-number'}:${companyId}:${year}`;

export function numberingRepo(conn: Connection) {
  const model = conn.model<SequenceDoc>('NumberingSequence', schema, 'numbering_sequences');
  const idOf = (companyId: CompanyId, type: DocumentType) => `${companyId}:${type}`;

  /** Creates the default sequence once, continuing where the old per-year counter stopped (safe under concurrency). */
  async function ensure(companyId: CompanyId, type: DocumentType, now: Date): Promise<SequenceDoc> {
    const existing = await model.findById(idOf(companyId, type)).lean<SequenceDoc>();
    if (existing) return existing;
    const year = now.toISOString().slice(0, 4);
    const legacy = await conn.collection<{ _id: string; seq: number }>('counters').findOne({ _id: legacyCounterOf(companyId, type, year) });
    const d = DEFAULT_SEQUENCES[type];
    try {
      await model.updateOne(
        { _id: idOf(companyId, type) },
        {
          $setOnInsert: {
            companyId,
            documentType: type,
            pattern: d.pattern,
            reset: d.reset,
            periodKey: periodKeyOf(d.reset, now),
            next: (legacy?.seq ?? 0) + 1,
            updatedAt: now,
          },
        },
        { upsert: true },
      );
    } catch (err) {
      if ((err as { code?: number }).code !== 11000) throw err; // a concurrent first use created it
    }
    return (await model.findById(idOf(companyId, type)).lean<SequenceDoc>())!;
  }

  /** Sequences this process saw exist (they are never deleted): creating a document need not look again. */
  const existing = new Set<string>();

  /**
   * Credit note sequences still at the former default GS-{YYYY}-{SEQ:5} get the default RK-{YYYY}-{SEQ:5}, with their
   * period and value unchanged: the next credit note continues the count under the new prefix (no gap, no number
   * given twice; the numbers already given stay as they are). A sequence the company changed is left alone, and so is
   * one whose invoice sequence has the new pattern's fixed text (the two could produce the same number). Idempotent;
   * run at start. Answers how many sequences moved.
   */
  async function adoptCreditNotePrefixAcrossCompanies(now: Date): Promise<number> {
    const target = DEFAULT_SEQUENCES.credit_note.pattern;
    const clashing = await model
      .find({ documentType: 'invoice', pattern: { $regex: `^${target.slice(0, 3)}` } }, { companyId: 1, pattern: 1 })
      .lean<Pick<SequenceDoc, 'companyId' | 'pattern'>[]>();
    const keep = clashing.filter((s) => fixedTextOf(s.pattern) === fixedTextOf(target)).map((s) => s.companyId);
    const res = await model.updateMany(
      { documentType: 'credit_note', pattern: FORMER_CREDIT_NOTE_PATTERN, ...(keep.length ? { companyId: { $nin: keep } } : {}) },
      { $set: { pattern: target, updatedAt: now } },
    );
    return res.modifiedCount;
  }

  return {
    init: () => model.init(),
    ensure,
    adoptCreditNotePrefixAcrossCompanies,
    /**
     * `ensure` once per sequence and process; for a test twin every time, since DELETE /test-data removes its
     * sequences on any replica (docs/test-mode.md).
     */
    async ensureExists(companyId: CompanyId, type: DocumentType, now: Date): Promise<void> {
      const id = idOf(companyId, type);
      if (existing.has(id)) return;
      await ensure(companyId, type, now);
      if (!isTestCompany(companyId)) existing.add(id);
    },
    /**
     * Takes the next value inside the caller's transaction: the document insert and the counter move commit
     * together, so a failed creation leaves no gap; concurrent takers conflict and the transaction retries.
     */
    async take(companyId: CompanyId, type: DocumentType, now: Date, session: ClientSession): Promise<{ seq: SequenceDoc; value: number }> {
      // Within the sequence's current period (nearly always) one round trip takes the value: the filter holds
      // exactly when `periodKey === periodKeyOf(reset, now)`, which the read below would find.
      // (with the driver: this runs at every finalization, and mongoose's query costs 55–75 µs of CPU more)
      const current = await driverCollection(model).findOneAndUpdate(
        { _id: idOf(companyId, type), $or: RESET_PERIODS.map((reset) => ({ reset, periodKey: periodKeyOf(reset, now) })) },
        { $inc: { next: 1 } },
        { session, returnDocument: 'before' },
      );
      if (current) return { seq: current, value: current.next };
      // a new period (or a sequence that does not exist): read it and start again at 1
      const seq = await model.findById(idOf(companyId, type)).session(session).lean<SequenceDoc>();
      if (!seq) throw new Error(`numbering sequence ${type} of ${companyId} does not exist (call ensure first)`);
      const period = periodKeyOf(seq.reset, now);
      const value = seq.periodKey === period ? seq.next : 1;
      await model.updateOne({ _id: seq._id }, { $set: { periodKey: period, next: value + 1 } }, { session });
      return { seq, value };
    },
    async update(
      companyId: CompanyId,
      type: DocumentType,
      set: Partial<Pick<SequenceDoc, 'pattern' | 'reset' | 'periodKey' | 'next'>>,
      now: Date,
      session?: ClientSession,
    ) {
      return model
        .findOneAndUpdate({ _id: idOf(companyId, type) }, { $set: { ...set, updatedAt: now } }, { returnDocument: 'after', session })
        .lean<SequenceDoc>();
    },
  };
}
export type NumberingRepo = ReturnType<typeof numberingRepo>;
