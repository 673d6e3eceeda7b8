import type { CompanyId } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import type { WebhookDeps } from '../support/deps';
import { loadEndpoint } from './load-endpoint';

/** Deletes an endpoint; its pending deliveries fail (the log stays readable until the endpoint id is forgotten). */
export async function deleteEndpoint(deps: WebhookDeps, companyId: CompanyId, id: string) {
  await loadEndpoint(deps, companyId, id);
  await deps.commit(async (session, emit) => {
    await deps.endpoints.remove(companyId, id, session);
    await deps.deliveries.failPendingOf(companyId, id, session);
    emit(eventMessage('webhook-endpoint.changed.v1', companyId, { endpointId: id, action: 'deleted', fields: [] }));
  });
  deps.endpoints.forget(companyId);
}
