import type { CompanyId, WebhookEndpointUpdate } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import type { WebhookDeps } from '../support/deps';
import { presentEndpoint } from '../http/presenters';
import { assertUrlAllowed } from '../delivery/url-check';
import { loadEndpoint } from './load-endpoint';

/** Changes the given fields; `enabled: true` re-enables a disabled endpoint with a fresh failure window. */
export async function updateEndpoint(deps: WebhookDeps, companyId: CompanyId, id: string, input: WebhookEndpointUpdate) {
  await loadEndpoint(deps, companyId, id);
  if (input.url !== undefined) await assertUrlAllowed(deps, input.url);
  const set: Record<string, unknown> = { updatedAt: deps.now() };
  const unset: string[] = [];
  const fields: string[] = [];
  if (input.url !== undefined) {
    set.url = input.url;
    fields.push('url');
  }
  if (input.event_types !== undefined) {
    set.eventTypes = [...new Set(input.event_types)];
    fields.push('event_types');
  }
  if (input.description !== undefined) {
    fields.push('description');
    if (input.description === null || input.description === '') unset.push('description');
    else set.description = input.description;
  }
  if (input.enabled !== undefined) {
    fields.push('enabled');
    set.enabled = input.enabled;
    if (input.enabled) unset.push('disabledReason', 'failingSince');
  }
  await deps.commit(async (session, emit) => {
    await deps.endpoints.update(companyId, id, set, unset, session);
    if (fields.length) emit(eventMessage('webhook-endpoint.changed.v1', companyId, { endpointId: id, action: 'updated', fields }));
  });
  deps.endpoints.forget(companyId);
  return presentEndpoint(await loadEndpoint(deps, companyId, id));
}
