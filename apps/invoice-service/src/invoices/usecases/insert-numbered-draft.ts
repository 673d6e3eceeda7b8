import { conflict } from '@inv/service-kit';
import type { InvoiceDoc } from '../db/invoices';
import { formatNumber, type DocumentType } from '../domain/number-patterns';
import type { InvoicesDeps } from '../deps';
import { duplicateNumber } from './draft-rules';
import { oneAtATime } from '../../platform';

/** Numbers already taken by explicit invoice_number values are skipped; more than this in a row is a misconfiguration. */
const MAX_SKIPPED = 1000;

/** Number-taking transactions of one company's sequence, queued in this process (see oneAtATime). */
const perSequence = oneAtATime();

/**
 * Stores a new draft with its number. An explicit number is stored as given (409 if the company used it).
 * Otherwise the number comes from the company's sequence in the same transaction as the insert: the number
 * is taken at creation (as the spec says) and only if the draft is stored, so numbers have no gaps and no
 * duplicates even under concurrency (concurrent transactions conflict on the sequence and are retried).
 * Within this process the transactions of one sequence run one at a time: under load (10 clients creating
 * invoices) they otherwise conflicted on the sequence document and were aborted and retried ~1.7 times each.
 * A number is not looked up before it is used: the unique index on (companyId, number) refuses one that an
 * explicit invoice_number took, and only then is the transaction repeated, looking before each take.
 * Drafts are never deleted: a draft that is not issued is cancelled and keeps its number, documented as
 * cancelled (status CANCELLED), so the record of numbers stays complete.
 */
/** The draft a commit stored: its id and number (those of an earlier attempt when the request is a retry). */
export interface StoredDraft {
  id: number;
  number: string;
}

export async function insertNumberedDraft(
  deps: InvoicesDeps,
  doc: Omit<InvoiceDoc, '_id' | 'number'>,
  numbering: { explicit?: string; sequence: DocumentType },
): Promise<StoredDraft> {
  if (numbering.explicit !== undefined) {
    const number = numbering.explicit;
    try {
      // a commit (one insert): a request sent with an Idempotency-Key journals the draft it stored with it
      return await deps.commit(async (session) => {
        await deps.invoices.insert({ ...doc, number }, session);
        return { id: doc.id, number };
      });
    } catch (err) {
      if (duplicateNumber(err)) throw conflict(`invoice number ${number} is already used`, 'DUPLICATE_INVOICE_NUMBER');
      throw err;
    }
  }
  const now = deps.now();
  await deps.numbering.ensureExists(doc.companyId, numbering.sequence, now);
  const takeAndInsert = (lookFirst: boolean): Promise<StoredDraft> =>
    perSequence(`${doc.companyId}:${numbering.sequence}`, () =>
      deps.commit(async (session) => {
        let number = '';
        for (let skipped = 0; ; skipped++) {
          const { seq, value } = await deps.numbering.take(doc.companyId, numbering.sequence, now, session);
          number = formatNumber(seq.pattern, now, value);
          if (!lookFirst || !(await deps.invoices.numberTaken(doc.companyId, number, session))) break;
          if (skipped >= MAX_SKIPPED)
            throw conflict(
              `the ${numbering.sequence} sequence produces numbers that are already used (last: ${number}); change it with PUT /numbering/${numbering.sequence}`,
              'DUPLICATE_INVOICE_NUMBER',
            );
        }
        await deps.invoices.insert({ ...doc, number }, session);
        // the draft as the commit stored it: what a retry of the same request (Idempotency-Key) answers again
        return { id: doc.id, number };
      }),
    );
  try {
    // Nearly always the sequence's next number is free: the unique index (companyId, number) says when not.
    return await takeAndInsert(false);
  } catch (err) {
    if (!duplicateNumber(err)) throw err;
    // The number was taken explicitly (invoice_number); the aborted transaction took nothing. Look before taking.
    return await takeAndInsert(true);
  }
}
