import type { CompanyId } from '@inv/contracts';
import { Schema, type Connection } from 'mongoose';

/**
 * An e-mail of a test twin (docs/test-mode.md), recorded in full instead of being handed to SMTP: what the mail
 * module would have sent, for `GET /test-mails`. Keyed by the e-mail id, so a redelivered send records it once.
 */
export interface TestMailDoc {
  _id: string;
  companyId: CompanyId;
  /** What the mail is about: `invoice:<id>`, `reminder:<id>`, `member:<id>`, ... (mail.send.v1's subjectRef). */
  subjectRef: string;
  from: string;
  replyTo?: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  text: string;
  attachments: { filename: string; contentType: string }[];
  capturedAt: Date;
}

const schema = new Schema<TestMailDoc>(
  {
    _id: String,
    companyId: { type: String, required: true },
    subjectRef: { type: String, required: true },
    from: { type: String, required: true },
    replyTo: String,
    to: [String],
    cc: [String],
    bcc: [String],
    subject: String,
    text: String,
    attachments: [{ _id: false, filename: String, contentType: String }],
    capturedAt: { type: Date, required: true },
  },
  { versionKey: false },
);
schema.index({ companyId: 1, capturedAt: -1 });

export function testMailsRepo(conn: Connection) {
  const model = conn.model<TestMailDoc>('TestMail', schema, 'test_mails');
  return {
    init: () => model.init().then(() => undefined),
    /** Records the mail once: a second record of the same e-mail id (a redelivered command) changes nothing. */
    capture: async ({ _id, companyId, ...rest }: TestMailDoc) => {
      await model.updateOne({ _id, companyId }, { $setOnInsert: rest }, { upsert: true });
    },
    list: (companyId: CompanyId, skip: number, limit: number) =>
      model.find({ companyId }).sort({ capturedAt: -1, _id: 1 }).skip(skip).limit(limit).lean<TestMailDoc[]>(),
    count: (companyId: CompanyId) => model.countDocuments({ companyId }),
    get: (companyId: CompanyId, id: string) => model.findOne({ _id: id, companyId }).lean<TestMailDoc | null>(),
  };
}
export type TestMailsRepo = ReturnType<typeof testMailsRepo>;
