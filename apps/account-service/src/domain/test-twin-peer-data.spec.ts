import { peerDataKeys } from '@inv/service-kit';
import { testTwinSellerProfileTokens } from './peer-data-changes';

describe("the test twin's seller profile tokens", () => {
  it("go stale with the live company's profile changes, and only with them", () => {
    expect(
      testTwinSellerProfileTokens([
        { type: 'company.profile-changed.v1', companyId: 'cmp_a' },
        { type: 'api-key.created.v1', companyId: 'cmp_b' },
      ]),
    ).toEqual([peerDataKeys.seller('test~cmp_a')]);
  });
});
