import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { SendEmailRequest } from '@inv/contracts';
import { commandMessage } from '@inv/runtime';
import { AppError, conflict, invalidData, type FieldError } from '@inv/service-kit';
import { emailTexts } from '../domain/email-texts';
import { totalsOf } from '../domain/totals';
import type { InvoiceDeps } from './deps';
import { templateFor } from './get-email-texts';
import { loadInvoice } from './load-invoice';

export const MAX_RECIPIENTS = 10;
export const MAX_EMAIL_BYTES = 20 * 1024 * 1024;
const emailAddress = z.email();
const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * POST /invoice/{id}/send_email: checks recipients, attachments and size, records the e-mail as queued and
 * writes the send command in the same transaction (the mail module sends it; nothing accepted is lost).
 * Only finalized invoices (OPEN, SENT, PAID) are sent; an OPEN one becomes SENT when the server accepts it.
 */
export async function sendInvoiceEmail(deps: InvoiceDeps, companyId: string, invoiceId: number, input: SendEmailRequest): Promise<string> {
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

  const files: { key: string; filename: string; contentType: string; size: number }[] = [];
  if (input.attach_pdf) files.push(inv.pdf);
  if ((input.attach_xml ?? Boolean(inv.xml)) && inv.xml) files.push(inv.xml);
  const wanted = input.attachment_ids ?? [];
  if (wanted.length) {
    const mine = new Map((await deps.attachments.ofInvoice(companyId, invoiceId)).map((a) => [a._id, a]));
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
  const text = input.message ?? texts.text;
  const emailId = randomUUID();
  await deps.commit(async (session, emit) => {
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
  });
  return emailId;
}
