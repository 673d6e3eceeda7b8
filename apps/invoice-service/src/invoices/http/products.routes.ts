import { Router } from 'express';
import { IntId, ProductInput, ProductListQuery, ProductUpdate } from '@inv/contracts';
import { companyIdOf, parseInput, parsePatch, parsePath, parseQuery, setPaginationHeaders } from '@inv/service-kit';
import type { InvoicesDeps } from '../deps';
import { createProduct } from '../usecases/create-product';
import { deleteProduct } from '../usecases/delete-product';
import { getProduct } from '../usecases/get-product';
import { listProducts } from '../usecases/list-products';
import { updateProduct } from '../usecases/update-product';
import { presentProduct } from '../../http/presenters';

export function productRoutes(deps: InvoicesDeps): Router {
  const r = Router();
  const idOf = (req: { params: Record<string, unknown> }) => parsePath(IntId, req.params, 'id');
  r.get('/products/', async (req, res) => {
    const q = parseQuery(ProductListQuery, req.query);
    const { items, total } = await listProducts(deps, companyIdOf(req), q);
    setPaginationHeaders(req, res, { total, page: q.page, limit: q.limit });
    res.json({ products: items.map(presentProduct), total, page: q.page, limit: q.limit });
  });
  r.post('/products/', async (req, res) => {
    const p = await createProduct(deps, companyIdOf(req), parseInput(ProductInput, req.body));
    res
      .status(201)
      .location(`${req.baseUrl}/products/${p.id}`)
      .json({ message: 'product created', ...presentProduct(p) });
  });
  r.get('/products/:id', async (req, res) => {
    res.json(presentProduct(await getProduct(deps, companyIdOf(req), idOf(req))));
  });
  r.put('/products/:id', async (req, res) => {
    const p = await updateProduct(deps, companyIdOf(req), idOf(req), parsePatch(ProductUpdate, req.body));
    res.json({ message: 'product saved', ...presentProduct(p) });
  });
  r.delete('/products/:id', async (req, res) => {
    const id = idOf(req);
    await deleteProduct(deps, companyIdOf(req), id);
    res.json({ message: `product ${id} deleted` });
  });
  return r;
}
