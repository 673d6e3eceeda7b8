import { peerDataKeys } from '@inv/service-kit';
import { billingDataTokens } from './peer-data-changes';

describe('billing data tokens to delete after a commit', () => {
  it("names each changed customer once, from the events every change of a customer's billing data is written with", () => {
    expect(
      billingDataTokens([
        { type: 'customer.changed.v1', companyId: 'c1', data: { customerId: 7, action: 'address_updated', fields: [] } },
        { type: 'customer.vat-id-changed.v1', companyId: 'c1', data: { customerId: 7, vatId: 'DE143454214' } },
        { type: 'customer.changed.v1', companyId: 'c2', data: { customerId: 7, action: 'updated', fields: ['name'] } },
      ]),
    ).toEqual([peerDataKeys.buyer('c1', 7), peerDataKeys.buyer('c2', 7)]);
  });
  it('names none for other messages (the ledger, payment terms)', () => {
    expect(billingDataTokens([{ type: 'customer.ledger-booked.v1', companyId: 'c1', data: { customerId: 7 } }])).toEqual([]);
    expect(billingDataTokens([{ type: 'customer.changed.v1', companyId: 'c1', data: null }])).toEqual([]);
  });
});
