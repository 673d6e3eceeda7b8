import type { Readable } from 'node:stream';
import { Router } from 'express';
import { AppError, companyIdOf } from '@inv/service-kit';
import { LOGO_MAX_BYTES } from '../domain/logo';
import { presentLogo } from './presenters';
import { companyLogoLink } from '../usecases/company-logo-link';
import { deleteCompanyLogo } from '../usecases/delete-company-logo';
import type { LogoDeps } from '../support/logo-store';
import { putCompanyLogo } from '../usecases/put-company-logo';

/** The paths whose bodies are image bytes, not JSON (exempt from the JSON-only rule; bounded here). */
export const LOGO_PATHS = [/^\/company\/logo\/?$/];

/**
 * The request body as bytes, at most `max`: a declared length over it answers 413 before a byte is read,
 * and a body without (or with a false) length is cut at the first byte past it. Nothing is kept either way.
 * Written by hand because the body is one small image kept in memory (a multipart parser adds nothing here).
 */
function readBody(req: Readable & { headers: Record<string, unknown> }, max: number): Promise<Buffer> {
  const tooLarge = () => new AppError('payload_too_large', `a logo may have at most ${max} bytes (1 MiB)`, { code: 'LOGO_TOO_LARGE' });
  if (Number(req.headers['content-length'] ?? 0) > max) {
    req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > max) {
        done = true;
        chunks.length = 0;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!done) resolve(Buffer.concat(chunks));
    });
    req.on('error', (err) => {
      if (!done) reject(err);
      done = true;
    });
  });
}

export function logoRoutes(deps: LogoDeps): Router {
  const router = Router();
  router.put('/company/logo', async (req, res) => {
    const company = await putCompanyLogo(deps, companyIdOf(req), await readBody(req, LOGO_MAX_BYTES)).catch((err: unknown) => {
      const retryAfter = err instanceof AppError ? err.options.extra?.retry_after : undefined;
      if (typeof retryAfter === 'number') res.setHeader('retry-after', String(retryAfter));
      throw err;
    });
    res.json({ message: 'logo saved', ...presentLogo(company.logo!) });
  });
  router.get('/company/logo', async (req, res) => {
    const { logo, url } = await companyLogoLink(deps, companyIdOf(req));
    res.json({ url, ...presentLogo(logo), expires_in: deps.presignTtlSeconds });
  });
  router.delete('/company/logo', async (req, res) => {
    await deleteCompanyLogo(deps, companyIdOf(req));
    res.json({ message: 'logo deleted' });
  });
  return router;
}
