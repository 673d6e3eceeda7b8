import { Router } from 'express';
import { AddressCreate, AddressUpdate, IntId } from '@inv/contracts';
import { companyIdOf, parseInput, parsePath } from '@inv/service-kit';
import { presentAddress } from './presenters';
import { addAddress } from '../usecases/add-address';
import { deleteAddress } from '../usecases/delete-address';
import { getAddress } from '../usecases/get-address';
import { listAddresses } from '../usecases/list-addresses';
import { updateAddress } from '../usecases/update-address';
import type { CustomerDeps } from '../support/deps';

const idOf = (req: { params: Record<string, unknown> }, name: string) => parsePath(IntId, req.params, name);

export function addressRoutes(deps: CustomerDeps): Router {
  const r = Router();
  r.get('/customer/:id/addresses', async (req, res) => {
    const addresses = await listAddresses(deps, companyIdOf(req), idOf(req, 'id'));
    // A bare array, as the published SDK reads it (a customer has few addresses: no pages).
    res.setHeader('x-total-count', String(addresses.length));
    res.json(addresses.map(presentAddress));
  });
  r.post('/customer/:id/addresses', async (req, res) => {
    const companyId = companyIdOf(req);
    const customerId = idOf(req, 'id');
    const id = await addAddress(deps, companyId, customerId, parseInput(AddressCreate, req.body));
    res.status(201).json({ message: 'address added', ...presentAddress(await getAddress(deps, companyId, customerId, id)) });
  });
  r.get('/customer/:id/addresses/:addressId', async (req, res) => {
    res.json(presentAddress(await getAddress(deps, companyIdOf(req), idOf(req, 'id'), idOf(req, 'addressId'))));
  });
  r.put('/customer/:id/addresses/:addressId', async (req, res) => {
    const address = await updateAddress(
      deps,
      companyIdOf(req),
      idOf(req, 'id'),
      idOf(req, 'addressId'),
      parseInput(AddressUpdate, req.body),
    );
    res.json({ message: 'address updated', ...presentAddress(address) });
  });
  r.delete('/customer/:id/addresses/:addressId', async (req, res) => {
    await deleteAddress(deps, companyIdOf(req), idOf(req, 'id'), idOf(req, 'addressId'));
    res.json({ message: 'address deleted' });
  });
  return r;
}
