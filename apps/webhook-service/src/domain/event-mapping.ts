import type { WebhookEventType } from '@inv/contracts';
import { toJsonNumber, type DecimalInput } from '@inv/money';

/** What an event is about: fetched from its owner's public GET when the delivery is prepared. */
export type ResourceRef =
  | { kind: 'invoice'; id: number }
  | { kind: 'customer'; id: number }
  | { kind: 'email'; id: string; invoiceId: number }
  | { kind: 'export'; id: string }
  | { kind: 'quota'; id: string }
  | { kind: 'bank_statement'; id: number }
  | { kind: 'inbound'; id: number }
  | { kind: 'recurring'; id: number };

export interface MappedEvent {
  type: WebhookEventType;
  resource: ResourceRef;
  /** Fields of `data` beside the resource, known from the bus event itself. */
  extra: Record<string, unknown>;
}

/** The key under which sequence numbers grow: one resource. */
export const resourceKeyOf = (r: ResourceRef) => `${r.kind}:${r.id}`;

/** The bus events webhook-service listens to (each maps to one webhook type or to nothing). */
export const SOURCE_EVENTS = [
  'invoice.changed.v1',
  'invoice.finalized.v1',
  'invoice.finalize-failed.v1',
  'invoice.status-changed.v1',
  'mail.sent.v1',
  'mail.failed.v1',
  'vat.checked.v1',
  'export.finished.v1',
  'export.failed.v1',
  'quota.limit-reached.v1',
  'invoice.payment-recorded.v1',
  'invoice.payment-reversed.v1',
  'invoice.overdue.v1',
  'invoice.reminder-issued.v1',
  'bank-statement.imported.v1',
  'inbound.received.v1',
  'recurring-invoice.run-finished.v1',
] as const;
export type SourceEvent = (typeof SOURCE_EVENTS)[number];

/** The fields of `data` whose value is present (an optional field of the bus event that is absent is left out). */
const present = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));

const invoiceOfSubject = (subjectRef: string) => {
  const m = /^invoice:(\d+)$/.exec(subjectRef);
  return m ? Number(m[1]) : undefined;
};

/**
 * The webhook event a bus event means, or undefined when it means none (a draft's edit, an invitation e-mail,
 * the company's own VAT check). Pure: the payload's resource is fetched later, once per event.
 */
/** An amount the bus carries as a decimal string (the event's contract checked it), as the API answers it: a JSON number. */
const amount = (value: unknown): number => toJsonNumber(value as DecimalInput);

export function mapBusEvent(type: string, data: Record<string, unknown>): MappedEvent | undefined {
  switch (type) {
    case 'invoice.changed.v1':
      if (data.action === 'created')
        return { type: 'invoice.created', resource: { kind: 'invoice', id: Number(data.invoiceId) }, extra: {} };
      // a draft is cancelled through invoice.changed (no invoice.status-changed.v1 is published for it), and the
      // integrator is promised invoice.status_changed for CANCELLED as for SENT and PAID
      if (data.action === 'cancelled')
        return {
          type: 'invoice.status_changed',
          resource: { kind: 'invoice', id: Number(data.invoiceId) },
          extra: { status: 'CANCELLED' },
        };
      return undefined;
    case 'invoice.finalized.v1':
      return {
        type: data.typeCode === '381' ? 'credit_note.finalized' : 'invoice.finalized',
        resource: { kind: 'invoice', id: Number(data.invoiceId) },
        extra: { pdf_available: true },
      };
    case 'invoice.finalize-failed.v1':
      return {
        type: 'invoice.finalize_failed',
        resource: { kind: 'invoice', id: Number(data.invoiceId) },
        extra: { reason: String(data.reason) },
      };
    case 'invoice.status-changed.v1':
      return { type: 'invoice.status_changed', resource: { kind: 'invoice', id: Number(data.invoiceId) }, extra: { status: data.status } };
    case 'mail.sent.v1':
    case 'mail.failed.v1': {
      const invoiceId = invoiceOfSubject(String(data.subjectRef));
      if (invoiceId === undefined) return undefined; // invitations and other mails are not the integrator's
      const failed = type === 'mail.failed.v1';
      return {
        type: failed ? 'email.failed' : 'email.sent',
        resource: { kind: 'email', id: String(data.emailId), invoiceId },
        extra: failed ? { invoice_id: invoiceId, reason: String(data.reason) } : { invoice_id: invoiceId },
      };
    }
    case 'vat.checked.v1':
      return data.customerId === undefined
        ? undefined
        : { type: 'customer.vat_checked', resource: { kind: 'customer', id: Number(data.customerId) }, extra: {} };
    case 'export.finished.v1':
      return { type: 'export.finished', resource: { kind: 'export', id: String(data.jobId) }, extra: {} };
    case 'export.failed.v1':
      return { type: 'export.failed', resource: { kind: 'export', id: String(data.jobId) }, extra: {} };
    case 'quota.limit-reached.v1':
      return { type: 'quota.limit_reached', resource: { kind: 'quota', id: String(data.month) }, extra: {} };
    // payments, reminders and overdue invoices: the invoice as GET shows it, the fact's own fields beside it (the bus
    // carries amounts as decimal strings; a payload answers them as JSON numbers, as the API does)
    case 'invoice.payment-recorded.v1':
      return {
        type: 'invoice.payment_recorded',
        resource: { kind: 'invoice', id: Number(data.invoiceId) },
        extra: {
          payment: present({
            id: data.paymentId,
            amount: amount(data.amount),
            discount: amount(data.discount ?? '0'),
            date: data.date,
            method: data.method ?? null,
            reference: data.reference ?? null,
            source: data.source,
            currency: data.currency,
          }),
          open_amount: amount(data.openAmount),
          paid_in_full: data.paidInFull,
        },
      };
    case 'invoice.payment-reversed.v1':
      return {
        type: 'invoice.payment_reversed',
        resource: { kind: 'invoice', id: Number(data.invoiceId) },
        extra: {
          payment: present({
            id: data.paymentId,
            amount: amount(data.amount),
            discount: amount(data.discount ?? '0'),
            date: data.date,
            reversed_at: data.reversedAt,
          }),
          open_amount: amount(data.openAmount),
        },
      };
    case 'invoice.overdue.v1':
      return { type: 'invoice.status_changed', resource: { kind: 'invoice', id: Number(data.invoiceId) }, extra: { status: 'OVERDUE' } };
    case 'invoice.reminder-issued.v1':
      return {
        type: 'invoice.reminder_issued',
        resource: { kind: 'invoice', id: Number(data.invoiceId) },
        extra: {
          reminder: {
            id: data.reminderId,
            level: data.level,
            date: data.date,
            fee: amount(data.fee),
            flat_fee: amount(data.flatFee ?? '0'),
            interest: amount(data.interest),
            open_amount: amount(data.openAmount),
            emailed: data.emailed,
          },
        },
      };
    case 'bank-statement.imported.v1':
      // the event's own figures travel with it: the payload holds them even when the statement cannot be read
      return {
        type: 'bank_statement.imported',
        resource: { kind: 'bank_statement', id: Number(data.statementId) },
        extra: { statement_id: data.statementId, credits: data.credits, proposals: data.proposals },
      };
    case 'inbound.received.v1':
      return { type: 'inbound_invoice.received', resource: { kind: 'inbound', id: Number(data.inboundId) }, extra: {} };
    case 'recurring-invoice.run-finished.v1':
      return {
        type: 'recurring_invoice.run_finished',
        resource: { kind: 'recurring', id: Number(data.recurringId) },
        extra: {
          run: {
            period_start: data.periodStart,
            period_end: data.periodEnd,
            invoice_id: data.invoiceId ?? null,
            outcome: data.outcome,
            paused_reason: data.pausedReason ?? null,
            error: data.error ?? null,
          },
        },
      };
    default:
      return undefined;
  }
}

/** Whether an endpoint subscribed to `type` (ping goes only where it is asked for). */
export const subscribes = (eventTypes: readonly string[], type: WebhookEventType) =>
  type !== 'ping' && (eventTypes.includes('*') || eventTypes.includes(type));

/** The payload's `data` from the resource as GET shows it (null when it no longer exists) and the event's own fields. */
export function payloadData(mapped: MappedEvent, resource: unknown): Record<string, unknown> {
  switch (mapped.resource.kind) {
    case 'invoice': {
      const extra = { ...mapped.extra };
      if (mapped.type === 'invoice.finalized' || mapped.type === 'credit_note.finalized')
        extra.xml_available = Boolean(resource && (resource as { invoice_format?: string }).invoice_format !== 'PDF');
      return { invoice: resource ?? null, ...extra };
    }
    case 'customer':
      return { customer: resource ?? null, ...mapped.extra };
    case 'email':
      return { ...mapped.extra, email: resource ?? null };
    case 'export':
      return { export: resource ?? null, ...mapped.extra };
    case 'quota':
      return { quota: resource ?? null, ...mapped.extra };
    case 'bank_statement':
      return { bank_statement: resource ?? null, ...mapped.extra };
    case 'inbound':
      return { inbound_invoice: resource ?? null, ...mapped.extra };
    case 'recurring':
      return { recurring_invoice: resource ?? null, ...mapped.extra };
  }
}
