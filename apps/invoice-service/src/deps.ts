import type { InvoicesDeps } from './invoices';
import type { MailDeps } from './mail';
import type { ReceivablesDeps } from './receivables';

/**
 * Everything the composition root (invoice-service.ts) builds from one set of repositories: each feature takes the
 * narrower part it needs (invoices/deps.ts, receivables/deps.ts, mail/deps.ts); entry points (consumers/, workers/) get this.
 */
export type InvoiceDeps = InvoicesDeps & ReceivablesDeps & MailDeps;
