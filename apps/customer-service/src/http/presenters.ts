import { isNonEuTaxId } from '@inv/contracts';
import { toJsonNumber } from '@inv/money';
import { CHECKSUM_FAULT, vatStatusOf } from '../domain/customer';
import type { AddressDoc, CustomerDoc } from '../domain/customer-doc';
import type { Bucket, FinancialOverview, Statement } from '../domain/ledger-rules';

/** How customer-service's answers show what it keeps (snake_case, absent fields as null, amounts as JSON numbers). */

export function presentAddress(a: AddressDoc) {
  return {
    id: a.id,
    type: a.type,
    is_default: a.isDefault,
    company: a.company ?? null,
    address_line_1: a.addressLine1,
    address_line_2: a.addressLine2 ?? null,
    postal_code: a.postalCode ?? null,
    city: a.city,
    state_province: a.stateProvince ?? null,
    country_code: a.countryCode,
  };
}

export function presentVatCheck(c: CustomerDoc) {
  const status = vatStatusOf(c);
  const current = c.vat.vatId === c.vatId && status !== 'pending' && status !== 'not_checked';
  return {
    status,
    vat_id: c.vatId ?? null,
    checked_at: current ? (c.vat.checkedAt ?? null) : null,
    request_date: current ? (c.vat.requestDate ?? null) : null,
    name: current ? (c.vat.name ?? null) : null,
    address: current ? (c.vat.address ?? null) : null,
    consultation_number: current ? (c.vat.consultationNumber ?? null) : null,
    fault: current && c.vat.fault !== CHECKSUM_FAULT ? (c.vat.fault ?? null) : null,
    reason: current && c.vat.fault === CHECKSUM_FAULT ? 'checksum' : c.vatId && isNonEuTaxId(c.vatId) ? 'outside_eu' : null,
  };
}

export function presentCustomer(c: CustomerDoc, opts: { addresses: boolean }) {
  return {
    id: c.id,
    customer_number: c.customerNumber,
    contact_type: c.contactType,
    organization_name: c.organizationName ?? null,
    first_name: c.firstName ?? null,
    last_name: c.lastName ?? null,
    salutation: c.salutation ?? null,
    email: c.email ?? null,
    phone: c.phone ?? null,
    vat_id: c.vatId ?? null,
    language: c.language ?? null,
    payment_term_id: c.paymentTermId ?? null,
    default_ftl_template_id: c.defaultTemplateId ?? null,
    buyer_reference: c.buyerReference ?? null,
    peppol_id: c.peppolId ?? null,
    codice_destinatario: c.codiceDestinatario ?? null,
    pec: c.pec ?? null,
    codice_fiscale: c.codiceFiscale ?? null,
    partita_iva: c.partitaIva ?? null,
    is_active: c.isActive,
    vat_check: presentVatCheck(c),
    ...(opts.addresses ? { addresses: c.addresses.map(presentAddress) } : {}),
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

export function presentStatement(customerId: number, s: Statement) {
  const num = (v: string | undefined) => (v === undefined ? null : toJsonNumber(v));
  return {
    customer_id: customerId,
    currency: 'EUR',
    from: s.from,
    to: s.to,
    opening_balance: toJsonNumber(s.openingBalance),
    entries: s.entries.map((e) => ({
      date: e.date,
      document_number: e.documentNumber,
      type: e.type,
      debit: num(e.debit),
      credit: num(e.credit),
      balance: toJsonNumber(e.balance),
    })),
    closing_balance: toJsonNumber(s.closingBalance),
  };
}

const bucket = (b: Bucket) => ({ total: toJsonNumber(b.total), count: b.count });

export function presentOverview(customerId: number, o: FinancialOverview) {
  return {
    customer_id: customerId,
    currency: 'EUR',
    outstanding: bucket(o.outstanding),
    overdue: bucket(o.overdue),
    paid: bucket(o.paid),
    credit_notes: bucket(o.creditNotes),
    balance: toJsonNumber(o.balance),
  };
}
