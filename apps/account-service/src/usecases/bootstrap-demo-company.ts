import type { Changes } from '@inv/outbox';
import { eventMessage } from '@inv/runtime';
import type { ApiKeysRepo } from '../db/api-keys';
import type { CompaniesRepo, CompanyDoc } from '../db/companies';
import { displayPrefix, hashApiKey, MAX_ACTIVE_KEYS } from '../domain/api-key';

export const DEMO_COMPANY_ID = 'cmp_demo';

/** A complete seller profile, so that a demo invoice passes every format's rules out of the box. */
const demoCompany: Omit<CompanyDoc, 'createdAt'> = {
  _id: DEMO_COMPANY_ID,
  name: 'Muster Software GmbH',
  legalName: 'Muster Software GmbH',
  address: { line1: 'Friedrichstraße 123', postalCode: '10117', city: 'Berlin', countryCode: 'DE' },
  vatId: 'DE123456789',
  taxNumber: '30/123/45678',
  registrationId: 'HRB 123456 B',
  registrationCourt: 'Amtsgericht Charlottenburg',
  iban: 'DE02120300000000202051',
  bic: 'BYLADEM1001',
  bankName: 'Deutsche Kreditbank Berlin',
  contactName: 'Erika Mustermann',
  email: 'billing@muster-software.example',
  phone: '+49 30 1234567',
  plan: 'pro',
  paymentTermDays: 14,
};

/** A company that has entered nothing but its name (BOOTSTRAP_COMPANY_NAME): every seller field is still missing. */
const blankCompany = (name: string): Omit<CompanyDoc, 'createdAt'> => ({
  _id: DEMO_COMPANY_ID,
  name,
  legalName: '',
  address: { line1: '', postalCode: '', city: '', countryCode: 'DE' },
  plan: 'pro',
  paymentTermDays: 14,
  bankAccounts: [],
  bankAccountsRev: 0,
});

/**
 * Ensures the bootstrap company (Pro plan; the demo seller profile, or only `blankName` with an empty profile)
 * and that `apiKey` is an active key of it. Idempotent: safe on every start. The company-created event goes
 * through the outbox in the same transaction, so quota-service learns the plan even if this process dies right after.
 */
export async function bootstrapDemoCompany(
  deps: { commit: Changes['commit']; companies: CompaniesRepo; apiKeys: ApiKeysRepo },
  apiKey: string,
  blankName?: string,
): Promise<{ companyId: string; createdCompany: boolean; createdKey: boolean }> {
  const company = blankName ? blankCompany(blankName) : demoCompany;
  return deps.commit(async (session, emit) => {
    let createdCompany = false;
    let createdKey = false;
    if (!(await deps.companies.byId(DEMO_COMPANY_ID, session))) {
      await deps.companies.insert({ ...company, createdAt: new Date() }, session);
      emit(eventMessage('company.created.v1', DEMO_COMPANY_ID, { name: company.name, plan: 'pro' }, `company-created-${DEMO_COMPANY_ID}`));
      createdCompany = true;
    }
    const hash = hashApiKey(apiKey);
    const key = await deps.apiKeys.byHash(hash, session);
    if (!key) {
      const used = new Set(await deps.apiKeys.usedSlots(DEMO_COMPANY_ID, session));
      const slot = Array.from({ length: MAX_ACTIVE_KEYS }, (_, i) => i).find((i) => !used.has(i));
      if (slot === undefined) throw new Error(`the demo company already has ${MAX_ACTIVE_KEYS} active API keys; revoke one or reuse a BOOTSTRAP_API_KEY`);
      await deps.apiKeys.insert({ companyId: DEMO_COMPANY_ID, name: 'bootstrap', role: 'owner', prefix: displayPrefix(apiKey), hash, createdAt: new Date(), slot }, session);
      createdKey = true;
    } else if (key.revokedAt || key.companyId !== DEMO_COMPANY_ID) {
      throw new Error('BOOTSTRAP_API_KEY belongs to a revoked key or another company; choose a new key');
    }
    return { companyId: DEMO_COMPANY_ID, createdCompany, createdKey };
  });
}
