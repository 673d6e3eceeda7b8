import type { NextFunction, Request, Response } from 'express';
import { problem } from '@inv/service-kit';

/**
 * Refuses a request whose declared body is larger than `maxBytes` with 413 before any other work
 * (authentication, proxying). Forwarding it would make the service answer before the body is through,
 * and the half-sent upstream request then surfaced as a 503. The rest of the body is read and dropped so
 * the client sees the answer instead of a reset; the connection is closed afterwards (service-kit lingering-close.ts:
 * after the rest of the body, within bounds).
 * Bodies without a declared length (chunked) are bounded by the service's own body limit.
 *
 * An upload route may name limits per Content-Type (`types`): a raw document is held to its own type's limit here
 * (a 5 MiB XML sent to a route that takes 10 MiB PDFs), so the service never has to refuse it mid-body.
 */
export interface UploadLimit {
  method: string;
  path: RegExp;
  /** The limit of any other type (a multipart form: the largest document plus the form's framing). */
  maxBytes: number;
  types?: { type: RegExp; maxBytes: number }[];
}

export function bodyLimit(defaultMaxBytes: number, uploads: UploadLimit[] = []) {
  return (req: Request, res: Response, next: NextFunction) => {
    const length = Number(req.headers['content-length'] ?? 0);
    const upload = uploads.find((u) => u.method === req.method && u.path.test(req.path));
    const type = String(req.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    const maxBytes = upload?.types?.find((t) => t.type.test(type))?.maxBytes ?? upload?.maxBytes ?? defaultMaxBytes;
    if (!(length > maxBytes)) return next();
    const body = problem(413, 'PAYLOAD_TOO_LARGE', `request body of ${length} bytes exceeds the limit of ${maxBytes} bytes`);
    req.resume();
    res.status(413).setHeader('connection', 'close');
    res.type('application/problem+json').json(body);
  };
}
