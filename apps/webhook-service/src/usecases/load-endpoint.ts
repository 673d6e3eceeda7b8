import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { ClientSession } from 'mongoose';
import type { WebhookDeps } from '../support/deps';

/** The company's endpoint, or 404 (another company's endpoint too: its existence is not revealed). */
export async function loadEndpoint(deps: WebhookDeps, companyId: CompanyId, id: string, session?: ClientSession) {
  const endpoint = /^we_[0-9a-f]{24}$/.test(id) ? await deps.endpoints.get(companyId, id, session) : null;
  if (!endpoint) throw notFound(`webhook endpoint ${id}`);
  return endpoint;
}
