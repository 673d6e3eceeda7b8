import { Router } from 'express';
import { IntId } from '@inv/contracts';
import { AppError, companyIdOf, parsePath } from '@inv/service-kit';
import { attachmentLink } from '../usecases/attachment-link';
import { deleteAttachment } from '../usecases/delete-attachment';
import { listAttachments } from '../usecases/list-attachments';
import { uploadAttachment } from '../usecases/upload-attachment';
import type { InvoicesDeps } from '../deps';
import { presentAttachment, presentLink } from '../../http/presenters';

/** The upload route takes multipart/form-data and bounds its own body (5 MiB per file, cut while streaming). */
export const UPLOAD_PATHS = [/^\/invoice\/[^/]+\/attachments\/?$/];

export function attachmentRoutes(deps: InvoicesDeps): Router {
  const r = Router();
  r.post('/invoice/:id/attachments', async (req, res) => {
    const id = parsePath(IntId, req.params, 'id');
    try {
      const a = await uploadAttachment(deps, companyIdOf(req), id, { headers: req.headers, body: req });
      res
        .status(201)
        .location(`${req.baseUrl}/invoice/${id}/attachments/${a.id}`)
        .json({ message: 'attachment stored', ...presentAttachment(a) });
    } catch (err) {
      // The client may still be sending: answer now and do not keep the connection for the rest.
      if (err instanceof AppError && !req.complete) res.setHeader('connection', 'close');
      throw err;
    }
  });
  r.get('/invoice/:id/attachments', async (req, res) => {
    const list = await listAttachments(deps, companyIdOf(req), parsePath(IntId, req.params, 'id'));
    res.json({ attachments: list.map(presentAttachment) });
  });
  r.get('/invoice/:id/attachments/:attachment_id', async (req, res) => {
    const link = await attachmentLink(
      deps,
      companyIdOf(req),
      parsePath(IntId, req.params, 'id'),
      parsePath(IntId, req.params, 'attachment_id'),
    );
    res.json(presentLink(link));
  });
  r.delete('/invoice/:id/attachments/:attachment_id', async (req, res) => {
    const aid = parsePath(IntId, req.params, 'attachment_id');
    await deleteAttachment(deps, companyIdOf(req), parsePath(IntId, req.params, 'id'), aid);
    res.json({ message: `attachment ${aid} deleted` });
  });
  return r;
}
