import { Router } from 'express';
import { CustomerCreate, CustomerListQuery, CustomerUpdate, IntId } from '@inv/contracts';
import { companyIdOf, parseInput, parsePath, parseQuery, setPaginationHeaders } from '@inv/service-kit';
import { presentCustomer, presentVatCheck } from './presenters';
import { createCustomer } from '../usecases/create-customer';
import { listCustomers } from '../usecases/list-customers';
import { loadCustomer } from '../usecases/load-customer';
import { requestVatRecheck } from '../usecases/request-vat-recheck';
import { updateCustomer } from '../usecases/update-customer';
import type { CustomerDeps } from '../support/deps';

const idOf = (req: { params: Record<string, unknown> }, name: string) => parsePath(IntId, req.params, name);

export function customerRoutes(deps: CustomerDeps): Router {
  const r = Router();

  r.get('/customer/', async (req, res) => {
    const q = parseQuery(CustomerListQuery, req.query);
    const { docs, total } = await listCustomers(deps, companyIdOf(req), q);
    // A bare array, as the published SDK reads it; total and page links travel in headers.
    setPaginationHeaders(req, res, { total, page: q.page, limit: q.limit });
    res.json(docs.map((c) => presentCustomer(c, { addresses: false })));
  });
  r.post('/customer/', async (req, res) => {
    const id = await createCustomer(deps, companyIdOf(req), parseInput(CustomerCreate, req.body));
    res.status(201).location(`/api/v1/customer/${id}`).json({ message: 'customer created', id });
  });
  // Before /customer/:id, which would otherwise take "payment-terms" for an id.
  r.get('/customer/payment-terms', async (req, res) => {
    const terms = await deps.paymentTerms.list(companyIdOf(req));
    res.json({ payment_terms: terms.map((t) => ({ id: t.id, name: t.name, days: t.days })) });
  });
  r.get('/customer/:id', async (req, res) => {
    res.json(presentCustomer(await loadCustomer(deps, companyIdOf(req), idOf(req, 'id')), { addresses: true }));
  });
  r.put('/customer/:id', async (req, res) => {
    const companyId = companyIdOf(req);
    const id = idOf(req, 'id');
    await updateCustomer(deps, companyId, id, parseInput(CustomerUpdate, req.body));
    res.json({ message: 'customer updated', ...presentCustomer(await loadCustomer(deps, companyId, id), { addresses: true }) });
  });
  r.get('/customer/:id/vat-check', async (req, res) => {
    const customer = await loadCustomer(deps, companyIdOf(req), idOf(req, 'id'));
    const requested = await requestVatRecheck(deps, customer);
    res.json({ ...presentVatCheck(customer), check_requested: requested });
  });
  return r;
}
