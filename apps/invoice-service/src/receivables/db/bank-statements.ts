import { Schema, type ClientSession, type Connection } from 'mongoose';
import type { CompanyId } from '@inv/contracts';
import { companyKey } from '@inv/runtime';
import { AS_BUILT, driverCollection } from '@inv/service-kit';
import type { MatchReason } from '../domain/bank-matching';

/** The counter of a company's bank statement ids (its first statement is 1). */
export const bankStatementCounter = (companyId: CompanyId) => `bank-statement:${companyId}`;

export interface StatementAccount {
  /** Stmt/Id */
  id: string;
  /** Acct/Id/IBAN (or Othr/Id) */
  accountIban: string;
  currency?: string;
}

export interface BankStatementDoc {
  /** `<companyId>:<id>` */
  _id: string;
  companyId: CompanyId;
  id: number;
  /** GrpHdr/MsgId */
  messageId: string;
  /** "02" … "13" */
  camtVersion: string;
  statements: StatementAccount[];
  /** SHA-256 of MsgId and every Stmt Id@account: the same statement sent again, whatever its bytes. */
  statementKey: string;
  /** SHA-256 of the file. */
  sha256: string;
  filename?: string;
  size: number;
  lineCount: number;
  creditCount: number;
  debitCount: number;
  /** Credits with at least one proposal. */
  proposalCount: number;
  confirmedCount: number;
  ignoredCount: number;
  createdAt: Date;
}

export interface StoredProposal {
  invoiceId: number;
  number: string;
  customerId: number;
  amountCents: number;
  openCents: number;
  confidence: number;
  reasons: MatchReason[];
}

export type EntryState = 'open' | 'confirmed' | 'ignored';

export interface BankEntryDoc {
  /** `<companyId>:<statement id>:<index>` */
  _id: string;
  companyId: CompanyId;
  statementId: number;
  /** 1-based line of the file: the entry id. */
  index: number;
  /** Stmt/Id the line belongs to. */
  statementRef: string;
  entryRef?: string;
  bankRef?: string;
  amount: string;
  cents?: number;
  currency: string;
  credit: boolean;
  reversal: boolean;
  bookingStatus?: string;
  bookingDate?: string;
  valueDate?: string;
  payerName?: string;
  payerIban?: string;
  endToEndId?: string;
  unstructured: string[];
  references: string[];
  additionalInfo?: string;
  proposals: StoredProposal[];
  state: EntryState;
  /** Set with state `confirmed`, in the transaction that recorded the payment. */
  confirmed?: { paymentId: number; invoiceId: number; customerId: number; amountCents: number; at: Date };
  ignoredAt?: Date;
}

const statementSchema = new Schema<BankStatementDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    id: { type: Number, required: true },
    messageId: String,
    camtVersion: String,
    statements: [{ _id: false, id: String, accountIban: String, currency: String }],
    statementKey: { type: String, required: true },
    sha256: { type: String, required: true },
    filename: String,
    size: Number,
    lineCount: Number,
    creditCount: Number,
    debitCount: Number,
    proposalCount: Number,
    confirmedCount: Number,
    ignoredCount: Number,
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);
// the same statement once per company: by its identity and by its bytes
statementSchema.index({ companyId: 1, statementKey: 1 }, { unique: true });
statementSchema.index({ companyId: 1, sha256: 1 }, { unique: true });
statementSchema.index({ companyId: 1, id: -1 });

const entrySchema = new Schema<BankEntryDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    statementId: { type: Number, required: true },
    index: { type: Number, required: true },
    state: { type: String, required: true },
    payerIban: String,
    proposals: Schema.Types.Mixed,
    confirmed: Schema.Types.Mixed,
  },
  // the entries are written by the driver (insertMany) as the use case builds them
  { versionKey: false, strict: false },
);
entrySchema.index({ companyId: 1, statementId: 1, index: 1 });
entrySchema.index({ companyId: 1, statementId: 1, state: 1, index: 1 });
// the payer IBANs of confirmed matches (who paid for which customer)
entrySchema.index({ companyId: 1, payerIban: 1 }, { partialFilterExpression: { state: 'confirmed', payerIban: { $type: 'string' } } });

export const entryKey = (companyId: CompanyId, statementId: number, index: number) => `${companyId}:${statementId}:${index}`;

/** Payer IBANs learnt from confirmed matches looked at per import at most (the newest). */
const KNOWN_PAYERS_MAX = 20_000;

/** Bank statements (camt.053 uploads) and their entries with match proposals; every query takes the company. */
export function bankStatementsRepo(conn: Connection) {
  const statements = conn.model<BankStatementDoc>('BankStatement', statementSchema, 'bank_statements');
  const entries = conn.model<BankEntryDoc>('BankStatementEntry', entrySchema, 'bank_statement_entries');
  const rawStatements = driverCollection(statements);
  const rawEntries = driverCollection(entries);
  return {
    init: async () => void (await Promise.all([statements.init(), entries.init()])),
    /** A statement stored before with the same identity or the same bytes. */
    findSame: (companyId: CompanyId, statementKey: string | undefined, sha256: string) =>
      statements
        .findOne(statementKey ? { companyId, $or: [{ statementKey }, { sha256 }] } : { companyId, sha256 })
        .lean<BankStatementDoc>(),
    get: (companyId: CompanyId, id: number, session?: ClientSession) =>
      statements.findOne({ _id: companyKey(companyId, id), companyId }, undefined, { session }).lean<BankStatementDoc>(),
    /** The statement and its entries, one transaction (entries in batches of 1,000). */
    async insert(doc: Omit<BankStatementDoc, '_id'>, lines: Array<Omit<BankEntryDoc, '_id'>>, session: ClientSession) {
      await rawStatements.insertOne({ _id: companyKey(doc.companyId, doc.id), ...doc }, { ...AS_BUILT, session });
      for (let i = 0; i < lines.length; i += 1000) {
        const batch = lines.slice(i, i + 1000).map((l) => ({ _id: entryKey(l.companyId, l.statementId, l.index), ...l }));
        await rawEntries.insertMany(batch, { ...AS_BUILT, session, ordered: true });
      }
    },
    async list(companyId: CompanyId, page: { page: number; limit: number }) {
      const [items, total] = await Promise.all([
        statements
          .find({ companyId })
          .sort({ id: -1 })
          .skip((page.page - 1) * page.limit)
          .limit(page.limit)
          .lean<BankStatementDoc[]>(),
        statements.countDocuments({ companyId }),
      ]);
      return { items, total };
    },
    async entries(companyId: CompanyId, statementId: number, q: { state?: EntryState; page: number; limit: number }) {
      const filter = { companyId, statementId, ...(q.state ? { state: q.state } : {}) };
      const [items, total] = await Promise.all([
        entries
          .find(filter)
          .sort({ index: 1 })
          .skip((q.page - 1) * q.limit)
          .limit(q.limit)
          .lean<BankEntryDoc[]>(),
        entries.countDocuments(filter),
      ]);
      return { items, total };
    },
    getEntry: (companyId: CompanyId, statementId: number, index: number, session?: ClientSession) =>
      entries.findOne({ _id: entryKey(companyId, statementId, index), companyId }, undefined, { session }).lean<BankEntryDoc>(),
    /** Moves an entry from the state it was read in (false when it is no longer in it) and counts it on its statement. */
    async moveEntry(
      companyId: CompanyId,
      statementId: number,
      index: number,
      from: EntryState,
      set: Partial<BankEntryDoc>,
      unset: Array<keyof BankEntryDoc>,
      session: ClientSession,
      /** the payment a confirmed entry held when it was read (it moves only if it still holds that one) */
      seenPaymentId?: number,
    ): Promise<BankEntryDoc | null> {
      const after = await entries
        .findOneAndUpdate(
          {
            _id: entryKey(companyId, statementId, index),
            companyId,
            state: from,
            ...(from === 'confirmed' ? { 'confirmed.paymentId': seenPaymentId } : {}),
          },
          { $set: set, ...(unset.length ? { $unset: Object.fromEntries(unset.map((k) => [k, 1])) } : {}) },
          { returnDocument: 'after', session },
        )
        .lean<BankEntryDoc>();
      if (!after || from === after.state) return after;
      const counter = (s: EntryState) => (s === 'confirmed' ? 'confirmedCount' : s === 'ignored' ? 'ignoredCount' : undefined);
      const inc: Record<string, number> = {};
      if (counter(from)) inc[counter(from)!] = -1;
      if (counter(after.state)) inc[counter(after.state)!] = 1;
      if (Object.keys(inc).length)
        await statements.updateOne({ _id: companyKey(companyId, statementId), companyId }, { $inc: inc }, { session });
      return after;
    },
    /** Payer IBAN → the customer its last confirmed match paid for. */
    async knownPayerIbans(companyId: CompanyId): Promise<Map<string, number>> {
      const rows = await rawEntries
        .find(
          { companyId, state: 'confirmed', payerIban: { $type: 'string' } },
          { projection: { _id: 0, payerIban: 1, 'confirmed.customerId': 1 }, sort: { 'confirmed.at': -1 } },
        )
        .limit(KNOWN_PAYERS_MAX)
        .toArray();
      const map = new Map<string, number>();
      for (const r of rows) if (r.payerIban && r.confirmed && !map.has(r.payerIban)) map.set(r.payerIban, r.confirmed.customerId);
      return map;
    },
  };
}

export type BankStatementsRepo = ReturnType<typeof bankStatementsRepo>;
