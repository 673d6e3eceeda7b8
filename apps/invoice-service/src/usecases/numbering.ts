/** GET /numbering/ and PUT /numbering/{document_type}: the company's numbering sequences. */
import type { NumberingUpdate } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { invalidData } from '@inv/service-kit';
import type { SequenceDoc } from '../db/numbering';
import { fixedTextOf, formatNumber, periodKeyOf, resetProblem, type DocumentType } from '../domain/numbering';
import type { InvoiceDeps } from './deps';

const TYPES: DocumentType[] = ['invoice', 'credit_note'];

/** The value the next document gets now (a new period starts again at 1). */
export const nextValueOf = (seq: SequenceDoc, now: Date) => (seq.periodKey === periodKeyOf(seq.reset, now) ? seq.next : 1);

export async function listSequences(deps: InvoiceDeps, companyId: string) {
  const now = deps.now();
  return Promise.all(TYPES.map((t) => deps.numbering.ensure(companyId, t, now)));
}

export async function updateSequence(deps: InvoiceDeps, companyId: string, type: DocumentType, input: NumberingUpdate): Promise<SequenceDoc> {
  const now = deps.now();
  const current = await deps.numbering.ensure(companyId, type, now);
  const other = await deps.numbering.ensure(companyId, type === 'invoice' ? 'credit_note' : 'invoice', now);
  const pattern = input.pattern ?? current.pattern;
  const reset = input.reset ?? current.reset;
  const problem = resetProblem({ pattern, reset });
  if (problem) throw invalidData(problem, [{ path: input.pattern !== undefined ? 'pattern' : 'reset', message: problem }]);
  if (fixedTextOf(pattern) === fixedTextOf(other.pattern)) {
    const message = `the ${other.documentType} sequence has the same fixed text (${other.pattern}): the two could produce the same number`;
    throw invalidData(message, [{ path: 'pattern', message }]);
  }
  const set: Partial<SequenceDoc> = { pattern, reset };
  const period = periodKeyOf(reset, now);
  if (input.next_value !== undefined) Object.assign(set, { periodKey: period, next: input.next_value });
  else if (reset !== current.reset) Object.assign(set, { periodKey: period, next: nextValueOf(current, now) });
  return deps.commit(async (session, emit) => {
    const after = await deps.numbering.update(companyId, type, set, now, session);
    emit(eventMessage('numbering.changed.v1', companyId, { documentType: type, fields: Object.keys(input) }));
    return after!;
  });
}

export const presentSequence = (seq: SequenceDoc, now: Date) => ({
  document_type: seq.documentType,
  pattern: seq.pattern,
  reset: seq.reset,
  next_value: nextValueOf(seq, now),
  next_number: formatNumber(seq.pattern, now, nextValueOf(seq, now)),
});
