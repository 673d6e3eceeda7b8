import type { Envelope } from '@inv/bus';
import { createCompany, type CreateCompanyDeps } from '../usecases/create-company';

/** Operator command: creates the company of the envelope's id with its owner (and an owner API key on Pro). */
export const onCreateCompany = (
  deps: CreateCompanyDeps,
  msg: Envelope<{ name: string; ownerEmail: string; plan: 'free' | 'pro'; apiKey?: string }>,
) => createCompany(deps, { companyId: msg.companyId, ...msg.data });
