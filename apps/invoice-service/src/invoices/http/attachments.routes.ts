import { Router } from 'express';
import { IntId } from '@inv/contracts';
import { AppError, companyIdOf, parsePath } from '@inv/service-kit';
import type { AttachmentDoc } from '../db/attachments';
import { attachmentLink } from '../usecases/attachment-link';
import { deleteAttachment } from '../usecases/delete-attachment';
import { listAttachments } from '../usecases/list-attachments';
import { uploadAttachment } from '../usecases/upload-attachment';
import type { InvoiceDeps } from '../../platform/deps';

/** The upload route takes multipart/form-data and bounds its own body (5 MiB per file, cut while streaming). */
export const UPLOAD_PATHS = [/^\/invoice\/[^/]+\/attachments\/?$/];

export const presentAttachment = (a: Omit<AttachmentDoc, '_id'>) => ({
  id: a.id,
  filename: a.filename,
  content_type: a.contentType,
  size: a.size,
  sha256: a.sha256,
  description: a.description ?? null,
  created_at: a.createdAt.toISOString(),
});

export function attachmentRoutes(deps: InvoiceDeps): Router {
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
    res.json(
      await attachmentLink(deps, companyIdOf(req), parsePath(IntId, req.params, 'id'), parsePath(IntId, req.params, 'attachment_id')),
    );
  });
  r.delete('/invoice/:id/attachments/:attachment_id', async (req, res) => {
    const aid = parsePath(IntId, req.params, 'attachment_id');
    await deleteAttachment(deps, companyIdOf(req), parsePath(IntId, req.params, 'id'), aid);
    res.json({ message: `attachment ${aid} deleted` });
  });
  return r;
}
