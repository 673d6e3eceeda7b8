import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { checkVatIdSyntax, type InvoiceSnapshot } from '@inv/contracts';
import { formatForApiInvoiceFormat, toEInvoiceXml, type EInvoice } from '@inv/einvoice';
import { startFinalizeJob } from './finalize-invoice';
import { billingSnapshot, COMPANY, fakeDeps, NOW, position, sellerProfile, storedDraft } from '../../testing/fake-deps';
import { presentValidation } from '../../http/presenters';
import { validateInvoice, type ValidationError } from './validate-invoice';

/**
 * GET /invoice/{id}/validate and POST /invoice/{id}/job agree (issue "the money contract", point 3): over a
 * table of company and customer variants, validate answers valid exactly when finalization accepts, an invalid
 * answer lists exactly the findings finalization's 422 lists, and every accepted invoice's e-invoice XML (written
 * by the writer document-service renders with, from the snapshot finalization froze) passes the official
 * validators in ../shared/conformance; where validate names an official rule (BR-…), the XML written anyway
 * fails the official validators with that rule.
 */
jest.setTimeout(240_000);

const VALIDATE = join(__dirname, '../../../../../../shared/conformance/validate');
const ISSUE_DATE = NOW.toISOString().slice(0, 10);

type Seller = typeof sellerProfile;
type Buyer = typeof billingSnapshot;

const company: Record<string, Seller> = {
  'VAT ID and bank account': sellerProfile,
  'tax number only': {
    ...sellerProfile,
    seller: {
      ...sellerProfile.seller!,
      vatId: undefined,
      taxNumber: '143/123/45678',
      electronicAddress: { scheme: 'EM', value: 'billing@seller.example' },
    },
  },
  'tax number and register entry': {
    ...sellerProfile,
    seller: {
      ...sellerProfile.seller!,
      vatId: undefined,
      taxNumber: '143/123/45678',
      registrationId: 'HRB 123456',
      registrationCourt: 'Amtsgericht Berlin-Charlottenburg',
      electronicAddress: { scheme: 'EM', value: 'billing@seller.example' },
    },
  },
  'Kleinunternehmer, tax number only': {
    ...sellerProfile,
    smallBusiness: true,
    seller: {
      ...sellerProfile.seller!,
      vatId: undefined,
      taxNumber: '143/123/45678',
      electronicAddress: { scheme: 'EM', value: 'billing@seller.example' },
    },
  },
  'Kleinunternehmer with register entry': {
    ...sellerProfile,
    smallBusiness: true,
    seller: {
      ...sellerProfile.seller!,
      vatId: undefined,
      taxNumber: '143/123/45678',
      registrationId: 'HRB 123456',
      electronicAddress: { scheme: 'EM', value: 'billing@seller.example' },
    },
  },
  'Kleinunternehmer with seller identifier (GLN)': {
    ...sellerProfile,
    smallBusiness: true,
    seller: {
      ...sellerProfile.seller!,
      vatId: undefined,
      taxNumber: '143/123/45678',
      identifier: { value: '4000001000005', scheme: '0088' },
      electronicAddress: { scheme: 'EM', value: 'billing@seller.example' },
    },
  },
  'Kleinunternehmer with seller identifier without scheme': {
    ...sellerProfile,
    smallBusiness: true,
    seller: {
      ...sellerProfile.seller!,
      vatId: undefined,
      taxNumber: '143/123/45678',
      identifier: { value: 'Lieferant 70815' },
      electronicAddress: { scheme: 'EM', value: 'billing@seller.example' },
    },
  },
  'Kleinunternehmer with VAT ID': { ...sellerProfile, smallBusiness: true },
  'no bank account': { ...sellerProfile, payment: undefined },
};

/** DE136695976 is a real-shaped German VAT ID; DE136695970 fails its check digits (what customer-service stores as invalid). */
const CHECKSUM_FAILS = 'DE136695970';
const withVatId = (vatId: string | undefined, vatStatus: Buyer['vatStatus']): Buyer => ({
  ...billingSnapshot,
  buyer: { ...billingSnapshot.buyer!, vatId, electronicAddress: { scheme: 'EM', value: 'ap@buyer.example' } },
  vatStatus,
});
const customer: Record<string, Buyer> = {
  'VAT ID confirmed': withVatId('DE136695976', 'valid'),
  'no VAT ID': withVatId(undefined, 'not_checked'),
  'VAT ID fails its checksum': withVatId(CHECKSUM_FAILS, 'invalid'),
  'VAT ID unconfirmed (VIES unavailable)': withVatId('DE136695976', 'unavailable'),
};

type Format = 'ZUGFERD' | 'XRECHNUNG';
interface Case {
  company: keyof typeof company;
  customer: keyof typeof customer;
  format: Format;
  /** The findings validate reports and finalization refuses with, as "rule field". */
  expected: string[];
}

const BR_CO_26 = 'BR-CO-26 company.vat_id';
const VAT = 'VAT_OVERRIDE_REQUIRED customer.vat_id';
const cases: Case[] = [
  ...(['ZUGFERD', 'XRECHNUNG'] as const).flatMap((format): Case[] => [
    { company: 'VAT ID and bank account', customer: 'VAT ID confirmed', format, expected: [] },
    { company: 'VAT ID and bank account', customer: 'no VAT ID', format, expected: [] },
    { company: 'tax number only', customer: 'VAT ID confirmed', format, expected: [BR_CO_26] },
    { company: 'tax number and register entry', customer: 'VAT ID confirmed', format, expected: [] },
    { company: 'Kleinunternehmer, tax number only', customer: 'no VAT ID', format, expected: [BR_CO_26] },
    { company: 'Kleinunternehmer, tax number only', customer: 'VAT ID fails its checksum', format, expected: [BR_CO_26, VAT] },
    { company: 'Kleinunternehmer with register entry', customer: 'no VAT ID', format, expected: [] },
    { company: 'Kleinunternehmer with seller identifier (GLN)', customer: 'no VAT ID', format, expected: [] },
    { company: 'Kleinunternehmer with seller identifier without scheme', customer: 'VAT ID confirmed', format, expected: [] },
    { company: 'Kleinunternehmer with VAT ID', customer: 'VAT ID confirmed', format, expected: [] },
    { company: 'VAT ID and bank account', customer: 'VAT ID fails its checksum', format, expected: [VAT] },
    { company: 'VAT ID and bank account', customer: 'VAT ID unconfirmed (VIES unavailable)', format, expected: [VAT] },
  ]),
  {
    company: 'no bank account',
    customer: 'VAT ID confirmed',
    format: 'ZUGFERD',
    expected: ['BANK_ACCOUNT_REQUIRED company.bank_accounts'],
  },
  {
    company: 'no bank account',
    customer: 'VAT ID fails its checksum',
    format: 'ZUGFERD',
    expected: ['BANK_ACCOUNT_REQUIRED company.bank_accounts', VAT],
  },
  // XRechnung needs payment instructions (BR-DE-01): the company field to fill is named, once
  {
    company: 'no bank account',
    customer: 'VAT ID confirmed',
    format: 'XRECHNUNG',
    expected: ['BANK_ACCOUNT_REQUIRED company.bank_accounts'],
  },
];

const name = (c: Case) => `${c.format}: ${c.company} / ${c.customer}`;
const finding = (e: ValidationError) => ({ field: e.field, rule: e.rule, message: e.message });

interface Outcome {
  validation: ReturnType<typeof presentValidation>;
  /** finalize without vat_override_confirmed */
  refusal?: { code: string; errors: (ValidationError & { path: string })[]; extra: Record<string, unknown> };
  /** finalize with vat_override_confirmed, when only the VAT ID stood in the way */
  refusalWithOverride?: unknown;
  accepted: boolean;
  /** file of the XML finalization's snapshot gives (accepted), or validate's snapshot (refused) */
  xml: string;
}

describe('validate and finalize agree', () => {
  const dir = mkdtempSync(join(tmpdir(), 'validate-finalize-'));
  const outcomes = new Map<string, Outcome>();
  const verdicts = new Map<string, { pass: boolean; rules: string[] }>();

  beforeAll(async () => {
    for (const [i, c] of cases.entries()) {
      const f = fakeDeps({
        'account.seller-profile.v1': () => company[c.company]!,
        'customer.billing-snapshot.v1': () => customer[c.customer]!,
      });
      const id = i + 1;
      storedDraft(f, id, {
        format: c.format,
        buyerReference: c.format === 'XRECHNUNG' ? '04011000-12345-34' : undefined,
        positions: [position(10), position(11, { taxRate: '0.07', taxTreatmentId: 'reduced', unitCode: 'C62', quantity: '3' })],
      });
      const inv = (await f.deps.invoices.get(COMPANY, id))!;
      const result = await validateInvoice(f.deps, inv, ISSUE_DATE);
      const validation = presentValidation(result);
      const err = await startFinalizeJob(f.deps, COMPANY, id, false).then(
        () => undefined,
        (e: unknown) => e as { options: { code: string; errors: (ValidationError & { path: string })[]; extra: Record<string, unknown> } },
      );
      let refusalWithOverride: unknown;
      let accepted = err === undefined;
      if (err && validation.vat_override_required) {
        refusalWithOverride = await startFinalizeJob(f.deps, COMPANY, id, true).then(
          () => undefined,
          (e: unknown) => e,
        );
        accepted = refusalWithOverride === undefined;
      }
      const render = f.messages.find((m) => m.type === 'document.render-invoice.v1')?.data as { snapshot: InvoiceSnapshot } | undefined;
      const snapshot = accepted ? render!.snapshot : result.snapshot;
      const xml = join(dir, `${String(id).padStart(2, '0')}.xml`);
      writeFileSync(xml, toEInvoiceXml(formatForApiInvoiceFormat(c.format)!, snapshot as unknown as EInvoice));
      outcomes.set(name(c), {
        validation,
        refusal: err && { code: err.options.code, errors: err.options.errors, extra: err.options.extra },
        refusalWithOverride,
        accepted,
        xml,
      });
    }
    // the official validators, once per format on all its files
    for (const format of ['ZUGFERD', 'XRECHNUNG'] as const) {
      const files = cases.filter((c) => c.format === format).map((c) => outcomes.get(name(c))!.xml);
      const kit = formatForApiInvoiceFormat(format)!;
      const { stdout } = await promisify(execFile)(VALIDATE, ['-n', '0', kit, ...files], { timeout: 200_000 }).catch(
        (e: { stdout?: string; code?: number }) => {
          if (e.code !== 1) throw e; // 2: usage or setup error
          return { stdout: e.stdout ?? '' };
        },
      );
      let current: { pass: boolean; rules: string[] } | undefined;
      for (const line of stdout.split('\n')) {
        const head = /^(PASS|FAIL) (\S+?)(:|$)/.exec(line);
        if (head) verdicts.set(head[2]!, (current = { pass: head[1] === 'PASS', rules: [] }));
        else if (current && /^\s+\[([^\]]+)\]/.test(line)) current.rules.push(/^\s+\[([^\]]+)\]/.exec(line)![1]!);
      }
    }
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs against the official validators', () => {
    expect(existsSync(VALIDATE)).toBe(true);
    expect(checkVatIdSyntax(CHECKSUM_FAILS)).toMatchObject({ ok: false, checkDigitFailed: true });
    expect(checkVatIdSyntax('DE136695976')).toMatchObject({ ok: true });
  });

  it.each(cases.map((c) => [name(c), c] as const))('%s', (_name, c) => {
    const o = outcomes.get(name(c))!;
    const v = o.validation;
    expect(v.errors.map((e) => `${e.rule} ${e.field}`).sort()).toEqual([...c.expected].sort());
    const vatOnly = c.expected.length > 0 && c.expected.every((e) => e === VAT);
    expect(v).toMatchObject({
      valid: c.expected.length === 0,
      vat_check: { status: customer[c.customer]!.vatStatus },
      vat_override_required: c.expected.includes(VAT),
    });
    if (v.valid) {
      // valid => finalization accepts it, and its XML passes the official rules
      expect(o.refusal).toBeUndefined();
      expect(o.accepted).toBe(true);
      expect(verdicts.get(o.xml)).toEqual({ pass: true, rules: [] });
      return;
    }
    // invalid => finalization refuses with the same findings (the problem's entries also carry `path`)
    expect(o.refusal).toBeDefined();
    expect(o.refusal!.code).toBe(vatOnly ? 'VAT_OVERRIDE_REQUIRED' : 'INVOICE_NOT_VALID');
    expect(o.refusal!.errors.map(finding)).toEqual(v.errors.map(finding));
    for (const e of o.refusal!.errors) expect(e.path).toBe(e.field);
    expect(o.refusal!.extra).toEqual({ vat_check: v.vat_check, vat_override_required: v.vat_override_required });
    if (vatOnly) {
      // only a confirmation stood in the way: with it, finalization accepts, and the XML passes the official rules
      expect(o.refusalWithOverride).toBeUndefined();
      expect(o.accepted).toBe(true);
      expect(verdicts.get(o.xml)).toEqual({ pass: true, rules: [] });
    } else if (v.vat_override_required) {
      // the confirmation clears only the VAT finding: the rest is still refused, with the same findings
      expect(o.refusalWithOverride).toMatchObject({ options: { code: 'INVOICE_NOT_VALID' } });
      const rest = (o.refusalWithOverride as { options: { errors: ValidationError[] } }).options.errors.map(finding);
      expect(rest).toEqual(v.errors.filter((e) => e.rule !== 'VAT_OVERRIDE_REQUIRED').map(finding));
    }
    // an official rule validate names is what the official validators find in the XML written anyway
    const official = v.errors.map((e) => e.rule).filter((r) => r.startsWith('BR-'));
    if (official.length) {
      expect(verdicts.get(o.xml)?.pass).toBe(false);
      expect(verdicts.get(o.xml)?.rules).toEqual(expect.arrayContaining(official));
    }
  });

  it('names the company fields that satisfy BR-CO-26', () => {
    const o = outcomes.get('ZUGFERD: Kleinunternehmer, tax number only / no VAT ID')!;
    expect(o.validation.errors).toEqual([
      {
        field: 'company.vat_id',
        rule: 'BR-CO-26',
        message: expect.stringMatching(
          /a tax number \(BT-32\) is not enough.*Set company vat_id, seller_identifier or registration_id with PUT \/company\//,
        ),
      },
    ]);
    // the Kleinunternehmer's positions entered with VAT are still only a warning
    expect(o.validation.warnings).toEqual([expect.objectContaining({ rule: 'SMALL_BUSINESS_NO_VAT' })]);
  });
});
