import type { Request } from 'express';
import { unauthenticated } from './errors';

/** Header the gateway sets after authenticating the API key; services never see the key itself. */
export const COMPANY_HEADER = 'x-company-id';

export function companyIdOf(req: Request): string {
  const id = req.header(COMPANY_HEADER);
  if (!id) throw unauthenticated('request did not pass through the gateway');
  return id;
}
