import { Router, type Request } from 'express';
import {
  IntId,
  INBOUND_PDF_MAX_BYTES,
  INBOUND_VALIDATE_MAX_BYTES,
  INBOUND_XML_MAX_BYTES,
  InboundListQuery,
  InboundPdfQuery,
  JobWaitQuery,
} from '@inv/contracts';
import { AppError, companyIdOf, parsePath, parseQuery, setPaginationHeaders } from '@inv/service-kit';
import type { InboundDeps } from '../support/deps';
import { receiveDocument as readBody } from '../support/receive-body';
import { presentFileLink, toInboundJob } from './presenters';
import { deleteDocument } from '../usecases/delete-document';
import { attachmentLink, originalLink } from '../usecases/document-files';
import { documentPdf } from '../usecases/document-pdf';
import { getDocument } from '../usecases/get-document';
import { listDocuments } from '../usecases/list-documents';
import { receiveDocument } from '../usecases/receive-document';
import { validateDocument } from '../usecases/validate-document';
import { waitForJob } from '../usecases/wait-for-job';

/** Paths whose body is a document (raw XML/PDF or multipart), not JSON. */
export const DOCUMENT_PATHS = [/^\/inbound\/?$/, /^\/inbound\/validate\/?$/];

const receiveLimit = (type: 'application/xml' | 'application/pdf') =>
  type === 'application/pdf' ? INBOUND_PDF_MAX_BYTES : INBOUND_XML_MAX_BYTES;

export function inboundRoutes(deps: InboundDeps): Router {
  const r = Router();
  /** A refusal while the client may still be sending: answer now and do not keep the connection for the rest. */
  const closingOnError = async <T>(req: Request, res: { setHeader(n: string, v: string): unknown }, work: () => Promise<T>) => {
    try {
      return await work();
    } catch (err) {
      if (err instanceof AppError && !req.complete) res.setHeader('connection', 'close');
      throw err;
    }
  };
  r.post('/inbound/validate', async (req, res) => {
    const report = await closingOnError(req, res, async () =>
      validateDocument(deps.inspector, await readBody(req.headers, req, () => INBOUND_VALIDATE_MAX_BYTES)),
    );
    res.json(report);
  });
  r.post('/inbound/', async (req, res) => {
    const doc = await closingOnError(req, res, async () =>
      receiveDocument(deps, companyIdOf(req), await readBody(req.headers, req, receiveLimit)),
    );
    const job = toInboundJob(doc);
    res.status(202).location(job.links.self).json(job);
  });
  r.get('/inbound/', async (req, res) => {
    const q = parseQuery(InboundListQuery, req.query);
    const { items, total } = await listDocuments(deps, companyIdOf(req), q);
    setPaginationHeaders(req, res, { total, page: q.page, limit: q.limit });
    res.json(items); // a bare array, newest first, like the other lists
  });
  r.get('/inbound/:id', async (req, res) => {
    res.json(await getDocument(deps, companyIdOf(req), parsePath(IntId, req.params, 'id')));
  });
  r.get('/inbound/:id/job', async (req, res) => {
    const { wait } = parseQuery(JobWaitQuery, req.query);
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    const doc = await waitForJob(deps, companyIdOf(req), parsePath(IntId, req.params, 'id'), wait, gone.signal);
    res.json(toInboundJob(doc));
  });
  r.get('/inbound/:id/pdf', async (req, res) => {
    res.json(
      presentFileLink(
        await documentPdf(deps, companyIdOf(req), parsePath(IntId, req.params, 'id'), parseQuery(InboundPdfQuery, req.query)),
      ),
    );
  });
  r.get('/inbound/:id/original', async (req, res) => {
    res.json(presentFileLink(await originalLink(deps, companyIdOf(req), parsePath(IntId, req.params, 'id'))));
  });
  r.get('/inbound/:id/attachments/:n', async (req, res) => {
    res.json(
      presentFileLink(await attachmentLink(deps, companyIdOf(req), parsePath(IntId, req.params, 'id'), parsePath(IntId, req.params, 'n'))),
    );
  });
  r.delete('/inbound/:id', async (req, res) => {
    const id = parsePath(IntId, req.params, 'id');
    await deleteDocument(deps, companyIdOf(req), id);
    res.json({ message: `inbound document ${id} deleted` });
  });
  return r;
}
