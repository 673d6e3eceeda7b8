import { Router } from 'express';
import { ApiKeyCreate, BankAccountInput, BankAccountUpdate, CompanyProfileUpdate, IntId } from '@inv/contracts';
import { companyIdOf, identityOf, notFound, parseInput, parsePatch, parsePath } from '@inv/service-kit';
import type { ApiKeysRepo } from '../db/api-keys';
import type { CompaniesRepo } from '../db/companies';
import { presentBankAccount, presentCompany } from './presenters';
import { createApiKey } from '../usecases/create-api-key';
import { listApiKeys } from '../usecases/list-api-keys';
import { revokeApiKey } from '../usecases/revoke-api-key';
import { addBankAccount } from '../usecases/add-bank-account';
import { deleteBankAccount } from '../usecases/delete-bank-account';
import type { CompanyDeps } from '../support/deps';
import { getBankAccount } from '../usecases/get-bank-account';
import { listBankAccounts } from '../usecases/list-bank-accounts';
import { updateBankAccount } from '../usecases/update-bank-account';
import { updateCompanyProfile } from '../usecases/update-company-profile';

export function companyRoutes(
  deps: CompanyDeps & {
    apiKeys: ApiKeysRepo;
    companies: CompaniesRepo;
    announceRevoked: (keyId: string, companyId: string) => Promise<void>;
  },
): Router {
  const router = Router();
  router.get('/company/', async (req, res) => {
    const company = await deps.companies.byId(companyIdOf(req));
    if (!company) throw notFound('company');
    res.json(presentCompany(company));
  });
  router.put('/company/', async (req, res) => {
    const company = await updateCompanyProfile(deps, companyIdOf(req), parsePatch(CompanyProfileUpdate, req.body));
    res.json({ message: 'company profile saved', ...presentCompany(company) });
  });
  router.get('/company/bank-accounts', async (req, res) => {
    res.json({ bank_accounts: (await listBankAccounts(deps, companyIdOf(req))).map(presentBankAccount) });
  });
  router.post('/company/bank-accounts', async (req, res) => {
    const account = await addBankAccount(deps, companyIdOf(req), parseInput(BankAccountInput, req.body));
    res
      .status(201)
      .location(`${req.baseUrl}/company/bank-accounts/${account.id}`)
      .json({ message: 'bank account added', ...presentBankAccount(account) });
  });
  router.get('/company/bank-accounts/:id', async (req, res) => {
    res.json(presentBankAccount(await getBankAccount(deps, companyIdOf(req), parsePath(IntId, req.params, 'id'))));
  });
  router.put('/company/bank-accounts/:id', async (req, res) => {
    const account = await updateBankAccount(
      deps,
      companyIdOf(req),
      parsePath(IntId, req.params, 'id'),
      parseInput(BankAccountUpdate, req.body),
    );
    res.json({ message: 'bank account saved', ...presentBankAccount(account) });
  });
  router.delete('/company/bank-accounts/:id', async (req, res) => {
    const id = parsePath(IntId, req.params, 'id');
    await deleteBankAccount(deps, companyIdOf(req), id);
    res.json({ message: `bank account ${id} deleted` });
  });
  router.get('/company/api-keys', async (req, res) => {
    res.json({ api_keys: await listApiKeys(deps, companyIdOf(req)) });
  });
  router.post('/company/api-keys', async (req, res) => {
    const { name, role } = parseInput(ApiKeyCreate, req.body);
    const created = await createApiKey(deps, companyIdOf(req), name, role, identityOf(req)?.role ?? 'admin');
    res.status(201).json({ message: 'API key created; it is shown only once', ...created });
  });
  router.delete('/company/api-keys/:id', async (req, res) => {
    await revokeApiKey(deps, companyIdOf(req), req.params.id, identityOf(req)?.role);
    res.json({ message: 'API key revoked' });
  });
  return router;
}
