import { Router } from 'express';
import { IntId, PaymentTermInput, PaymentTermUpdate } from '@inv/contracts';
import { companyIdOf, parseInput, parsePatch, parsePath } from '@inv/service-kit';
import { presentPaymentTerm } from './presenters';
import { createPaymentTerm } from '../usecases/create-payment-term';
import { deletePaymentTerm } from '../usecases/delete-payment-term';
import { getPaymentTerm } from '../usecases/get-payment-term';
import { listPaymentTerms } from '../usecases/list-payment-terms';
import type { PaymentTermDeps } from '../support/payment-term-changes';
import { updatePaymentTerm } from '../usecases/update-payment-term';

/** /company/payment-terms: the terms customers and invoices refer to (GET /customer/payment-terms lists the same). */
export function paymentTermRoutes(deps: PaymentTermDeps): Router {
  const router = Router();
  router.get('/company/payment-terms', async (req, res) => {
    const { company, terms } = await listPaymentTerms(deps, companyIdOf(req));
    res.json({ payment_terms: terms.map(presentPaymentTerm(company)) });
  });
  router.post('/company/payment-terms', async (req, res) => {
    const { company, term } = await createPaymentTerm(deps, companyIdOf(req), parseInput(PaymentTermInput, req.body));
    res
      .status(201)
      .location(`${req.baseUrl}/company/payment-terms/${term.id}`)
      .json({ message: 'payment term created', ...presentPaymentTerm(company)(term) });
  });
  router.get('/company/payment-terms/:id', async (req, res) => {
    const { company, term } = await getPaymentTerm(deps, companyIdOf(req), parsePath(IntId, req.params, 'id'));
    res.json(presentPaymentTerm(company)(term));
  });
  router.put('/company/payment-terms/:id', async (req, res) => {
    const { company, term } = await updatePaymentTerm(
      deps,
      companyIdOf(req),
      parsePath(IntId, req.params, 'id'),
      parsePatch(PaymentTermUpdate, req.body),
    );
    res.json({ message: 'payment term saved', ...presentPaymentTerm(company)(term) });
  });
  router.delete('/company/payment-terms/:id', async (req, res) => {
    const id = parsePath(IntId, req.params, 'id');
    await deletePaymentTerm(deps, companyIdOf(req), id);
    res.json({ message: `payment term ${id} deleted` });
  });
  return router;
}
