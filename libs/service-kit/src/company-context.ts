import type { Request } from 'express';
import { asCompanyId, type CompanyId } from '@inv/contracts';
import { unauthenticated } from './errors';
import { identityOf } from './identity';

/**
 * Header the gateway used to set before identities were signed. Services no longer read it (the company
 * comes only from the verified identity token); it is dropped on arrival.
 */
export const COMPANY_HEADER = 'x-company-id';

/** The company of the verified identity token (see identity.ts); 401 when the request carries none. */
export function companyIdOf(req: Request): CompanyId {
  const id = identityOf(req)?.companyId;
  if (!id) throw unauthenticated('request did not pass through the gateway');
  return asCompanyId(id);
}
