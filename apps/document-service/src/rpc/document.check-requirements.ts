import type { Envelope } from '@inv/bus';
import type { messages } from '@inv/contracts';
import { formatForApiInvoiceFormat, requirementsFor, type EInvoice } from '@inv/einvoice';
import type { z } from 'zod';

type Request = z.output<(typeof messages.rpc)['document.check-requirements.v1']['request']>;

/** What the chosen e-invoice format requires of the snapshot (document-service owns the format rules). */
export async function onCheckRequirements(msg: Envelope<Request>) {
  const format = formatForApiInvoiceFormat(msg.data.format);
  if (!format) return { errors: [] };
  return { errors: requirementsFor(format, msg.data.snapshot as unknown as EInvoice) };
}
