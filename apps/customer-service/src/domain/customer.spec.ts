import { asCompanyId, CustomerCreate, customerNameIssues, isIsoCountryCode } from '@inv/contracts';
import type { AddressDoc, CustomerDoc } from './customer-doc';
import { billingAddressOf, billingSnapshotOf, displayName, failsCheckDigits, needsVatCheck, vatStatusOf, withDefault } from './customer';

const address = (over: Partial<AddressDoc>): AddressDoc => ({
  id: 1,
  type: 'billing',
  isDefault: false,
  addressLine1: 'Hauptstr. 1',
  city: 'Berlin',
  postalCode: '10115',
  countryCode: 'DE',
  createdAt: new Date(0),
  ...over,
});
const customer = (over: Partial<CustomerDoc>): CustomerDoc => ({
  _id: 'c1:7',
  id: 7,
  companyId: asCompanyId('c1'),
  customerNumber: 10000,
  contactType: 'B2B',
  organizationName: 'Acme GmbH',
  isActive: true,
  addresses: [],
  vat: { status: 'not_checked' },
  rev: 0,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  ...over,
});

describe('customer name rules', () => {
  it('B2B (the default) needs organization_name', () => {
    expect(customerNameIssues({})).toEqual([{ path: 'organization_name', message: 'required for B2B customers' }]);
    expect(customerNameIssues({ contact_type: 'B2B', organization_name: 'Acme' })).toEqual([]);
  });
  it('B2C needs first_name and last_name, not organization_name', () => {
    expect(customerNameIssues({ contact_type: 'B2C', first_name: 'Erika' }).map((i) => i.path)).toEqual(['last_name']);
    expect(customerNameIssues({ contact_type: 'B2C' }).map((i) => i.path)).toEqual(['first_name', 'last_name']);
    expect(customerNameIssues({ contact_type: 'B2C', first_name: 'Erika', last_name: 'Mustermann' })).toEqual([]);
  });
  it('the create schema applies them, and rejects a lowercase salutation naming the field', () => {
    expect(CustomerCreate.safeParse({ organization_name: 'Acme', salutation: 'MR' }).success).toBe(true);
    const lower = CustomerCreate.safeParse({ organization_name: 'Acme', salutation: 'mr' });
    expect(lower.success).toBe(false);
    expect(lower.error?.issues[0]?.path).toEqual(['salutation']);
    const b2c = CustomerCreate.safeParse({ contact_type: 'B2C', organization_name: 'x' });
    expect(b2c.error?.issues.map((i) => i.path.join('.'))).toEqual(['first_name', 'last_name']);
  });
  it('normalises a VAT ID, accepts one whose check digits fail (it becomes invalid) and rejects one of the wrong shape', () => {
    expect(CustomerCreate.parse({ organization_name: 'Acme', vat_id: 'de 143.454.214' }).vat_id).toBe('DE143454214');
    expect(CustomerCreate.parse({ organization_name: 'Acme', vat_id: 'DE143454215' }).vat_id).toBe('DE143454215');
    expect(failsCheckDigits('DE143454215')).toBe(true);
    expect(failsCheckDigits('DE143454214')).toBe(false);
    const bad = CustomerCreate.safeParse({ organization_name: 'Acme', vat_id: 'DE14345421' });
    expect(bad.error?.issues[0]).toMatchObject({ path: ['vat_id'], message: expect.stringMatching(/format/) });
  });
});

describe('isIsoCountryCode', () => {
  it('knows assigned codes and rejects reserved, user-assigned and withdrawn ones', () => {
    for (const c of ['DE', 'AT', 'FR', 'GB', 'US', 'AX', 'BQ', 'SS']) expect(isIsoCountryCode(c)).toBe(true);
    for (const c of ['XX', 'EU', 'UK', 'ZZ', 'XK', 'QO', 'YU', 'DD', 'de', 'D', 'DEU']) expect(isIsoCountryCode(c)).toBe(false);
  });
});

describe('billing address and snapshot', () => {
  it('uses the default billing address, else the first billing one, never a shipping address', () => {
    const a = address({ id: 1 });
    const b = address({ id: 2, isDefault: true });
    const s = address({ id: 3, type: 'shipping', isDefault: true });
    expect(billingAddressOf([a, b, s])?.id).toBe(2);
    expect(billingAddressOf([s, a])?.id).toBe(1);
    expect(billingAddressOf([s])).toBeUndefined();
  });

  it('withDefault keeps at most one default per type', () => {
    const list = withDefault(
      [address({ id: 1, isDefault: true }), address({ id: 2 }), address({ id: 3, type: 'shipping', isDefault: true })],
      2,
      'billing',
    );
    expect(list.map((a) => [a.id, a.isDefault])).toEqual([
      [1, false],
      [2, true],
      [3, true],
    ]);
  });

  it('builds the EN 16931 buyer of a B2B customer', () => {
    const c = customer({
      email: 'ap@acme.example',
      vatId: 'DE143454214',
      language: 'English',
      firstName: 'Max',
      lastName: 'Muster',
      defaultTemplateId: 2,
      paymentTermId: 1,
      buyerReference: '04011000-12345-34',
      addresses: [address({ id: 9, isDefault: true, stateProvince: 'BE' })],
      vat: { status: 'valid', vatId: 'DE143454214' },
    });
    expect(billingSnapshotOf(c)).toEqual({
      found: true,
      buyer: {
        name: 'Acme GmbH',
        firstName: undefined,
        lastName: undefined,
        vatId: 'DE143454214',
        electronicAddress: { scheme: '9930', value: 'DE143454214' }, // VAT ID as PEPPOL endpoint
        address: { line1: 'Hauptstr. 1', line2: undefined, city: 'Berlin', postalCode: '10115', subdivision: 'BE', countryCode: 'DE' },
        contact: { name: 'Max Muster', phone: undefined, email: 'ap@acme.example' },
      },
      hasBillingAddress: true,
      contactType: 'B2B',
      customerNumber: 10000,
      language: 'en',
      defaultTemplateId: 2,
      paymentTermId: 1,
      buyerReference: '04011000-12345-34',
      vatStatus: 'valid',
    });
  });

  it('names a B2C customer "first last", defaults the language to de and reports a missing billing address', () => {
    const snap = billingSnapshotOf(
      customer({ contactType: 'B2C', organizationName: undefined, firstName: 'Erika', lastName: 'Mustermann', language: 'German' }),
    );
    expect(snap.buyer).toMatchObject({ name: 'Erika Mustermann', firstName: 'Erika', lastName: 'Mustermann' });
    expect(snap.buyer?.electronicAddress).toBeUndefined();
    expect(snap.hasBillingAddress).toBe(false);
    expect(snap.language).toBe('de');
    expect(billingSnapshotOf(customer({})).language).toBe('de');
    expect(displayName(customer({ contactType: 'B2C', organizationName: undefined, firstName: 'A', lastName: 'B' }))).toBe('A B');
  });
});

describe('VAT status', () => {
  it('not_checked without a VAT ID or for B2C; pending until the answer for the current VAT ID arrives', () => {
    expect(vatStatusOf(customer({}))).toBe('not_checked');
    expect(vatStatusOf(customer({ contactType: 'B2C', vatId: 'DE143454214' }))).toBe('not_checked');
    expect(vatStatusOf(customer({ vatId: 'DE143454214', vat: { status: 'pending', vatId: 'DE143454214' } }))).toBe('pending');
    expect(vatStatusOf(customer({ vatId: 'DE143454214', vat: { status: 'valid', vatId: 'ATU13585627' } }))).toBe('pending');
    expect(vatStatusOf(customer({ vatId: 'DE143454214', vat: { status: 'invalid', vatId: 'DE143454214' } }))).toBe('invalid');
  });
  it('a check is due when a B2B customer gets or changes a VAT ID, or becomes B2B with one', () => {
    expect(needsVatCheck(undefined, { contactType: 'B2B', vatId: 'DE1' })).toBe(true);
    expect(needsVatCheck(undefined, { contactType: 'B2B' })).toBe(false);
    expect(needsVatCheck(undefined, { contactType: 'B2C', vatId: 'DE1' })).toBe(false);
    expect(needsVatCheck({ contactType: 'B2B', vatId: 'DE1' }, { contactType: 'B2B', vatId: 'DE1' })).toBe(false);
    expect(needsVatCheck({ contactType: 'B2B', vatId: 'DE1' }, { contactType: 'B2B', vatId: 'DE2' })).toBe(true);
    expect(needsVatCheck({ contactType: 'B2C', vatId: 'DE1' }, { contactType: 'B2B', vatId: 'DE1' })).toBe(true);
  });
});

describe('tax numbers of buyers outside the EU', () => {
  it('are never checked at VIES: status not_checked, no check due, written into the billing snapshot as BT-48', () => {
    for (const vatId of ['NO987654325MVA', 'CHE123456788MWST', 'GB980780684']) {
      const c = customer({ vatId, vat: { status: 'pending', vatId } });
      expect(vatStatusOf(c)).toBe('not_checked');
      expect(needsVatCheck(undefined, c)).toBe(false);
      expect(needsVatCheck(customer({ vatId: 'DE143454214' }), c)).toBe(false);
      expect(billingSnapshotOf(c).buyer?.vatId).toBe(vatId);
    }
    // an EU VAT ID still is
    expect(needsVatCheck(undefined, customer({ vatId: 'DE143454214' }))).toBe(true);
    expect(vatStatusOf(customer({ vatId: 'XI980780684', vat: { status: 'pending', vatId: 'XI980780684' } }))).toBe('pending');
  });
});
