import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { CompanyId, ReminderCreate } from '@inv/contracts';
import { commandMessage, eventMessage } from '@inv/runtime';
import { AppError, conflict, invalidData, type FieldError } from '@inv/service-kit';
import { reminderCounter, type ReminderDoc } from '../db/reminders';
import { grossCentsOf, loadInvoice, totalsOf, type InvoiceDoc } from '../../invoices';
import { LEVEL_NAMES, addDays, isBusiness, nextLevel, reminderFigures, reminderTexts, type ReminderLevel } from '../domain/dunning';
import {
  MAX_RECIPIENTS,
  countAgainstLimits,
  mayUseFreeRecipients,
  normaliseNewlines,
  recipientsNotKnown,
  unsafeTextProblem,
} from '../../mail';
import { centsToText, openCentsOf } from '../domain/payments';
import type { DunningDeps } from '../deps';
import { reminderSettingsFor } from './get-reminder-settings';

const emailAddress = z.email();
const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const today = (now: Date) => now.toISOString().slice(0, 10);
/** A reminder may be dated ahead (a letter prepared for a later day: interest runs to its date), within this many days. */
export const MAX_DAYS_AHEAD = 730;

/** The open cents of a finalized invoice: gross minus payments, Skonto and finalized credit notes (domain/payments.ts). */
const openCents = (inv: InvoiceDoc): number =>
  openCentsOf({
    grossCents: inv.grossCents ?? grossCentsOf(inv.positions),
    paidCents: inv.paidCents ?? 0,
    discountCents: inv.discountCents ?? 0,
    creditedCents: inv.creditSettledCents ?? 0,
  });

/** The open amount of a finalized invoice, decimal string. */
export const openAmountOf = (inv: InvoiceDoc): string => centsToText(openCents(inv));

/** The due date of a finalized invoice (as frozen at finalization). */
export const dueDateOf = (inv: InvoiceDoc): string | undefined => inv.dueDate ?? inv.snapshot?.dueDate;

/**
 * Why `inv` cannot be reminded on `date` (409), if it cannot: only finalized invoices (OPEN, SENT; not credit notes)
 * with an open amount whose due date has passed.
 */
export function notRemindable(inv: InvoiceDoc, date: string): AppError | undefined {
  if (inv.status === 'PAID') return conflict(`invoice ${inv.number} is paid in full: nothing is open`, 'INVOICE_ALREADY_PAID');
  if (!['OPEN', 'SENT'].includes(inv.status) || !inv.snapshot || inv.typeCode !== '380')
    return conflict(
      `invoice ${inv.id} is ${inv.typeCode === '381' ? 'a credit note' : inv.status}; only finalized invoices (OPEN, SENT) are reminded`,
      'INVOICE_NOT_REMINDABLE',
    );
  if (openCents(inv) <= 0) return conflict(`invoice ${inv.number} has nothing open`, 'INVOICE_ALREADY_PAID');
  const due = dueDateOf(inv);
  if (!due) return conflict(`invoice ${inv.number} has no due date`, 'INVOICE_NOT_OVERDUE');
  if (date <= due)
    return conflict(`invoice ${inv.number} is due on ${due}; a reminder can be issued from the day after`, 'INVOICE_NOT_OVERDUE');
  return undefined;
}

export interface IssueOptions {
  source: 'manual' | 'daily_run';
}

/**
 * POST /invoice/{id}/reminders (and the daily run in mode `send`): checks the invoice and the level, computes fees and
 * interest (domain/dunning.ts), has document-service render and store the PDF, and records the reminder with its
 * `invoice.reminder-issued.v1` event (and, with `send_email`, the e-mail and its send command) in one transaction. A
 * level is issued once per invoice (409 REMINDER_LEVEL_ISSUED, also for the loser of two concurrent requests).
 */
export async function issueReminder(
  deps: DunningDeps,
  companyId: CompanyId,
  invoiceId: number,
  input: ReminderCreate,
  opts: IssueOptions = { source: 'manual' },
): Promise<ReminderDoc> {
  const inv = await loadInvoice(deps, companyId, invoiceId);
  const now = deps.now();
  const date = input.date ?? today(now);
  const latest = addDays(today(now), MAX_DAYS_AHEAD);
  if (date > latest)
    throw invalidData('the reminder date is too far ahead', [
      { path: 'date', message: `at most ${MAX_DAYS_AHEAD} days after today (${latest})` },
    ]);
  const refusal = notRemindable(inv, date);
  if (refusal) throw refusal;
  const snap = inv.snapshot!;
  const dueDate = dueDateOf(inv)!;
  const issued = await deps.reminders.ofInvoice(companyId, invoiceId);
  const next = nextLevel(issued);
  const level = (input.level ?? next) as ReminderLevel | undefined;
  if (!level) throw conflict(`invoice ${inv.number} already had all three reminders`, 'REMINDER_LEVELS_EXHAUSTED');
  const top = issued.at(-1);
  if (top && level <= top.level)
    throw conflict(
      `invoice ${inv.number} already had a reminder of level ${top.level}; the next is ${next ?? 'none'}`,
      'REMINDER_LEVEL_ISSUED',
    );
  if (top && date < top.date)
    throw invalidData('the reminder date is before the last reminder', [{ path: 'date', message: `before ${top.date}` }]);

  const settings = await reminderSettingsFor(deps, companyId);
  let contactType: 'B2B' | 'B2C' | undefined;
  if (!snap.buyer.vatId) {
    const billing = await deps.peers.billingSnapshot(companyId, inv.customerId).catch(() => undefined);
    contactType = billing?.found ? billing.contactType : undefined;
  }
  const b2b = isBusiness(snap.buyer, contactType);
  const figures = reminderFigures({ level, date, dueDate, openAmount: openAmountOf(inv), b2b, issued, settings });
  const language = input.language ?? snap.language;
  const texts = reminderTexts(settings.texts[language][level], figures, {
    language,
    number: inv.number,
    invoiceDate: snap.issueDate,
    dueDate,
    seller: snap.seller.name,
    customer: snap.buyer.name,
  });
  const subject = input.subject ?? texts.subject;
  const text = input.message === undefined ? texts.text : normaliseNewlines(input.message);

  // the e-mail's checks come before anything is rendered or counted
  let mail: { recipients: { to: string[]; cc: string[]; bcc: string[] }; count: number } | undefined;
  if (input.send_email) {
    const recipients = {
      to:
        input.to === undefined
          ? [
              snap.buyer.contact?.email ?? (snap.buyer.electronicAddress?.scheme === 'EM' ? snap.buyer.electronicAddress.value : undefined),
            ].filter((a): a is string => Boolean(a))
          : list(input.to),
      cc: list(input.cc),
      bcc: list(input.bcc),
    };
    const errors: FieldError[] = [];
    for (const [field, addresses] of Object.entries(recipients))
      addresses.forEach((a, i) => {
        if (!emailAddress.safeParse(a).success) errors.push({ path: `${field}.${i}`, message: `"${a}" is not an e-mail address` });
      });
    if (recipients.to.length === 0) errors.push({ path: 'to', message: 'required: the invoice has no e-mail address of the buyer' });
    const count = recipients.to.length + recipients.cc.length + recipients.bcc.length;
    if (count > MAX_RECIPIENTS) errors.push({ path: 'to', message: `at most ${MAX_RECIPIENTS} recipients in to, cc and bcc together` });
    if (errors.length === 0 && !mayUseFreeRecipients(deps.mail.freeRecipients, companyId))
      errors.push(...(await recipientsNotKnown(deps, companyId, inv, recipients, input)));
    const problem = unsafeTextProblem(subject, false) ?? unsafeTextProblem(text, true);
    if (problem) errors.push({ path: input.subject ? 'subject' : 'message', message: problem });
    if (!inv.pdf) errors.push({ path: 'send_email', message: `invoice ${invoiceId} has no PDF to attach` });
    if (errors.length) throw invalidData('the reminder cannot be e-mailed as requested', errors);
    mail = { recipients, count };
  }

  const id = await deps.counters.next(reminderCounter(companyId));
  const seller = await deps.peers.sellerProfile(companyId).catch(() => undefined);
  const rendered = await deps.bus.callRpc(
    'document.render-reminder.v1',
    companyId,
    {
      invoiceId,
      reminderId: id,
      language,
      company: snap.seller,
      companyPayment: snap.payment,
      customer: { ...snap.buyer, customerNumber: snap.customerNumber === undefined ? undefined : String(snap.customerNumber) },
      level,
      title: LEVEL_NAMES[level][language],
      date,
      text,
      invoiceNumber: inv.number,
      invoiceDate: snap.issueDate,
      dueDate,
      invoiceTotal: totalsOf(inv.positions).taxInclusiveTotal,
      openAmount: figures.openAmount,
      fees: figures.fees,
      flatFee: figures.flatFee,
      interest: figures.interest,
      interestPeriods: figures.periods.map((p) => ({ from: p.from, to: p.to, days: p.days, ratePercent: p.ratePercent })),
      total: figures.total,
      payBy: figures.payBy,
      template: inv.templateId,
      logo: seller?.found ? seller.logo : undefined,
    },
    { timeoutMs: 30_000 },
  );
  const pdf = { key: rendered.key, filename: rendered.filename, contentType: 'application/pdf', size: rendered.size };
  const emailId = mail ? randomUUID() : undefined;
  const doc: Omit<ReminderDoc, '_id'> = {
    companyId,
    id,
    invoiceId,
    level,
    date,
    language,
    b2b,
    openAmount: figures.openAmount,
    fee: figures.fee,
    fees: figures.fees,
    flatFee: figures.flatFee,
    interest: figures.interest,
    interestFrom: figures.interestFrom,
    periods: figures.periods,
    total: figures.total,
    payBy: figures.payBy,
    subject,
    pdf,
    emailId,
    source: opts.source,
    createdAt: now,
  };
  const release = mail ? await countAgainstLimits(deps, companyId, invoiceId, mail.count) : undefined;
  try {
    await deps.commit(async (session, emit) => {
      if (!(await deps.reminders.insert(doc, session)))
        throw conflict(`invoice ${inv.number} already had a reminder of level ${level}`, 'REMINDER_LEVEL_ISSUED');
      await deps.reminders.dropProposals(companyId, invoiceId, session);
      if (mail && emailId) {
        const files = [pdf, inv.pdf!];
        await deps.emails.create(
          {
            _id: emailId,
            companyId,
            invoiceId,
            status: 'queued',
            ...mail.recipients,
            subject,
            attachmentNames: files.map((f) => f.filename),
            createdAt: now,
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
              ...mail.recipients,
              subject,
              text,
              attachments: files.map(({ key, filename, contentType }) => ({ key, filename, contentType })),
            },
            `mail-send-${emailId}`,
          ),
        );
      }
      emit(
        eventMessage(
          'invoice.reminder-issued.v1',
          companyId,
          {
            invoiceId,
            customerId: inv.customerId,
            number: inv.number,
            reminderId: id,
            level,
            date,
            fee: figures.fee,
            interest: figures.interest,
            openAmount: figures.openAmount,
            emailed: Boolean(mail),
            flatFee: figures.flatFee === '0.00' ? undefined : figures.flatFee,
          },
          `reminder-issued-${companyId}-${id}`,
        ),
      );
    });
  } catch (err) {
    await release?.().catch(() => undefined);
    throw err;
  }
  return { _id: `${companyId}:${id}`, ...doc };
}
