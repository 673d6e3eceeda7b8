import { asCompanyId } from './company-id';
import { companyOfMode, isTestCompany, liveCompanyOf, modeOfCompany, testTwinOf } from './test-mode';

describe('test twin', () => {
  const live = asCompanyId('cmp_0123456789abcdef01234567');

  it('is the live id behind test~, and back', () => {
    const twin = testTwinOf(live);
    expect(twin).toBe('test~cmp_0123456789abcdef01234567');
    expect(isTestCompany(twin)).toBe(true);
    expect(isTestCompany(live)).toBe(false);
    expect(liveCompanyOf(twin)).toBe(live);
    expect(liveCompanyOf(live)).toBe(live);
    expect(testTwinOf(twin)).toBe(twin);
    expect(modeOfCompany(twin)).toBe('test');
    expect(modeOfCompany(live)).toBe('live');
  });

  it('cannot be a company id the operator creates', () => {
    expect(/^cmp_[a-z0-9_]{3,60}$/.test(testTwinOf(live))).toBe(false);
  });

  it('follows the key mode', () => {
    expect(companyOfMode(live, 'test')).toBe(testTwinOf(live));
    expect(companyOfMode(live, 'live')).toBe(live);
  });
});
