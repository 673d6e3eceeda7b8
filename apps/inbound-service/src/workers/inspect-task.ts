import { threadId } from 'node:worker_threads';
import { AppError, type ErrorKind } from '@inv/service-kit';
import type { AttachmentLimits } from '../domain/attachments';
import { checkDocument } from '../usecases/check-document';
import { openConformanceKit, warmKit, type ConformanceKit, type XsdEngine } from '../inspection/conformance-kit';
import type { Inspection } from '../inspection/inspect';
import type { ReceivedDocument } from '../support/receive-body';

/** What an inspection worker is asked (structured-cloned: Buffers arrive as Uint8Array). */
export type InspectTask =
  | {
      kind: 'check';
      doc: { bytes: Uint8Array; mediaType: ReceivedDocument['mediaType']; filename?: string };
      xmlMaxBytes: number;
      attachmentLimits?: AttachmentLimits;
    }
  | { kind: 'warm-up' };

/**
 * The answer: a refusal of the document (an AppError: 4xx) is an answer, rebuilt as AppError on the caller's side;
 * anything else is thrown (a bug: 500).
 */
export type InspectResult =
  { ok: true; inspection?: Inspection; thread: number } | { ok: false; kind: ErrorKind; message: string; code: string };

export interface KitOptions {
  kitDir: string;
  cacheDir: string;
  xsdEngine: XsdEngine | 'auto';
}

export function kitRunner(opts: KitOptions) {
  let kit: ConformanceKit | undefined;
  const open = () => (kit ??= openConformanceKit(opts.kitDir, opts.cacheDir, opts.xsdEngine));
  return async (task: InspectTask): Promise<InspectResult> => {
    if (task.kind === 'warm-up') {
      await warmKit(open());
      return { ok: true, thread: threadId };
    }
    try {
      const doc: ReceivedDocument = {
        ...task.doc,
        bytes: Buffer.from(task.doc.bytes.buffer, task.doc.bytes.byteOffset, task.doc.bytes.byteLength),
      };
      return { ok: true, inspection: await checkDocument(open(), doc, task.xmlMaxBytes, task.attachmentLimits), thread: threadId };
    } catch (err) {
      if (err instanceof AppError) return { ok: false, kind: err.kind, message: err.message, code: err.code };
      throw err;
    }
  };
}
