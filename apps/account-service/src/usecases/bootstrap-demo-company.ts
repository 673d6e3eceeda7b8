import { asCompanyId, type CompanyId } from '@inv/contracts';
import { AppError } from '@inv/service-kit';
import type { CompanyDoc } from '../domain/company-doc';
import { createCompany, type CreateCompanyDeps } from './create-company';

export const DEMO_COMPANY_ID = 'cmp_demo';

/**
 * The demo profile's fields (document names): each stays marked (`demoFields`) until the company sets it; once it has
 * set legal name and address, PUT /company/ removes every value still marked (update-company-profile.ts).
 */
export const DEMO_FIELDS = [
  'legalName',
  'name',
  'address',
  'vatId',
  'taxNumber',
  'registrationId',
  'registrationCourt',
  'contactName',
  'email',
  'phone',
];

/**
 * A complete seller profile, so that a demo invoice passes every format's rules out of the box. Its values are marked
 * as demo values: the company's own data replaces them (its legal name and address all the rest, its first bank account
 * the demo one).
 */
const demoCompany = (): Omit<CompanyDoc, 'createdAt'> => ({
  _id: asCompanyId(DEMO_COMPANY_ID),
  name: 'Muster Software GmbH',
  legalName: 'Muster Software GmbH',
  address: { line1: 'Friedrichstraße 123', postalCode: '10117', city: 'Berlin', countryCode: 'DE' },
  vatId: 'DE123456789',
  taxNumber: '30/123/45678',
  registrationId: 'HRB 123456 B',
  registrationCourt: 'Amtsgericht Charlottenburg',
  contactName: 'Erika Mustermann',
  email: 'billing@muster-software.example',
  phone: '+49 30 1234567',
  demoFields: DEMO_FIELDS,
  bankAccounts: [
    {
      id: 1,
      iban: 'DE02120300000000202051',
      bic: 'BYLADEM1001',
      bankName: 'Deutsche Kreditbank Berlin',
      accountHolder: 'Muster Software GmbH',
      isDefault: true,
      demo: true,
      createdAt: new Date(),
    },
  ],
  bankAccountsRev: 0,
  plan: 'pro',
  paymentTermDays: 14,
});

/** A company that has entered nothing but its name (BOOTSTRAP_COMPANY_NAME): every seller field is still missing. */
const blankCompany = (name: string): Omit<CompanyDoc, 'createdAt'> => ({
  _id: asCompanyId(DEMO_COMPANY_ID),
  name,
  legalName: '',
  address: { line1: '', postalCode: '', city: '', countryCode: 'DE' },
  plan: 'pro',
  paymentTermDays: 14,
  bankAccounts: [],
  bankAccountsRev: 0,
});

/** The owner of the demo company (signs in to the web app after setting a password through an invitation link). */
export const DEMO_OWNER_EMAIL = 'owner@demo.example';

/**
 * Ensures the bootstrap company (Pro plan; the demo seller profile, or only `blankName` with an empty profile)
 * and that `apiKey` is an active key of it: the operator's create-company use case with a fixed id and key.
 * Idempotent: safe on every start.
 */
export async function bootstrapDemoCompany(
  deps: CreateCompanyDeps,
  apiKey: string,
  blankName?: string,
): Promise<{ companyId: CompanyId; createdCompany: boolean }> {
  const { _id, name, plan, ...profile } = blankName ? blankCompany(blankName) : demoCompany();
  void plan;
  try {
    const result = await createCompany(deps, { companyId: _id, name, ownerEmail: DEMO_OWNER_EMAIL, plan: 'pro', apiKey, profile });
    return { companyId: result.companyId, createdCompany: result.created };
  } catch (err) {
    if (err instanceof AppError) throw new Error(`BOOTSTRAP_API_KEY: ${err.message}`);
    throw err;
  }
}
