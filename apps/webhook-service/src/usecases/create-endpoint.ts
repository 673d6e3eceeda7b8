import { randomBytes } from 'node:crypto';
import { MAX_WEBHOOK_ENDPOINTS, type CompanyId, type WebhookEndpointCreate } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { conflict } from '@inv/service-kit';
import type { EndpointDoc } from '../db/endpoints';
import { newSigningSecret } from '../domain/secrets';
import type { WebhookDeps } from '../support/deps';
import { presentEndpoint } from '../http/presenters';
import { assertUrlAllowed } from '../delivery/url-check';

/**
 * Registers an endpoint; its signing secret is answered here once and stored only encrypted. The answer is the
 * commit's result: a retry with the same Idempotency-Key whose first attempt committed gets that endpoint (its commit
 * is replayed), with the secret redacted (`whsec_****…`: the journal never keeps it, libs/outbox request-journal.ts),
 * never an endpoint or a secret that was not stored.
 */
export async function createEndpoint(deps: WebhookDeps, companyId: CompanyId, input: WebhookEndpointCreate) {
  await assertUrlAllowed(deps, input.url);
  const created = await deps.commit(async (session, emit) => {
    const id = `we_${randomBytes(12).toString('hex')}`;
    const secret = newSigningSecret();
    const now = deps.now();
    const doc: EndpointDoc = {
      _id: id,
      companyId,
      url: input.url,
      eventTypes: [...new Set(input.event_types)],
      ...(input.description ? { description: input.description } : {}),
      enabled: input.enabled,
      secrets: [{ sealed: deps.box.seal(secret, id), createdAt: now }],
      createdAt: now,
      updatedAt: now,
    };
    await deps.endpoints.lockCompany(companyId, session);
    if ((await deps.endpoints.count(companyId, session)) >= MAX_WEBHOOK_ENDPOINTS)
      throw conflict(`a company may have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints`, 'WEBHOOK_ENDPOINT_LIMIT_REACHED');
    await deps.endpoints.insert(doc, session);
    emit(
      eventMessage('webhook-endpoint.changed.v1', companyId, {
        endpointId: id,
        action: 'created',
        fields: ['url', 'event_types', 'description', 'enabled', 'secret'],
      }),
    );
    return { ...presentEndpoint(doc), secret };
  });
  deps.endpoints.forget(companyId);
  return created;
}
