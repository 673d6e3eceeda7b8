import type { InboundContent, InboundValidationReport } from '@inv/contracts';

/** What inspecting one received e-invoice gives (inspect.ts), and its embedded files (embedded-attachments.ts). */
export interface Inspection {
  report: InboundValidationReport;
  content: InboundContent;
  /** The embedded attachments within the limits, decoded (only when asked for: a received document, not /validate). */
  attachments?: EmbeddedFile[];
}

/** A file embedded in the e-invoice, decoded; `n` is its place (from 1) among the document's attachments (content.attachments). */
export interface EmbeddedFile {
  n: number;
  filename?: string;
  mimeCode?: string;
  bytes: Uint8Array;
  sha256: string;
}
