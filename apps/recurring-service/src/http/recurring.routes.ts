import { Router } from 'express';
import { IntId, RecurringInvoiceCreate, RecurringInvoiceUpdate, RecurringListQuery, RecurringRunsQuery } from '@inv/contracts';
import { companyIdOf, parseInput, parsePatch, parsePath, parseQuery, setPaginationHeaders } from '@inv/service-kit';
import type { RecurringDeps } from '../support/deps';
import { presentSchedule } from './presenters';
import { createRecurring } from '../usecases/create-recurring';
import { deleteRecurring } from '../usecases/delete-recurring';
import { listRecurring } from '../usecases/list-recurring';
import { listRuns } from '../usecases/list-runs';
import { loadRecurring } from '../usecases/load-recurring';
import { updateRecurring } from '../usecases/update-recurring';

const idOf = (req: { params: Record<string, unknown> }) => parsePath(IntId, req.params, 'id');

/** Reads need `read`, writes `invoices:write` (the permission table's defaults; gateway and service-kit check it). */
export function recurringRoutes(deps: RecurringDeps): Router {
  const r = Router();
  const base = '/recurring-invoices';
  r.post(`${base}/`, async (req, res) => {
    const created = await createRecurring(deps, companyIdOf(req), parseInput(RecurringInvoiceCreate, req.body));
    res.status(201).location(`/api/v1${base}/${created.id}`).json(created);
  });
  r.get(`${base}/`, async (req, res) => {
    const q = parseQuery(RecurringListQuery, req.query);
    const page = await listRecurring(deps, companyIdOf(req), q);
    setPaginationHeaders(req, res, page);
    res.json(page);
  });
  r.get(`${base}/:id`, async (req, res) => {
    res.json(presentSchedule(await loadRecurring(deps, companyIdOf(req), idOf(req))));
  });
  r.put(`${base}/:id`, async (req, res) => {
    res.json(await updateRecurring(deps, companyIdOf(req), idOf(req), parsePatch(RecurringInvoiceUpdate, req.body)));
  });
  r.delete(`${base}/:id`, async (req, res) => {
    await deleteRecurring(deps, companyIdOf(req), idOf(req));
    res.json({ message: 'recurring invoice deleted' });
  });
  r.get(`${base}/:id/runs`, async (req, res) => {
    const q = parseQuery(RecurringRunsQuery, req.query);
    const page = await listRuns(deps, companyIdOf(req), idOf(req), q);
    setPaginationHeaders(req, res, page);
    res.json(page);
  });
  return r;
}
