import { Router } from 'express';
import {
  CreditNoteCreate,
  IntId,
  InvoiceCreate,
  InvoiceDraftCheck,
  InvoiceListQuery,
  JobWaitQuery,
  InvoiceUpdate,
  JobRequest,
  JobTask,
  PositionCreateInput,
  PositionReorder,
  PositionUpdate,
  StatusUpdate,
} from '@inv/contracts';
import {
  AppError,
  companyIdOf,
  notFound,
  parseInput,
  parsePath,
  parseQuery,
  setCursorHeaders,
  setPaginationHeaders,
} from '@inv/service-kit';
import { presentInvoice, presentJob, presentPositions, presentLink, presentValidation } from '../../http/presenters';
import { addPosition } from '../usecases/add-position';
import { cancelInvoice } from '../usecases/cancel-invoice';
import { createCreditNote } from '../usecases/create-credit-note';
import { createInvoice } from '../usecases/create-invoice';
import { deletePosition } from '../usecases/delete-position';
import type { InvoicesDeps } from '../deps';
import { duplicateInvoice } from '../usecases/duplicate-invoice';
import { startFinalizeJob } from '../usecases/finalize-invoice';
import { documentLink } from '../usecases/document-link';
import { setStatus } from '../usecases/set-status';
import { renderPreview } from '../usecases/preview';
import { reorderPositions } from '../usecases/reorder-positions';
import { updateInvoice } from '../usecases/update-invoice';
import { updatePosition } from '../usecases/update-position';
import { listInvoices } from '../usecases/list-invoices';
import { loadInvoice } from '../usecases/load-invoice';
import { validateDraft } from '../usecases/validate-draft';
import { validateInvoice } from '../usecases/validate-invoice';
import { waitForJob } from '../usecases/wait-for-job';

const idOf = (req: { params: Record<string, unknown> }, name: string) => parsePath(IntId, req.params, name);

/** The invoice routes; PUT /invoice/{id}/status PAID records a payment (the receivables feature). */
export function invoiceRoutes(deps: InvoicesDeps): Router {
  const r = Router();

  r.get('/invoice/', async (req, res) => {
    const q = parseQuery(InvoiceListQuery, req.query);
    const { docs, total, nextCursor } = await listInvoices(deps, companyIdOf(req), q);
    // a page after a cursor has no page number: its headers are the count and the link to the next one
    if (q.cursor) setCursorHeaders(req, res, { total, nextCursor });
    else setPaginationHeaders(req, res, { total, page: q.page, limit: q.limit });
    res.json({
      invoices: docs.map((d) => presentInvoice(d, { positions: false })),
      total,
      page: q.page,
      limit: q.limit,
      next_cursor: nextCursor,
    });
  });
  r.post('/invoice/', async (req, res) => {
    const id = await createInvoice(deps, companyIdOf(req), parseInput(InvoiceCreate, req.body));
    res.status(201).location(`/api/v1/invoice/${id}`).json({ message: 'invoice created', invoice_id: id, id });
  });
  // before /invoice/:id: a check of an invoice not created (nothing stored), answered as GET /invoice/{id}/validate
  r.post('/invoice/validate', async (req, res) => {
    res.json(presentValidation(await validateDraft(deps, companyIdOf(req), parseInput(InvoiceDraftCheck, req.body))));
  });
  r.get('/invoice/:id', async (req, res) => {
    res.json(presentInvoice(await loadInvoice(deps, companyIdOf(req), idOf(req, 'id')), { positions: true }));
  });
  r.put('/invoice/:id', async (req, res) => {
    const companyId = companyIdOf(req);
    const id = idOf(req, 'id');
    await updateInvoice(deps, companyId, id, parseInput(InvoiceUpdate, req.body));
    res.json({ message: 'invoice updated', ...presentInvoice(await loadInvoice(deps, companyId, id), { positions: true }) });
  });

  r.get('/invoice/:id/positions', async (req, res) => {
    const inv = await loadInvoice(deps, companyIdOf(req), idOf(req, 'id'));
    res.json({ positions: presentPositions(inv.positions) });
  });
  r.post('/invoice/:id/positions', async (req, res) => {
    const companyId = companyIdOf(req);
    const invoiceId = idOf(req, 'id');
    const { id, invoice: inv, warnings } = await addPosition(deps, companyId, invoiceId, parseInput(PositionCreateInput, req.body));
    res.status(201).json({
      message: 'position added',
      id,
      position_id: id,
      invoice: presentInvoice(inv, { positions: false }),
      ...(warnings.length ? { warnings } : {}),
    });
  });
  r.put('/invoice/:id/positions/reorder', async (req, res) => {
    await reorderPositions(deps, companyIdOf(req), idOf(req, 'id'), parseInput(PositionReorder, req.body));
    res.json({ message: 'positions reordered' });
  });
  r.get(['/invoice/:id/position/:pid', '/invoice/:id/positions/:pid'], async (req, res) => {
    const inv = await loadInvoice(deps, companyIdOf(req), idOf(req, 'id'));
    const index = inv.positions.findIndex((p) => p.id === idOf(req, 'pid'));
    if (index < 0) throw notFound(`position ${req.params.pid}`);
    res.json(presentPositions(inv.positions)[index]);
  });
  r.put(['/invoice/:id/position/:pid', '/invoice/:id/positions/:pid'], async (req, res) => {
    const warnings = await updatePosition(deps, companyIdOf(req), idOf(req, 'id'), idOf(req, 'pid'), parseInput(PositionUpdate, req.body));
    res.json({ message: 'position updated', ...(warnings.length ? { warnings } : {}) });
  });
  r.delete(['/invoice/:id/position/:pid', '/invoice/:id/positions/:pid'], async (req, res) => {
    await deletePosition(deps, companyIdOf(req), idOf(req, 'id'), idOf(req, 'pid'));
    res.json({ message: 'position deleted' });
  });

  r.get('/invoice/:id/validate', async (req, res) => {
    const inv = await loadInvoice(deps, companyIdOf(req), idOf(req, 'id'));
    res.json(presentValidation(await validateInvoice(deps, inv, new Date().toISOString().slice(0, 10))));
  });
  r.post('/invoice/:id/job', async (req, res) => {
    const body = parseInput(JobTask, req.body);
    const job = JobRequest.safeParse(body);
    if (!job.success) {
      throw new AppError('invalid_data', `unknown task "${body.task}"; use process_invoice_flag_invoice_send_job`, {
        code: 'VALIDATION_ERROR',
        errors: [{ path: 'task', message: 'unknown task' }],
      });
    }
    const jobId = await startFinalizeJob(deps, companyIdOf(req), idOf(req, 'id'), job.data.vat_override_confirmed === true);
    res.status(201).json({ message: 'finalization job queued', job_id: jobId });
  });
  r.get('/invoice/:id/job/:jobId', async (req, res) => {
    const { wait } = parseQuery(JobWaitQuery, req.query);
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    const job = await waitForJob(deps, companyIdOf(req), idOf(req, 'id'), String(req.params.jobId), wait, gone.signal);
    res.json(presentJob(job));
  });
  r.put('/invoice/:id/status', async (req, res) => {
    const status = await setStatus(deps, companyIdOf(req), idOf(req, 'id'), parseInput(StatusUpdate, req.body));
    res.json({ message: `invoice marked ${status}`, status });
  });
  r.post('/invoice/:id/cancel', async (req, res) => {
    await cancelInvoice(deps, companyIdOf(req), idOf(req, 'id'));
    res.json({ message: 'invoice cancelled', status: 'CANCELLED' });
  });
  r.post('/invoice/:id/duplicate', async (req, res) => {
    const id = await duplicateInvoice(deps, companyIdOf(req), idOf(req, 'id'));
    res.status(201).json({ message: 'invoice duplicated', invoice_id: id });
  });
  r.post('/invoice/:id/credit-note', async (req, res) => {
    // no body (as before) is a full credit note
    const body = parseInput(CreditNoteCreate, req.body ?? {});
    const id = await createCreditNote(deps, companyIdOf(req), idOf(req, 'id'), body);
    res.status(201).json({ message: 'credit note created as a draft; finalize it like an invoice', invoice_id: id });
  });
  r.get('/invoice/:id/pdf-link', async (req, res) => {
    res.json(presentLink(await documentLink(deps, companyIdOf(req), idOf(req, 'id'), 'pdf')));
  });
  r.get('/invoice/:id/xml-link', async (req, res) => {
    res.json(presentLink(await documentLink(deps, companyIdOf(req), idOf(req, 'id'), 'xml')));
  });
  r.get('/invoice/:id/preview', async (req, res) => {
    const pdf = await renderPreview(deps, companyIdOf(req), idOf(req, 'id'));
    res.type('application/pdf').setHeader('content-disposition', `inline; filename="preview-${req.params.id}.pdf"`);
    res.send(pdf);
  });
  return r;
}
