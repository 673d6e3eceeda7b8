import type { EndpointDoc } from '../db/endpoints';
import { commandMessage, eventMessage } from '@inv/runtime';
import type { WebhookDeps } from '../support/deps';

/**
 * Disables an endpoint the deliveries gave up on: it answered 410 Gone (`gone`), or every delivery failed for
 * WEBHOOK_DISABLE_AFTER_MS (`failing`, 3 days), when the company's owners get an e-mail. Its pending deliveries
 * fail; re-enabling (PUT enabled: true) and replaying sends them again. Once per disabling (a second call finds it
 * disabled and changes nothing).
 */
export async function disableEndpoint(deps: WebhookDeps, endpoint: EndpointDoc, reason: 'gone' | 'failing'): Promise<void> {
  let owners: string[] = [];
  if (reason === 'failing') {
    try {
      owners = (await deps.bus.callRpc('account.company-owners.v1', endpoint.companyId, {})).emails;
    } catch (err) {
      // the endpoint is disabled anyway; the owners see it in GET /webhook-endpoints/ (disabled_reason)
      deps.logger.warn(
        { err: (err as Error).message, endpointId: endpoint._id },
        'webhook: owners of the company not found for the disabling e-mail',
      );
    }
  }
  const now = deps.now();
  await deps.commit(async (session, emit) => {
    const res = await deps.endpoints.model.updateOne(
      { _id: endpoint._id, companyId: endpoint.companyId, enabled: true },
      { $set: { enabled: false, disabledReason: reason, updatedAt: now } },
      { session },
    );
    if (!res.modifiedCount) return;
    await deps.deliveries.failPendingOf(endpoint.companyId, endpoint._id, session);
    emit(
      eventMessage('webhook-endpoint.changed.v1', endpoint.companyId, {
        endpointId: endpoint._id,
        action: 'disabled',
        fields: ['enabled'],
      }),
    );
    if (owners.length)
      emit(
        commandMessage(
          'mail.send.v1',
          endpoint.companyId,
          {
            emailId: `webhook-disabled-${endpoint._id}-${(endpoint.failingSince ?? now).getTime()}`,
            subjectRef: `webhook-endpoint:${endpoint._id}`,
            from: deps.mailFrom,
            to: owners,
            subject: 'A webhook endpoint was disabled',
            text: [
              `Every delivery to your webhook endpoint ${endpoint._id} failed since ${(endpoint.failingSince ?? now).toISOString()}, so it was disabled.`,
              `URL host: ${new URL(endpoint.url).host}`,
              '',
              'Fix the receiver, then enable the endpoint again (PUT /api/v1/webhook-endpoints/{id} with enabled: true)',
              'and send the missed events with POST /api/v1/webhook-endpoints/{id}/replay.',
            ].join('\n'),
          },
          `webhook-disabled-${endpoint._id}-${(endpoint.failingSince ?? now).getTime()}`,
        ),
      );
  });
  deps.endpoints.forget(endpoint.companyId);
  deps.logger.info({ endpointId: endpoint._id, companyId: endpoint.companyId, reason }, 'webhook endpoint disabled');
}
