import { asCompanyId, messages } from '@inv/contracts';
import type { RpcRequestOf } from '@inv/runtime';
import type { CompaniesRepo } from '../db/companies';
import type { CompanyDoc } from '../domain/company-doc';
import { onSellerProfile } from './account.seller-profile';

const envelope = (companyId: string): RpcRequestOf<'account.seller-profile.v1'> => ({
  id: 'msg-1',
  type: 'account.seller-profile.v1',
  occurredAt: new Date(0).toISOString(),
  companyId: asCompanyId(companyId),
  data: {},
});

/** A repository fake that knows one company. */
function companies(known: CompanyDoc): CompaniesRepo {
  return { byId: async (id: string) => (id === known._id ? known : null) } as unknown as CompaniesRepo;
}

const company: CompanyDoc = {
  _id: asCompanyId('cmp_1'),
  name: 'Seller',
  legalName: 'Seller GmbH',
  address: { line1: 'Hauptstr. 1', postalCode: '10115', city: 'Berlin', countryCode: 'DE' },
  vatId: 'DE123456789',
  plan: 'pro',
  paymentTermDays: 14,
  createdAt: new Date(0),
};

describe('account.seller-profile.v1', () => {
  const response = messages.rpc['account.seller-profile.v1'].response;

  it('answers found: false for a company without a profile (an answer, not an error)', async () => {
    const answer = await onSellerProfile({ companies: companies(company) }, envelope('cmp_unknown'));
    expect(response.parse(answer)).toEqual({ found: false });
  });

  it('answers the seller of a known company', async () => {
    const answer = response.parse(await onSellerProfile({ companies: companies(company) }, envelope('cmp_1')));
    expect(answer.found).toBe(true);
    expect(answer.seller).toMatchObject({ name: 'Seller GmbH', vatId: 'DE123456789', address: { city: 'Berlin', countryCode: 'DE' } });
  });
});
