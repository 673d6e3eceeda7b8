import type { Envelope } from '@inv/bus';
import { InvoiceSnapshot, type messages } from '@inv/contracts';
import { formatForApiInvoiceFormat, requirementsFor } from '@inv/einvoice';
import type { z } from 'zod';

type Request = z.output<(typeof messages.rpc)['document.check-requirements.v1']['request']>;

/**
 * What the chosen e-invoice format requires of the snapshot (document-service owns the format rules). The
 * request carries the snapshot loosely (a plain PDF needs nothing of it); for a format it is read as the
 * render snapshot contract, and a snapshot of another shape is answered with what is wrong in it.
 */
export async function onCheckRequirements(msg: Envelope<Request>) {
  const format = formatForApiInvoiceFormat(msg.data.format);
  if (!format) return { errors: [] };
  const snapshot = InvoiceSnapshot.safeParse(msg.data.snapshot);
  if (!snapshot.success)
    return { errors: snapshot.error.issues.map((i) => ({ field: i.path.join('.'), rule: 'SNAPSHOT_SHAPE', message: i.message })) };
  return { errors: requirementsFor(format, snapshot.data) };
}
