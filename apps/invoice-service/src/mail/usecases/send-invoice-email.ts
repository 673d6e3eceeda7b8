import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { CompanyId, SendEmailRequest } from '@inv/contracts';
import { commandMessage } from '@inv/runtime';
import { AppError, conflict, invalidData, type FieldError } from '@inv/service-kit';
import {
  addressesOf,
  emailDay,
  mailboxKey,
  mayUseFreeRecipients,
  normaliseNewlines,
  unknownRecipients,
  unsafeTextProblem,
} from '../domain/email-rules';
import { emailTexts } from '../domain/email-texts';
import { loadInvoice, totalsOf, type InvoiceDoc } from '../../invoices';
import type { MailDeps } from '../deps';
import { templateFor } from './get-email-texts';

export const MAX_RECIPIENTS = 10;
export const MAX_EMAIL_BYTES = 20 * 1024 * 1024;
const emailAddress = z.email();
const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * POST /invoice/{id}/send_email: checks recipients, attachments, size and texts, counts the e-mail against the daily
 * limits, records it as queued and writes the send command in the same transaction (the mail module sends it;
 * nothing accepted is lost). Only finalized invoices (OPEN, SENT, PAID) are sent; an OPEN one becomes SENT when the
 * server accepts it. Not a relay: recipients are the customer's addresses (or the seller's own) unless the company
 * may use any (EMAIL_FREE_RECIPIENTS), subject and message carry no control characters, and each UTC day a company
 * reaches at most EMAIL_DAILY_LIMIT_COMPANY mailboxes and an invoice is sent at most EMAIL_DAILY_LIMIT_INVOICE times.
 */
export async function sendInvoiceEmail(deps: MailDeps, companyId: CompanyId, invoiceId: number, input: SendEmailRequest): Promise<string> {
  const inv = await loadInvoice(deps, companyId, invoiceId);
  if (!['OPEN', 'SENT', 'PAID'].includes(inv.status) || !inv.snapshot || !inv.pdf) {
    throw conflict(`invoice ${invoiceId} is ${inv.status}; only finalized invoices (OPEN, SENT, PAID) can be sent`, 'INVOICE_NOT_SENDABLE');
  }
  const recipients = { to: list(input.to), cc: list(input.cc), bcc: list(input.bcc) };
  const errors: FieldError[] = [];
  for (const [field, addresses] of Object.entries(recipients)) {
    addresses.forEach((a, i) => {
      if (!emailAddress.safeParse(a).success)
        errors.push({
          path: Array.isArray((input as Record<string, unknown>)[field]) ? `${field}.${i}` : field,
          message: `"${a}" is not an e-mail address`,
        });
    });
  }
  if (recipients.to.length === 0) errors.push({ path: 'to', message: 'required: at least one recipient' });
  const count = recipients.to.length + recipients.cc.length + recipients.bcc.length;
  if (count > MAX_RECIPIENTS)
    errors.push({ path: 'to', message: `at most ${MAX_RECIPIENTS} recipients in to, cc and bcc together (${count} given)` });
  if (errors.length === 0 && !mayUseFreeRecipients(deps.mail.freeRecipients, companyId))
    errors.push(...(await recipientsNotKnown(deps, companyId, inv, recipients, input)));
  const subjectProblem = input.subject === undefined ? undefined : unsafeTextProblem(input.subject, false);
  if (subjectProblem) errors.push({ path: 'subject', message: subjectProblem });
  const message = input.message === undefined ? undefined : normaliseNewlines(input.message);
  const messageProblem = message === undefined ? undefined : unsafeTextProblem(message, true);
  if (messageProblem) errors.push({ path: 'message', message: messageProblem });

  const files: { key: string; filename: string; contentType: string; size: number }[] = [];
  if (input.attach_pdf) files.push(inv.pdf);
  if ((input.attach_xml ?? Boolean(inv.xml)) && inv.xml) files.push(inv.xml);
  const wanted = input.attachment_ids ?? [];
  if (wanted.length) {
    const mine = new Map((await deps.attachments.ofInvoice(companyId, invoiceId)).map((a) => [a.id, a]));
    wanted.forEach((id, i) => {
      const a = mine.get(id);
      if (!a) errors.push({ path: `attachment_ids.${i}`, message: `invoice ${invoiceId} has no attachment ${id}` });
      else files.push({ key: a.key, filename: a.filename, contentType: a.contentType, size: a.size });
    });
  }
  if (errors.length) throw invalidData('the e-mail cannot be sent as requested', errors);
  const bytes = files.reduce((s, f) => s + f.size, 0);
  if (bytes > MAX_EMAIL_BYTES)
    throw new AppError('payload_too_large', `the e-mail would carry ${bytes} bytes of attachments; at most ${MAX_EMAIL_BYTES} (20 MiB)`, {
      code: 'EMAIL_TOO_LARGE',
    });

  const snap = inv.snapshot;
  const language = input.language ?? snap.language;
  const texts = emailTexts(
    {
      language,
      number: inv.number,
      creditNote: inv.typeCode === '381',
      total: totalsOf(inv.positions).taxInclusiveTotal,
      dueDate: snap.dueDate ?? undefined,
      seller: snap.seller.name,
      customer: snap.buyer.name,
    },
    await templateFor(deps, companyId, language),
  );
  const subject = input.subject ?? texts.subject;
  const text = message ?? texts.text;
  const release = await countAgainstLimits(deps, companyId, invoiceId, count);
  try {
    // the id the commit stored is the answer (a retry with the same Idempotency-Key gets the first attempt's)
    return await deps.commit(async (session, emit) => {
      const emailId = randomUUID();
      await deps.emails.create(
        {
          _id: emailId,
          companyId,
          invoiceId,
          status: 'queued',
          ...recipients,
          subject,
          attachmentNames: files.map((f) => f.filename),
          createdAt: deps.now(),
        },
        session,
      );
      emit(
        commandMessage(
          'mail.send.v1',
          companyId,
          {
            emailId,
            subjectRef: `invoice:${invoiceId}`,
            from: deps.mail.from,
            replyTo: snap.seller.contact?.email ?? undefined,
            ...recipients,
            subject,
            text,
            attachments: files.map(({ key, filename, contentType }) => ({ key, filename, contentType })),
          },
          `mail-send-${emailId}`,
        ),
      );
      return emailId;
    });
  } catch (err) {
    await release().catch(() => undefined); // the original error matters; a count left over only errs on the safe side
    throw err;
  }
}

export type Recipients = { to: string[]; cc: string[]; bcc: string[] };

/**
 * 400s for recipients that are none of the customer's addresses: the buyer's contact e-mail, `EM` electronic address
 * or PEC frozen on the invoice, or the customer's current ones (asked only when one is not on the invoice), and the
 * seller's contact address (a copy to oneself).
 */
export async function recipientsNotKnown(
  deps: MailDeps,
  companyId: CompanyId,
  inv: InvoiceDoc,
  recipients: Recipients,
  input: object,
): Promise<FieldError[]> {
  const snap = inv.snapshot!;
  const all = [...recipients.to, ...recipients.cc, ...recipients.bcc];
  const allowed = new Set([...addressesOf(snap.buyer), ...addressesOf(snap.seller)]);
  if (unknownRecipients(all, allowed).length > 0) {
    const [current, seller] = await Promise.all([
      deps.peers.billingSnapshot(companyId, inv.customerId),
      deps.peers.sellerProfile(companyId),
    ]);
    for (const a of [...addressesOf(current.found ? current.buyer : undefined), ...addressesOf(seller.found ? seller.seller : undefined)])
      allowed.add(a);
  }
  const known = [...allowed].sort().join(', ') || 'none: enter an e-mail address on the customer';
  const errors: FieldError[] = [];
  for (const [field, addresses] of Object.entries(recipients)) {
    addresses.forEach((a, i) => {
      if (!allowed.has(mailboxKey(a)))
        errors.push({
          path: Array.isArray((input as Record<string, unknown>)[field]) ? `${field}.${i}` : field,
          message: `"${a}" is not an e-mail address of the customer or of the seller (known: ${known})`,
        });
    });
  }
  return errors;
}

/**
 * Counts the e-mail on the company's day (one per recipient) and the invoice's day (one per send), each atomically
 * within its limit; 429 EMAIL_LIMIT_EXCEEDED with Retry-After (`retry_after`: seconds to the next UTC day) when either
 * is used up. Answers how to give both back (the e-mail was not queued after all).
 */
export async function countAgainstLimits(
  deps: MailDeps,
  companyId: CompanyId,
  invoiceId: number,
  recipients: number,
): Promise<() => Promise<void>> {
  const { day, secondsLeft, endsAt } = emailDay(deps.now());
  const expiresAt = new Date(endsAt.getTime() + 2 * 86_400_000);
  const { companyPerDay, invoicePerDay } = deps.mail.limits;
  const companyKey = `company:${companyId}:${day}`;
  const invoiceKey = `invoice:${companyId}:${invoiceId}:${day}`;
  const exceeded = (scope: 'company' | 'invoice', message: string) =>
    new AppError('rate_limited', `${message}; it resets at ${endsAt.toISOString()} (in ${secondsLeft} s)`, {
      code: 'EMAIL_LIMIT_EXCEEDED',
      extra: { scope, limit: scope === 'company' ? companyPerDay : invoicePerDay, retry_after: secondsLeft },
    });
  // the invoice first: refusals of one invoice sent too often never hold a slot of the company's count. A slot held for a
  // moment by a request the company's count then refuses can make a parallel send of the same invoice be refused
  // although it would have fit; never is more accepted than a limit allows.
  if (!(await deps.emails.countWithinAcrossCompanies(invoiceKey, 1, invoicePerDay, expiresAt)))
    throw exceeded('invoice', `invoice ${invoiceId} may be sent ${invoicePerDay} times a day`);
  if (!(await deps.emails.countWithinAcrossCompanies(companyKey, recipients, companyPerDay, expiresAt))) {
    await deps.emails.uncountAcrossCompanies(invoiceKey, 1).catch(() => undefined);
    throw exceeded(
      'company',
      `the company may send ${companyPerDay} e-mail messages (one per recipient) a day; ${recipients} more would pass it`,
    );
  }
  return async () => {
    await Promise.all([deps.emails.uncountAcrossCompanies(companyKey, recipients), deps.emails.uncountAcrossCompanies(invoiceKey, 1)]);
  };
}
