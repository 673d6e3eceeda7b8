import { Router } from 'express';
import { IntId, PaymentCreate, PaymentListQuery } from '@inv/contracts';
import { companyIdOf, parseInput, parsePath, parseQuery, setPaginationHeaders } from '@inv/service-kit';
import { presentInvoice, presentPayment } from '../../http/presenters';
import type { ReceivablesDeps } from '../deps';
import { getPayment } from '../usecases/get-payment';
import { listPayments } from '../usecases/list-payments';
import { loadInvoice } from '../../invoices';
import { recordPayment } from '../usecases/record-payment';
import { reversePayment } from '../usecases/reverse-payment';

const idOf = (req: { params: Record<string, unknown> }, name: string) => parsePath(IntId, req.params, name);

/** Payments of finalized invoices: record (partial, Skonto), list, reverse while not exported. */
export function paymentRoutes(deps: ReceivablesDeps): Router {
  const r = Router();

  /** The invoice's state after a change, in the words of the answer. */
  const invoiceState = async (companyId: ReturnType<typeof companyIdOf>, invoiceId: number) => {
    const inv = presentInvoice(await loadInvoice(deps, companyId, invoiceId), { positions: false });
    return { open_amount: inv.open_amount ?? 0, invoice_status: inv.status };
  };

  r.post('/invoice/:id/payments', async (req, res) => {
    const companyId = companyIdOf(req);
    const invoiceId = idOf(req, 'id');
    const { payment, openAmount, paidInFull } = await recordPayment(
      deps,
      companyId,
      invoiceId,
      parseInput(PaymentCreate, req.body),
      'manual',
    );
    res
      .status(201)
      .location(`/api/v1/invoice/${invoiceId}/payments/${payment.id}`)
      .json({
        message: paidInFull ? 'payment recorded; the invoice is paid in full' : 'payment recorded',
        ...presentPayment(payment),
        open_amount: openAmount,
        invoice_status: paidInFull ? 'PAID' : (await invoiceState(companyId, invoiceId)).invoice_status,
      });
  });
  r.get('/invoice/:id/payments', async (req, res) => {
    const companyId = companyIdOf(req);
    const invoiceId = idOf(req, 'id');
    const q = parseQuery(PaymentListQuery, req.query);
    const { items, total } = await listPayments(deps, companyId, invoiceId, q);
    const inv = presentInvoice(await loadInvoice(deps, companyId, invoiceId), { positions: false });
    setPaginationHeaders(req, res, { total, page: q.page, limit: q.limit });
    res.json({
      payments: items.map(presentPayment),
      total,
      page: q.page,
      limit: q.limit,
      gross_amount: inv.gross_amount,
      paid_amount: inv.paid_amount,
      skonto_amount: inv.skonto_amount,
      open_amount: inv.open_amount,
    });
  });
  r.get('/invoice/:id/payments/:paymentId', async (req, res) => {
    const companyId = companyIdOf(req);
    const invoiceId = idOf(req, 'id');
    const paymentId = idOf(req, 'paymentId');
    res.json(presentPayment(await getPayment(deps, companyId, invoiceId, paymentId)));
  });
  r.post('/invoice/:id/payments/:paymentId/reverse', async (req, res) => {
    const companyId = companyIdOf(req);
    const invoiceId = idOf(req, 'id');
    const payment = await reversePayment(deps, companyId, invoiceId, idOf(req, 'paymentId'));
    res.json({ message: 'payment reversed', ...presentPayment(payment), ...(await invoiceState(companyId, invoiceId)) });
  });

  return r;
}
