import type { CompanyId } from '@inv/contracts';
import type { WebhookDeps } from '../support/deps';
import { presentEndpoint } from '../http/presenters';

export async function listEndpoints(deps: WebhookDeps, companyId: CompanyId) {
  return { endpoints: (await deps.endpoints.list(companyId)).map(presentEndpoint) };
}
