import type { CompanyId } from '@inv/contracts';
import { IDENTITY_HEADER, type IdentitySigner } from '@inv/service-kit';
import type { ResourceRef } from '../domain/event-mapping';

export interface OwnerUrls {
  INVOICE_URL: string;
  CUSTOMER_URL: string;
  EXPORT_URL: string;
  QUOTA_URL: string;
  INBOUND_URL: string;
}

/** The resource could not be read now (its owner is down or slow): the delivery is prepared again later. */
export class ResourceUnavailable extends Error {}

/**
 * Reads the resource an event is about from its owner's public GET, as the gateway would (a signed identity of the
 * company; role `member`, which may read invoices, customers and exports and change nothing here), so the payload
 * is exactly what the integrator's GET shows. Answers null when the resource no longer exists.
 */
export function resourceFetcher(urls: OwnerUrls, signer: IdentitySigner, timeoutMs = 5000) {
  const get = async (companyId: CompanyId, base: string, path: string): Promise<unknown> => {
    const token = await signer.sign({ scope: 'company', companyId, keyId: 'webhook-service', role: 'member' });
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, { headers: { [IDENTITY_HEADER]: token }, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw new ResourceUnavailable(`${path}: ${(err as Error).name}`);
    }
    if (res.status === 404) return null;
    if (!res.ok) throw new ResourceUnavailable(`${path}: HTTP ${res.status}`);
    return res.json();
  };
  return async (companyId: CompanyId, ref: ResourceRef): Promise<unknown> => {
    switch (ref.kind) {
      case 'invoice':
        return get(companyId, urls.INVOICE_URL, `/invoice/${ref.id}`);
      case 'customer':
        return get(companyId, urls.CUSTOMER_URL, `/customer/${ref.id}`);
      case 'export':
        return get(companyId, urls.EXPORT_URL, `/exports/job/${encodeURIComponent(ref.id)}`);
      case 'quota':
        return get(companyId, urls.QUOTA_URL, '/quota/');
      case 'bank_statement':
        return get(companyId, urls.INVOICE_URL, `/bank-statements/${ref.id}`);
      case 'inbound':
        return get(companyId, urls.INBOUND_URL, `/inbound/${ref.id}`);
      case 'email': {
        const list = (await get(companyId, urls.INVOICE_URL, `/invoice/${ref.invoiceId}/emails`)) as { emails?: { id: string }[] } | null;
        return list?.emails?.find((e) => e.id === ref.id) ?? null;
      }
    }
  };
}
export type FetchResource = ReturnType<typeof resourceFetcher>;
