import { z } from 'zod';
import {
  BankStatement,
  Customer,
  EmailRecord,
  ExportJob,
  InboundDocument,
  Invoice,
  QuotaUsage,
  RecurringInvoice,
  type CompanyId,
} from '@inv/contracts';
import {
  keepAliveAgents,
  serviceClient,
  ServiceAnswerInvalid,
  ServiceUnavailable,
  type IdentitySigner,
  type ServiceClient,
} from '@inv/service-kit';
import type { ResourceRef } from '../domain/event-mapping';

export interface OwnerUrls {
  INVOICE_URL: string;
  CUSTOMER_URL: string;
  EXPORT_URL: string;
  QUOTA_URL: string;
  INBOUND_URL: string;
  RECURRING_URL: string;
}

/** The resource could not be read now (its owner is down or slow, or answered what its contract does not say): the delivery is prepared again later. */
export class ResourceUnavailable extends Error {}

/**
 * A resource as its owner's GET answers it, checked against the contract of that answer: the members it has must
 * be as the contract says (a changed type is refused), and every member is kept as it came, so the payload is what
 * the integrator's GET shows.
 */
const asShown = <T extends z.ZodObject>(schema: T) => schema.partial().loose();
const RESOURCE = {
  invoice: asShown(Invoice),
  customer: asShown(Customer),
  export: asShown(ExportJob),
  quota: asShown(QuotaUsage),
  bank_statement: asShown(BankStatement),
  inbound: asShown(InboundDocument),
  recurring: asShown(RecurringInvoice),
  /** GET /invoice/{id}/emails: the e-mail is found in the list by its id. */
  emails: z.looseObject({ emails: z.array(asShown(EmailRecord).required({ id: true })) }),
};

/**
 * Reads the resource an event is about from its owner's public GET, as the gateway would (a signed identity of the
 * company; role `member`, which may read invoices, customers and exports and change nothing here), so the payload
 * is exactly what the integrator's GET shows. Answers null when the resource no longer exists.
 *
 * Through the shared signed client (libs/service-kit serviceClient): kept-alive node:http connections (one GET per
 * event; fetch cost about a millisecond of CPU each), a GET asked again once on a new connection when a kept-alive
 * one was closed by its owner meanwhile (it restarted), and a company's token kept for a third of its lifetime (one
 * signature per company and 20 s, not per event). The owners are internal services, reached under their configured
 * URLs: no address guard applies here.
 */
export function resourceFetcher(urls: OwnerUrls, signer: IdentitySigner, timeoutMs = 5000) {
  // one pool of kept-alive connections for all owners (several may be one host)
  const agents = keepAliveAgents();
  const client = (url: string, service: string) => serviceClient({ url, service, signer, timeoutMs, reuseTokens: true, agents });
  const owners: Record<keyof OwnerUrls, ServiceClient> = {
    INVOICE_URL: client(urls.INVOICE_URL, 'invoice-service'),
    CUSTOMER_URL: client(urls.CUSTOMER_URL, 'customer-service'),
    EXPORT_URL: client(urls.EXPORT_URL, 'export-service'),
    QUOTA_URL: client(urls.QUOTA_URL, 'quota-service'),
    INBOUND_URL: client(urls.INBOUND_URL, 'inbound-service'),
    RECURRING_URL: client(urls.RECURRING_URL, 'recurring-service'),
  };
  const get = async <S extends z.ZodType>(
    companyId: CompanyId,
    owner: keyof OwnerUrls,
    path: string,
    answer: S,
  ): Promise<z.output<S> | null> => {
    let got;
    try {
      got = await owners[owner].call({
        method: 'GET',
        path,
        answer,
        identity: { scope: 'company', companyId, keyId: 'webhook-service', role: 'member' },
      });
    } catch (err) {
      if (err instanceof ServiceUnavailable || err instanceof ServiceAnswerInvalid) throw new ResourceUnavailable(err.message);
      throw err;
    }
    if (got.ok) return got.body;
    if (got.status === 404) return null;
    throw new ResourceUnavailable(`${path}: HTTP ${got.status}`);
  };
  const fetchResource = async (companyId: CompanyId, ref: ResourceRef): Promise<unknown> => {
    switch (ref.kind) {
      case 'invoice':
        return get(companyId, 'INVOICE_URL', `/invoice/${ref.id}`, RESOURCE.invoice);
      case 'customer':
        return get(companyId, 'CUSTOMER_URL', `/customer/${ref.id}`, RESOURCE.customer);
      case 'export':
        return get(companyId, 'EXPORT_URL', `/exports/job/${encodeURIComponent(ref.id)}`, RESOURCE.export);
      case 'quota':
        return get(companyId, 'QUOTA_URL', '/quota/', RESOURCE.quota);
      case 'bank_statement':
        return get(companyId, 'INVOICE_URL', `/bank-statements/${ref.id}`, RESOURCE.bank_statement);
      case 'inbound':
        return get(companyId, 'INBOUND_URL', `/inbound/${ref.id}`, RESOURCE.inbound);
      case 'recurring':
        return get(companyId, 'RECURRING_URL', `/recurring-invoices/${ref.id}`, RESOURCE.recurring);
      case 'email': {
        const list = await get(companyId, 'INVOICE_URL', `/invoice/${ref.invoiceId}/emails`, RESOURCE.emails);
        return list?.emails.find((e) => e.id === ref.id) ?? null;
      }
    }
  };
  return Object.assign(fetchResource, {
    close() {
      agents.close();
    },
  });
}
export type FetchResource = ReturnType<typeof resourceFetcher>;
