import type { EventData, EventOf, EventType } from '@inv/runtime';
import type { AuditRecord } from './audit';

type Described = Pick<AuditRecord, 'action' | 'resourceType' | 'resourceId' | 'fields'>;
/** One describer per audited event type, taking that type's payload as the registry defines it. */
type Describers = { [K in EventType]?: (d: EventData<K>, companyId: string) => Described };
const str = (v: unknown) => (v === undefined || v === null ? undefined : String(v));
const names = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);

/**
 * What each audited event means as an entry: action, resource and the NAMES of the changed fields (events
 * carry names for exactly this; values, and secrets above all, never reach the log).
 */
/** The table as its keys type it (each describer takes its event's payload and the company). */
const describers = <T extends Describers>(table: T): { [K in keyof T & EventType]: (d: EventData<K>, companyId: string) => Described } =>
  table as { [K in keyof T & EventType]: (d: EventData<K>, companyId: string) => Described };

export const AUDITED = describers({
  'company.created.v1': (_d, c) => ({ action: 'company.created', resourceType: 'company', resourceId: c, fields: ['name', 'plan'] }),
  'company.plan-changed.v1': (_d, c) => ({ action: 'company.plan_changed', resourceType: 'company', resourceId: c, fields: ['plan'] }),
  'company.profile-changed.v1': (d, c) => ({
    action: 'company.profile_changed',
    resourceType: 'company',
    resourceId: c,
    fields: names(d.fields),
  }),
  'company.payment-terms-changed.v1': (d) => {
    const changed = d.changed as { id?: number; action?: string } | undefined;
    return {
      action: `payment_term.${changed?.action ?? 'changed'}`,
      resourceType: 'payment_term',
      resourceId: str(changed?.id),
      fields: [],
    };
  },
  'company.vat-id-changed.v1': (_d, c) => ({
    action: 'company.vat_id_changed',
    resourceType: 'company',
    resourceId: c,
    fields: ['vat_id'],
  }),
  'api-key.created.v1': (d) => ({ action: 'api_key.created', resourceType: 'api_key', resourceId: str(d.keyId), fields: ['name', 'role'] }),
  'api-key.revoked.v1': (d) => ({
    action: d.reason === 'plan_downgrade' ? 'api_key.deactivated' : 'api_key.revoked',
    resourceType: 'api_key',
    resourceId: str(d.keyId),
    fields: ['active'],
  }),
  'member.invited.v1': (d) => ({
    action: 'member.invited',
    resourceType: 'member',
    resourceId: str(d.memberId),
    fields: ['email', 'role'],
  }),
  'member.joined.v1': (d) => ({ action: 'member.joined', resourceType: 'member', resourceId: str(d.memberId), fields: ['status'] }),
  'member.role-changed.v1': (d) => ({
    action: 'member.role_changed',
    resourceType: 'member',
    resourceId: str(d.memberId),
    fields: ['role'],
  }),
  'member.removed.v1': (d) => ({ action: 'member.removed', resourceType: 'member', resourceId: str(d.memberId), fields: [] }),
  'member.password-reset.v1': (d) => ({
    action: 'member.password_reset',
    resourceType: 'member',
    resourceId: str(d.memberId),
    fields: ['password'],
  }),
  'product.changed.v1': (d) => ({
    action: `product.${String(d.action)}`,
    resourceType: 'product',
    resourceId: str(d.productId),
    fields: names(d.fields),
  }),
  'numbering.changed.v1': (d) => ({
    action: 'numbering.changed',
    resourceType: 'numbering',
    resourceId: str(d.documentType),
    fields: names(d.fields),
  }),
  'customer.vat-id-changed.v1': (d) => ({
    action: 'customer.vat_id_changed',
    resourceType: 'customer',
    resourceId: str(d.customerId),
    fields: ['vat_id'],
  }),
  'customer.changed.v1': (d) => ({
    action: `customer.${String(d.action)}`,
    ...(d.addressId !== undefined
      ? { resourceType: 'address', resourceId: `${String(d.customerId)}/${String(d.addressId)}` }
      : { resourceType: 'customer', resourceId: str(d.customerId) }),
    fields: names(d.fields),
  }),
  'invoice.changed.v1': (d) => ({
    action: `invoice.${String(d.action)}`,
    ...(d.positionId !== undefined
      ? { resourceType: 'position', resourceId: `${String(d.invoiceId)}/${String(d.positionId)}` }
      : d.attachmentId !== undefined
        ? { resourceType: 'attachment', resourceId: `${String(d.invoiceId)}/${String(d.attachmentId)}` }
        : { resourceType: 'invoice', resourceId: str(d.invoiceId) }),
    fields: names(d.fields),
  }),
  'export.changed.v1': (d) =>
    d.action === 'started'
      ? { action: 'export.started', resourceType: 'export', resourceId: str(d.jobId), fields: names(d.fields) }
      : {
          action: d.action === 'config_updated' ? 'export_config.updated' : `mapping.${String(d.action).replace('mappings_', '')}`,
          resourceType: d.action === 'config_updated' ? 'export_config' : 'mapping',
          resourceId: undefined,
          fields: names(d.fields),
        },
  'invoice.finalized.v1': (d) => ({
    action: 'invoice.finalized',
    resourceType: 'invoice',
    resourceId: str(d.invoiceId),
    fields: ['status', 'invoice_number', 'invoice_date'],
  }),
  'invoice.finalize-failed.v1': (d) => ({
    action: 'invoice.finalize_failed',
    resourceType: 'invoice',
    resourceId: str(d.invoiceId),
    fields: [],
  }),
  'invoice.status-changed.v1': (d) => ({
    action: `invoice.status_${String(d.status).toLowerCase()}`,
    resourceType: 'invoice',
    resourceId: str(d.invoiceId),
    fields: ['status'],
  }),
  'invoice.reminder-issued.v1': (d) => ({
    action: 'invoice.reminder_issued',
    resourceType: 'reminder',
    resourceId: `${String(d.invoiceId)}/${String(d.reminderId)}`,
    fields: ['level', 'date', 'fee', 'interest', 'emailed'],
  }),
  'invoice.payment-recorded.v1': (d) => ({
    action: 'invoice.payment_recorded',
    resourceType: 'payment',
    resourceId: `${String(d.invoiceId)}/${String(d.paymentId)}`,
    fields: ['amount', 'date', 'method', ...(d.discount ? ['discount'] : []), ...(d.reference ? ['reference'] : []), 'source'],
  }),
  'invoice.payment-reversed.v1': (d) => ({
    action: 'invoice.payment_reversed',
    resourceType: 'payment',
    resourceId: `${String(d.invoiceId)}/${String(d.paymentId)}`,
    fields: ['reversed_at'],
  }),
  'bank-statement.imported.v1': (d) => ({
    action: 'bank_statement.imported',
    resourceType: 'bank_statement',
    resourceId: String(d.statementId),
    fields: ['credits', 'proposals'],
  }),
  'recurring-invoice.run-finished.v1': (d) => ({
    action: d.pausedReason ? 'recurring_invoice.paused' : 'recurring_invoice.run_finished',
    resourceType: 'recurring_invoice',
    resourceId: String(d.recurringId),
    fields: ['period_start', 'outcome', ...(d.invoiceId === null ? [] : ['invoice_id'])],
  }),
  'recurring-invoice.changed.v1': (d) => ({
    action: `recurring_invoice.${d.action}`,
    resourceType: 'recurring_invoice',
    resourceId: String(d.recurringId),
    fields: names(d.fields),
  }),
  'supplier.changed.v1': (d) => ({
    action: `supplier.${d.action}`,
    resourceType: 'supplier',
    resourceId: String(d.supplierId),
    fields: names(d.fields),
  }),
  'inbound.deleted.v1': (d) => ({
    action: 'inbound_invoice.deleted',
    resourceType: 'inbound_invoice',
    resourceId: String(d.inboundId),
    fields: [],
  }),
  'test-data.reset-requested.v1': (_d, c) => ({
    action: 'test_data.reset',
    resourceType: 'company',
    resourceId: c,
    fields: [],
  }),
  'webhook-endpoint.changed.v1': (d) => ({
    action: `webhook_endpoint.${d.action}`,
    resourceType: 'webhook_endpoint',
    resourceId: str(d.endpointId),
    fields: names(d.fields),
  }),
});

/** The event types the audit log records (the keys of AUDITED). */
export type AuditedType = keyof typeof AUDITED;
/** An audited event as the audit log's consumer receives it. */
export type AuditedEvent = EventOf<AuditedType>;

/**
 * The entry an audited event stands for (undefined: not an audited type). Each describer is typed by its key
 * (`satisfies Describers`); the envelope's type and data belong together, which TypeScript cannot follow through
 * a union of types, hence the one lookup through the describers' common shape here.
 */
export function describeAudited(msg: AuditedEvent): Described | undefined {
  const describe = (AUDITED as Record<string, ((d: unknown, companyId: string) => Described) | undefined>)[msg.type];
  return describe?.(msg.data, msg.companyId);
}
