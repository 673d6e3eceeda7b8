/** PUT /numbering/{document_type}: pattern, reset period and next value of a sequence. */
import type { CompanyId, NumberingUpdate } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { invalidData } from '@inv/service-kit';
import type { SequenceDoc } from '../db/numbering';
import { fixedTextOf, periodKeyOf, resetProblem, type DocumentType } from '../domain/number-patterns';
import type { InvoicesDeps } from '../deps';

/** The value the next document gets now (a new period starts again at 1). */
export const nextValueOf = (seq: SequenceDoc, now: Date) => (seq.periodKey === periodKeyOf(seq.reset, now) ? seq.next : 1);

export async function updateSequence(
  deps: InvoicesDeps,
  companyId: CompanyId,
  type: DocumentType,
  input: NumberingUpdate,
): Promise<SequenceDoc> {
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
