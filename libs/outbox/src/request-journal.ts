import { mongo, Schema, type ClientSession, type Connection, type Model } from 'mongoose';
import { AppError, driverCollection, redactSecrets, type IdempotentRequest } from '@inv/service-kit';

/** How long a key is remembered: longer than any client's retry window (the gateway keeps its copy 24 h). */
export const JOURNAL_TTL_SECONDS = 7 * 24 * 3600;

/** The answer given to the request, kept so that a retry gets it byte for byte. */
export interface JournalResponse {
  status: number;
  contentType?: string;
  location?: string;
  body: string;
}

/**
 * What a request sent with an `Idempotency-Key` changed: one entry per key and company, written by the request's
 * first commit in that commit's transaction (so it exists exactly when the change does), with the result of each
 * commit of the request (BSON) and, once it was given, the answer.
 */
const { Binary, BSON } = mongo;
type Binary = mongo.Binary;

export interface JournalDoc {
  _id: string; // <company>:<key>
  companyId: string;
  fingerprint: string;
  results: Binary[];
  response?: JournalResponse;
  createdAt: Date;
}

const journalSchema = new Schema<JournalDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    fingerprint: { type: String, required: true },
    results: [Schema.Types.Mixed],
    response: { type: Schema.Types.Mixed },
    createdAt: { type: Date, required: true },
  },
  { versionKey: false },
);
journalSchema.index({ createdAt: 1 }, { expireAfterSeconds: JOURNAL_TTL_SECONDS });

const idOf = (r: Pick<IdempotentRequest, 'companyId' | 'key'>) => `${r.companyId}:${r.key}`;

/** Secrets in strings of a result (a new key's plain text) are redacted before it is kept. */
function redactDeep(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (Array.isArray(value)) return value.map(redactDeep);
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v)]));
  return value;
}

/** A commit's result as BSON (mongoose documents become their plain form through their toBSON; Dates stay Dates). */
const encode = (result: unknown): Binary => {
  const plain =
    result && typeof result === 'object' && typeof (result as { toObject?: unknown }).toObject === 'function'
      ? (result as { toObject(): unknown }).toObject()
      : result;
  try {
    return new Binary(BSON.serialize({ v: redactDeep(plain ?? null) }, { ignoreUndefined: true }));
  } catch {
    // a result BSON cannot hold (a circular structure): the change is kept all the same, and only a retry whose first
    // attempt lost its answer right after this commit is refused instead of replayed (UNREPLAYABLE below)
    return new Binary(BSON.serialize({ unreplayable: true }));
  }
};
/** Stands for a commit's result that could not be kept: a replay reaching it answers 409 instead of writing again. */
export const UNREPLAYABLE = Symbol('unreplayable');
const decode = (bin: Binary): unknown => {
  const doc = BSON.deserialize(bin.buffer, { promoteBuffers: true });
  if (doc.unreplayable === true) return UNREPLAYABLE;
  return doc.v === null ? undefined : doc.v;
};

export class IdempotencyKeyReused extends AppError {
  constructor() {
    super('unprocessable', 'this Idempotency-Key was used with a different request', { code: 'IDEMPOTENCY_KEY_REUSED' });
  }
}

export function requestJournal(conn: Connection) {
  const model: Model<JournalDoc> =
    conn.models.RequestJournal ?? conn.model<JournalDoc>('RequestJournal', journalSchema, 'idempotency_journal');
  const col = () => driverCollection(model);
  return {
    init: () => model.init(),
    /** The entry of a request, with its commits' results decoded, or undefined when none committed yet. */
    async find(r: Pick<IdempotentRequest, 'companyId' | 'key'>) {
      const doc = await col().findOne({ _id: idOf(r) });
      if (!doc) return undefined;
      return { fingerprint: doc.fingerprint, results: (doc.results ?? []).map(decode), response: doc.response };
    },
    /**
     * Records the result of the request's commit number `index` in that commit's transaction. The first creates the
     * entry: one that exists already (another attempt of the same request committed meanwhile) fails it with a
     * duplicate key, and the caller's transaction with it.
     */
    async record(r: IdempotentRequest, index: number, result: unknown, session: ClientSession) {
      const bin = encode(result);
      if (index === 0) {
        await col().insertOne(
          { _id: idOf(r), companyId: r.companyId, fingerprint: r.fingerprint, results: [bin], createdAt: new Date() },
          { session },
        );
        return;
      }
      await col().updateOne({ _id: idOf(r) }, { $push: { results: bin } }, { session });
    },
    /** Keeps the answer given (secrets redacted); a retry from now on gets it without running anything. */
    async saveResponse(r: Pick<IdempotentRequest, 'companyId' | 'key'>, response: JournalResponse) {
      await col().updateOne({ _id: idOf(r) }, { $set: { response: { ...response, body: redactSecrets(response.body) } } });
    },
  };
}
export type RequestJournal = ReturnType<typeof requestJournal>;
