import { INBOUND_VALIDATE_MAX_BYTES, type InboundValidationResult } from '@inv/contracts';
import type { Inspector } from '../inspection/inspector';
import type { ReceivedDocument } from '../support/receive-body';

/** POST /inbound/validate: the report (and the reading) of a document up to 1 MB; nothing is stored. */
export async function validateDocument(inspector: Inspector, doc: ReceivedDocument): Promise<InboundValidationResult> {
  const { report, content } = await inspector.check(doc, INBOUND_VALIDATE_MAX_BYTES);
  return { ...report, content };
}
