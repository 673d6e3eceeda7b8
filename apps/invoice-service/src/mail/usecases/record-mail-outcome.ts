import type { EventOf } from '@inv/runtime';
import { statusChanged } from '../../invoices';
import type { MailDeps } from '../deps';

const invoiceOf = (ref: string) => (/^invoice:(\d+)$/.exec(ref) ? Number(ref.slice(8)) : undefined);

/**
 * The outcome of an invoice e-mail: the record becomes sent, failed or unconfirmed (once; unconfirmed can still
 * become sent or failed), and an OPEN invoice becomes SENT when its e-mail was accepted, with the status event in
 * the same transaction (not when unconfirmed: nobody knows). Idempotent by state.
 */
export async function recordMailSent(deps: MailDeps, msg: EventOf<'mail.sent.v1'>) {
  const invoiceId = invoiceOf(msg.data.subjectRef);
  if (invoiceId === undefined) return;
  const companyId = msg.companyId;
  await deps.commit(async (session, emit) => {
    await deps.emails.settle(companyId, msg.data.emailId, { status: 'sent', messageId: msg.data.messageId, sentAt: deps.now() }, session);
    const inv = await deps.invoices.markSent(companyId, invoiceId, deps.now(), session);
    if (!inv) return;
    // with the company: invoice ids repeat across companies, and outboxes and inboxes dedupe by this id
    emit(statusChanged(companyId, inv, 'SENT', `status-${companyId}-${invoiceId}-SENT`));
  });
}

export async function recordMailFailed(deps: MailDeps, msg: EventOf<'mail.failed.v1'>) {
  if (invoiceOf(msg.data.subjectRef) === undefined) return;
  await deps.commit((session) =>
    deps.emails
      .settle(msg.companyId, msg.data.emailId, { status: msg.data.unconfirmed ? 'unconfirmed' : 'failed', error: msg.data.reason }, session)
      .then(() => undefined),
  );
}
