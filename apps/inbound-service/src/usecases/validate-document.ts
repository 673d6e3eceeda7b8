import { INBOUND_VALIDATE_MAX_BYTES, type InboundContent, type InboundValidationReport } from '@inv/contracts';
import type { ConformanceKit } from '../support/conformance-kit';
import type { ReceivedDocument } from '../support/receive-body';
import { checkDocument } from './check-document';

/** POST /inbound/validate: the report (and the reading) of a document up to 1 MB; nothing is stored. */
export async function validateDocument(
  kit: ConformanceKit,
  doc: ReceivedDocument,
): Promise<InboundValidationReport & { content: InboundContent }> {
  const { report, content } = await checkDocument(kit, doc, INBOUND_VALIDATE_MAX_BYTES);
  return { ...report, content };
}
