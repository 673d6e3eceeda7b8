import type { EventEmitter } from 'node:events';
import type { CompanyId } from '@inv/contracts';
import type { ObjectStore } from '@inv/objects';
import type { Changes, HeldEntry } from '@inv/outbox';
import type { AppBus, Counters } from '@inv/runtime';
import type { AttachmentsRepo } from '../invoices/db/attachments';
import type { BankStatementsRepo } from '../receivables/db/bank-statements';
import type { EmailsRepo } from '../mail/db/emails';
import type { InvoicesRepo } from '../invoices/db/invoices';
import type { JobsRepo } from '../invoices/db/jobs';
import type { NumberingRepo } from '../invoices/db/numbering';
import type { PaymentsRepo } from '../receivables/db/payments';
import type { ProductsRepo } from '../invoices/db/products';
import type { RemindersRepo } from '../receivables/db/reminders';
import type { FreeRecipients } from '../mail/domain/email-rules';
import type { MailSender } from '../mail/sender';
import type { DraftCache } from '../invoices/db/draft-cache';
import type { PeerData } from './peer-data';

export interface InvoiceDeps {
  invoices: InvoicesRepo;
  /** Drafts as this process last wrote their positions, for a few seconds (draft-cache.ts). */
  drafts: DraftCache;
  jobs: JobsRepo;
  attachments: AttachmentsRepo;
  emails: EmailsRepo;
  numbering: NumberingRepo;
  products: ProductsRepo;
  /** Reminders, the company's reminder settings, the daily run's proposals and claims (db/reminders.ts). */
  reminders: RemindersRepo;
  /** Payments of finalized invoices (usecases/record-payment.ts). */
  payments: PaymentsRepo;
  /** Uploaded camt.053 bank statements, their entries and match proposals (db/bank-statements.ts). */
  bankStatements: BankStatementsRepo;
  /**
   * The mail module: its SMTP sender, sender address, attempts before a send fails and the e-mail ids this process is
   * sending right now; and the abuse limits of `send_email` (per UTC day, EMAIL_DAILY_LIMIT_*; EMAIL_FREE_RECIPIENTS).
   */
  mail: {
    sender: MailSender;
    from: string;
    maxAttempts: number;
    inFlight: Set<string>;
    limits: { companyPerDay: number; invoicePerDay: number };
    freeRecipients: FreeRecipients;
  };
  /** Attachment bytes (and, for e-mail, the rendered documents). */
  objects: ObjectStore;
  presignTtlSeconds: number;
  counters: Counters;
  /** Public position ids, taken from the `position` counter in blocks (one round trip per block). */
  /** The next position id of the company (support/position-ids.ts). */
  positionIds: (companyId: CompanyId) => Promise<number>;
  /** A change and the messages it causes, committed together (the outbox). */
  commit: Changes['commit'];
  /** Messages that follow no write of this service: outbox, then the relay. */
  publish: Changes['publish'];
  /** Messages kept in an invoice with its change (held-events.ts), handed to the relay once written. */
  handOver: (entries: HeldEntry[]) => void;
  bus: AppBus;
  /** The seller profile and customers' billing data, from copies while they are current (peer-data.ts). */
  peers: PeerData;
  defaultTemplateId: number;
  now: () => Date;
  /**
   * Emits a job id whenever this process handled a change of that job's status (wakes long-polling requests),
   * with the job as written when it changed (undefined when the message changed nothing).
   */
  jobSignals: EventEmitter;
}
