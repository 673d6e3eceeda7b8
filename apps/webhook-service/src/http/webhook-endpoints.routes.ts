import { Router } from 'express';
import { z } from 'zod';
import { WebhookDeliveryQuery, WebhookEndpointCreate, WebhookEndpointUpdate, WebhookReplay } from '@inv/contracts';
import { companyIdOf, parseInput, parsePatch, parseQuery } from '@inv/service-kit';
import type { WebhookDeps } from '../support/deps';
import { createEndpoint } from '../usecases/create-endpoint';
import { deleteEndpoint } from '../usecases/delete-endpoint';
import { listDeliveries } from '../usecases/list-deliveries';
import { listEndpoints } from '../usecases/list-endpoints';
import { loadEndpoint } from '../usecases/load-endpoint';
import { replayDeliveries } from '../usecases/replay-deliveries';
import { retryDelivery } from '../usecases/retry-delivery';
import { rotateSecret } from '../usecases/rotate-secret';
import { sendTest } from '../usecases/send-test';
import { updateEndpoint } from '../usecases/update-endpoint';
import { presentEndpoint } from './presenters';

/** Actions take no body: an empty object (or none), anything else is 400 UNKNOWN_FIELD. */
const NoBody = z.object({});

/** Permission webhooks:manage is checked by the gateway and again from the signed identity (service-kit). */
export function webhookEndpointRoutes(deps: WebhookDeps): Router {
  const r = Router();
  const base = '/webhook-endpoints';
  r.post(`${base}/`, async (req, res) => {
    const created = await createEndpoint(deps, companyIdOf(req), parseInput(WebhookEndpointCreate, req.body));
    res.status(201).location(`${req.baseUrl}${base}/${created.id}`).json(created);
  });
  r.get(`${base}/`, async (req, res) => {
    res.json(await listEndpoints(deps, companyIdOf(req)));
  });
  r.get(`${base}/:id`, async (req, res) => {
    res.json(presentEndpoint(await loadEndpoint(deps, companyIdOf(req), req.params.id)));
  });
  r.put(`${base}/:id`, async (req, res) => {
    res.json(await updateEndpoint(deps, companyIdOf(req), req.params.id, parsePatch(WebhookEndpointUpdate, req.body)));
  });
  r.delete(`${base}/:id`, async (req, res) => {
    await deleteEndpoint(deps, companyIdOf(req), req.params.id);
    res.json({ message: 'webhook endpoint deleted' });
  });
  r.post(`${base}/:id/rotate-secret`, async (req, res) => {
    parseInput(NoBody, req.body);
    res.json(await rotateSecret(deps, companyIdOf(req), req.params.id));
  });
  r.post(`${base}/:id/test`, async (req, res) => {
    parseInput(NoBody, req.body);
    res.status(202).json(await sendTest(deps, companyIdOf(req), req.params.id));
  });
  r.get(`${base}/:id/deliveries`, async (req, res) => {
    res.json(await listDeliveries(deps, companyIdOf(req), req.params.id, parseQuery(WebhookDeliveryQuery, req.query)));
  });
  r.post(`${base}/:id/deliveries/:deliveryId/retry`, async (req, res) => {
    parseInput(NoBody, req.body);
    await retryDelivery(deps, companyIdOf(req), req.params.id, req.params.deliveryId);
    res.status(202).json({ message: 'delivery queued' });
  });
  r.post(`${base}/:id/replay`, async (req, res) => {
    const { since } = parseInput(WebhookReplay, req.body);
    res.json(await replayDeliveries(deps, companyIdOf(req), req.params.id, new Date(since)));
  });
  return r;
}
