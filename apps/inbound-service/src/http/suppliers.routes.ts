import { Router } from 'express';
import { IntId, SupplierInput, SupplierListQuery } from '@inv/contracts';
import { companyIdOf, parseInput, parsePath, parseQuery, setPaginationHeaders } from '@inv/service-kit';
import type { InboundDeps } from '../support/deps';
import { createSupplier } from '../usecases/create-supplier';
import { deleteSupplier } from '../usecases/delete-supplier';
import { getSupplier } from '../usecases/get-supplier';
import { listSuppliers } from '../usecases/list-suppliers';
import { updateSupplier } from '../usecases/update-supplier';

/** The supplier register received e-invoices are matched against. */
export function supplierRoutes(deps: InboundDeps): Router {
  const r = Router();
  r.get('/suppliers/', async (req, res) => {
    const q = parseQuery(SupplierListQuery, req.query);
    const { items, total } = await listSuppliers(deps, companyIdOf(req), q.page, q.limit);
    setPaginationHeaders(req, res, { total, page: q.page, limit: q.limit });
    res.json(items);
  });
  r.post('/suppliers/', async (req, res) => {
    const s = await createSupplier(deps, companyIdOf(req), parseInput(SupplierInput, req.body));
    res.status(201).location(`/api/v1/suppliers/${s.id}`).json(s);
  });
  r.get('/suppliers/:id', async (req, res) => {
    res.json(await getSupplier(deps, companyIdOf(req), parsePath(IntId, req.params, 'id')));
  });
  r.put('/suppliers/:id', async (req, res) => {
    res.json(await updateSupplier(deps, companyIdOf(req), parsePath(IntId, req.params, 'id'), parseInput(SupplierInput, req.body)));
  });
  r.delete('/suppliers/:id', async (req, res) => {
    const id = parsePath(IntId, req.params, 'id');
    await deleteSupplier(deps, companyIdOf(req), id);
    res.json({ message: `supplier ${id} deleted` });
  });
  return r;
}
