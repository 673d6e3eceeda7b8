import { Router } from 'express';
import { NumberingDocumentType, NumberingUpdate } from '@inv/contracts';
import { companyIdOf, parseInput, parsePath } from '@inv/service-kit';
import type { InvoiceDeps } from '../../platform/deps';
import type { SequenceDoc } from '../db/numbering';
import { formatNumber } from '../domain/number-patterns';
import { listSequences } from '../usecases/list-sequences';
import { nextValueOf, updateSequence } from '../usecases/update-sequence';

const presentSequence = (seq: SequenceDoc, now: Date) => ({
  document_type: seq.documentType,
  pattern: seq.pattern,
  reset: seq.reset,
  next_value: nextValueOf(seq, now),
  next_number: formatNumber(seq.pattern, now, nextValueOf(seq, now)),
});

export function numberingRoutes(deps: InvoiceDeps): Router {
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
