import { Router } from 'express';
import { NumberingDocumentType, NumberingUpdate } from '@inv/contracts';
import { companyIdOf, parseInput, parsePath } from '@inv/service-kit';
import type { InvoicesDeps } from '../deps';
import { listSequences } from '../usecases/list-sequences';
import { updateSequence } from '../usecases/update-sequence';
import { presentSequence } from '../../http/presenters';

export function numberingRoutes(deps: InvoicesDeps): Router {
  const r = Router();
  r.get('/numbering/', async (req, res) => {
    const seqs = await listSequences(deps, companyIdOf(req));
    const now = deps.now();
    res.json({ sequences: seqs.map((s) => presentSequence(s, now)) });
  });
  r.get('/numbering/:document_type', async (req, res) => {
    const type = parsePath(NumberingDocumentType, req.params, 'document_type');
    const seq = (await listSequences(deps, companyIdOf(req))).find((s) => s.documentType === type)!;
    res.json(presentSequence(seq, deps.now()));
  });
  r.put('/numbering/:document_type', async (req, res) => {
    const type = parsePath(NumberingDocumentType, req.params, 'document_type');
    const seq = await updateSequence(deps, companyIdOf(req), type, parseInput(NumberingUpdate, req.body));
    res.json({ message: 'numbering sequence saved', ...presentSequence(seq, deps.now()) });
  });
  return r;
}
