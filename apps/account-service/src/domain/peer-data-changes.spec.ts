import { peerDataKeys } from '@inv/service-kit';
import { sellerProfileTokens } from './peer-data-changes';

describe('seller profile tokens to delete after a commit', () => {
  it('names each company whose profile, bank accounts, logo or payment terms a commit changed, once', () => {
    expect(
      sellerProfileTokens([
        { type: 'company.profile-changed.v1', companyId: 'c1' },
        { type: 'company.vat-id-changed.v1', companyId: 'c1' },
        { type: 'company.payment-terms-changed.v1', companyId: 'c2' },
        { type: 'company.payment-terms-changed.v1', companyId: 'c2' },
      ]),
    ).toEqual([peerDataKeys.seller('c1'), peerDataKeys.seller('c2')]);
  });
  it('names none for changes outside the seller profile (API keys, plans, members)', () => {
    expect(
      sellerProfileTokens([
        { type: 'api-key.revoked.v1', companyId: 'c1' },
        { type: 'company.plan-changed.v1', companyId: 'c1' },
      ]),
    ).toEqual([]);
  });
});
