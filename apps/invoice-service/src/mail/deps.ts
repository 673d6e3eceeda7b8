import type { InvoicesDeps } from '../invoices';
import type { PlatformDeps } from '../platform';
import type { EmailsRepo } from './db/emails';
import type { FreeRecipients } from './domain/email-rules';
import type { MailSender } from './sender';

/**
 * What the mail feature (invoice e-mails, their delivery and outcome, the company's e-mail texts) uses; it reads the
 * invoice and its attachments to send them, and marks an OPEN invoice SENT when its e-mail was accepted.
 */
export interface MailDeps extends PlatformDeps, Pick<InvoicesDeps, 'invoices' | 'attachments'> {
  emails: EmailsRepo;
  /**
   * The SMTP sender, sender address, attempts before a send fails and the e-mail ids this process is sending right
   * now; and the abuse limits of `send_email` (per UTC day, EMAIL_DAILY_LIMIT_*; EMAIL_FREE_RECIPIENTS).
   */
  mail: {
    sender: MailSender;
    from: string;
    maxAttempts: number;
    inFlight: Set<string>;
    limits: { companyPerDay: number; invoicePerDay: number };
    freeRecipients: FreeRecipients;
  };
}
