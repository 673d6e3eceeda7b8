import type { RpcRequestOf } from '@inv/runtime';
import { createCompany, type CreateCompanyDeps } from '../usecases/create-company';

/** Operator command: creates the company of the envelope's id with its owner (and an owner API key on Pro). */
export const onCreateCompany = (deps: CreateCompanyDeps, msg: RpcRequestOf<'account.create-company.v1'>) =>
  createCompany(deps, { companyId: msg.companyId, ...msg.data });
