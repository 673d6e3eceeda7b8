import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { electronicAddressOf, peppolEndpoint, type InvoiceSnapshot } from '@inv/contracts';
import { toEInvoiceXml, type EInvoice, type EInvoiceFormat } from '@inv/einvoice';
import type { InvoiceTotals } from '@inv/money';
import type { InvoiceDoc, PositionDoc } from '../db/invoices';
import { creditLines } from '../domain/credit-note';
import { totalsOf } from '../domain/totals';
import { startFinalizeJob } from './finalize-invoice';
import { billingSnapshot, COMPANY, fakeDeps, NOW, sellerProfile } from '../../testing/fake-deps';
import { assertFinalizable, validateInvoice, type ValidationError } from './validate-invoice';

/**
 * Generative conformance (issue "the money contract", point 4). fast-check generates companies, customers and
 * invoices or credit notes of 1-60 positions for every e-invoice format; for each case EITHER validate (the rule
 * set finalization refuses by, validateInvoice + assertFinalizable) names what is missing, OR finalization accepts,
 * the XML written from the snapshot it froze (toEInvoiceXml, as document-service renders) passes the official
 * validators in ../shared/conformance, and the totals read back from the XML equal the totals the API computes.
 *
 * The official validator costs ~1-2 s per call, so the cases fast-check will generate are first sampled with the
 * same seed, written and validated in batches per format; the property then looks its verdict up (a case not
 * among them, while shrinking or replaying a `path`, is validated on its own).
 *
 *   NUM_RUNS=2000 npx jest --config apps/invoice-service/jest.config.cjs generative-conformance
 *   FC_SEED=<seed> [FC_PATH=<path>] [FC_SHRINK=1] npx jest ... generative-conformance     (reproduce a failure)
 *   FC_SEED=random npx jest ... generative-conformance                                  (new cases; the default seed is fixed)
 */
const VALIDATE = process.env.EINVOICE_VALIDATE ?? join(__dirname, '../../../../../../shared/conformance/validate');
const NUM_RUNS = Number(process.env.NUM_RUNS ?? 400);
// a fixed seed by default, so that CI judges the same 400 cases every run; FC_SEED=random explores new ones
const SEED =
  process.env.FC_SEED === 'random'
    ? Date.now() ^ (Math.random() * 0x100000000)
    : process.env.FC_SEED !== undefined
      ? Number(process.env.FC_SEED)
      : 20261127;
const PATH = process.env.FC_PATH;
const SHRINK = process.env.FC_SHRINK === '1';
const ISSUE_DATE = NOW.toISOString().slice(0, 10);
const run = promisify(execFile);

jest.setTimeout(Number(process.env.GEN_TIMEOUT_MS ?? 900_000));

// ---------------------------------------------------------------------------------------------- generators

type Seller = typeof sellerProfile;
type Buyer = typeof billingSnapshot;
type ApiFormat = 'ZUGFERD' | 'XRECHNUNG' | 'PEPPOL' | 'FACTURAPA' | 'FACTURAE';

/** What the case renders: the API format validate checks by, and the kit format of the XML written. */
const FORMATS: readonly { api: ApiFormat; kit: EInvoiceFormat }[] = [
  { api: 'ZUGFERD', kit: 'cii-en16931' },
  { api: 'XRECHNUNG', kit: 'xrechnung-ubl' },
  // the API renders XRechnung as UBL; the CII syntax has the same requirements (requirementsFor: isXRechnung)
  { api: 'XRECHNUNG', kit: 'xrechnung-cii' },
  { api: 'PEPPOL', kit: 'peppol-ubl' },
  { api: 'FACTURAPA', kit: 'fatturapa' },
  { api: 'FACTURAE', kit: 'facturae' },
];

const companyArb = fc
  .record({
    vatId: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    taxNumber: fc.boolean(),
    register: fc.boolean(),
    court: fc.boolean(),
    smallBusiness: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    bank: fc.oneof({ weight: 6, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    bic: fc.boolean(),
    phone: fc.oneof({ weight: 6, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    peppolId: fc.option(fc.constant('0088:4035811991021'), { freq: 3 }),
    term: fc.option(
      fc.record({
        days: fc.integer({ min: 0, max: 60 }),
        discount: fc.option(fc.record({ percent: fc.constantFrom(1, 2, 2.5, 3), days: fc.constantFrom(7, 10, 14) }), {
          nil: undefined,
          freq: 2,
        }),
      }),
      { nil: undefined, freq: 2 },
    ),
  })
  .map((c): Seller => {
    const vatId = c.vatId ? 'DE123456789' : undefined;
    const email = 'billing@seller.example';
    return {
      found: true,
      seller: {
        name: 'Seller GmbH',
        vatId,
        // a company without VAT ID always has its tax number (account-service requires one of them)
        taxNumber: c.taxNumber || !vatId ? '143/123/45678' : undefined,
        registrationId: c.register ? 'HRB 123456' : undefined,
        registrationCourt: c.register && c.court ? 'Amtsgericht Berlin-Charlottenburg' : undefined,
        address: { line1: 'Hauptstr. 1', city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
        contact: { name: 'Erika Muster', phone: c.phone ? '+49 30 123456' : undefined, email },
        electronicAddress: c.peppolId ? peppolEndpoint(c.peppolId) : electronicAddressOf({ vatId, email }),
      },
      payment: c.bank ? { meansCode: '58', iban: 'DE02120300000000202051', bic: c.bic ? 'BYLADEM1001' : undefined } : undefined,
      paymentTermDays: 14,
      ...(c.term ? { paymentTerms: [{ id: 1, days: c.term.days, discount: c.term.discount }], defaultPaymentTermId: 1 } : {}),
      smallBusiness: c.smallBusiness,
    };
  });

interface CustomerKind {
  kind: string;
  buyer: NonNullable<Buyer['buyer']>;
  contactType: 'B2B' | 'B2C';
  language: 'de' | 'en';
}
const CUSTOMERS: CustomerKind[] = [
  {
    kind: 'DE B2B',
    contactType: 'B2B',
    language: 'de',
    buyer: {
      name: 'Buyer AG',
      vatId: 'DE136695976',
      address: { line1: 'Marktplatz 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' },
      contact: { email: 'ap@buyer.example' },
    },
  },
  {
    kind: 'DE B2C',
    contactType: 'B2C',
    language: 'de',
    buyer: {
      name: 'Zoë Weiß-Öztürk',
      firstName: 'Zoë',
      lastName: 'Weiß-Öztürk',
      address: { line1: 'Lindenstraße 7', city: 'Köln', postalCode: '50667', countryCode: 'DE' },
      contact: { email: 'zoe@example.org' },
    },
  },
  {
    kind: 'FR B2B',
    contactType: 'B2B',
    language: 'en',
    buyer: {
      name: 'Société Générale d’Études SARL',
      vatId: 'FR40303265045',
      address: { line1: '12 rue de l’Église', city: 'Paris', postalCode: '75001', countryCode: 'FR' },
    },
  },
  {
    kind: 'AT B2B',
    contactType: 'B2B',
    language: 'de',
    buyer: {
      name: 'Alpen Handel GmbH',
      vatId: 'ATU13585627',
      address: { line1: 'Ringstraße 1', city: 'Wien', postalCode: '1010', countryCode: 'AT' },
    },
  },
  {
    kind: 'IT B2B (Partita IVA, PEC)',
    contactType: 'B2B',
    language: 'en',
    buyer: {
      name: 'Delta Servizi S.r.l.',
      partitaIva: '00743110157',
      fiscalCode: '00743110157',
      pec: 'fatture@pec.deltaservizi.it',
      address: { line1: 'Corso Buenos Aires 7', city: 'Milano', postalCode: '20124', subdivision: 'MI', countryCode: 'IT' },
    },
  },
  {
    kind: 'IT B2B (VAT ID, SdI code)',
    contactType: 'B2B',
    language: 'en',
    buyer: {
      name: 'Beta Gamma S.p.A.',
      vatId: 'IT09876543217',
      sdiCode: 'ABC1234',
      address: { line1: 'Via Torino 38-B', city: 'Roma', postalCode: '00145', subdivision: 'RM', countryCode: 'IT' },
    },
  },
  {
    kind: 'NO B2B (Peppol 0192)',
    contactType: 'B2B',
    language: 'en',
    buyer: {
      name: 'Fjordkraft Nordic AS',
      address: { line1: 'Karl Johans gate 22', city: 'Oslo', postalCode: '0159', countryCode: 'NO' },
      contact: { email: 'invoice@fjordkraft.example' },
    },
  },
  {
    kind: 'CH B2B',
    contactType: 'B2B',
    language: 'de',
    buyer: {
      name: 'Zürcher Präzisionstechnik AG',
      address: { line1: 'Bahnhofstrasse 10', city: 'Zürich', postalCode: '8001', countryCode: 'CH' },
      contact: { email: 'kreditoren@zpt.example' },
    },
  },
  {
    kind: 'US B2B',
    contactType: 'B2B',
    language: 'en',
    buyer: {
      name: 'Acme Widgets Inc.',
      address: { line1: '350 Fifth Avenue', city: 'New York', postalCode: '10118', subdivision: 'NY', countryCode: 'US' },
      contact: { email: 'ap@acme.example' },
    },
  },
];

const customerArb = fc
  .record({
    kind: fc.integer({ min: 0, max: CUSTOMERS.length - 1 }),
    // the VAT check of a customer with VAT ID: mostly confirmed; otherwise only vat_override_confirmed finalizes
    vatStatus: fc.oneof(
      { weight: 5, arbitrary: fc.constant('valid' as const) },
      { weight: 1, arbitrary: fc.constantFrom('invalid' as const, 'unavailable' as const) },
    ),
    peppolId: fc.option(fc.constantFrom('0088:4035811991021', '0192:987654325'), { freq: 3 }),
    term: fc.boolean(),
  })
  .map(({ kind, vatStatus, peppolId, term }): Buyer & { kind: string } => {
    const c = CUSTOMERS[kind]!;
    // the Norwegian buyer is reachable only by its Peppol id
    const id = c.kind.startsWith('NO') ? '0192:987654325' : (peppolId ?? undefined);
    const buyer = {
      ...c.buyer,
      electronicAddress: id ? peppolEndpoint(id) : electronicAddressOf({ vatId: c.buyer.vatId, email: c.buyer.contact?.email }),
    };
    return {
      kind: c.kind,
      found: true,
      buyer,
      hasBillingAddress: true,
      contactType: c.contactType,
      language: c.language,
      vatStatus: c.buyer.vatId ? vatStatus : 'not_checked',
      ...(term ? { paymentTermId: 1 } : {}),
    };
  });

/** Treatments as the API takes them (rate as a decimal fraction); `standard` at 0 % is zero-rated (Z). */
const TREATMENTS = [
  { taxTreatmentId: 'standard', taxRate: '0.19' },
  { taxTreatmentId: 'reduced', taxRate: '0.07' },
  { taxTreatmentId: 'standard', taxRate: '0' },
  { taxTreatmentId: 'reverse_charge', taxRate: '0' },
  { taxTreatmentId: 'intra_community', taxRate: '0' },
  { taxTreatmentId: 'export_outside_eu', taxRate: '0' },
  { taxTreatmentId: 'exempt', taxRate: '0' },
  { taxTreatmentId: 'outside_scope', taxRate: '0' },
] as const;

const decimalText = (units: number, scale: number) => (units / 10 ** scale).toFixed(scale);

const positionArb = (palette: readonly number[]) =>
  fc
    .record({
      treatment: fc.constantFrom(...palette),
      // quantity x price stays below the largest line amount (999,999,999.99), as add-position enforces
      qUnits: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 9_999 })),
      qScale: fc.integer({ min: 0, max: 3 }),
      pUnits: fc.oneof(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 99_999_999 })),
      pScale: fc.constantFrom(3, 4),
      unitCode: fc.constantFrom('C62', 'HUR', 'KGM', 'DAY', 'LTR'),
      title: fc.constantFrom('Beratung', 'Müller & <Söhne> Lieferung', 'Wartung “Premium”', 'Lizenz 2026/11', 'Kabel 3×1,5 mm²'),
      discount: fc.option(
        fc.oneof(
          fc.integer({ min: 0, max: 10_000 }).map((h) => ({ type: 'PERCENTAGE' as const, h })),
          fc.double({ min: 0, max: 1, noNaN: true }).map((f) => ({ type: 'FIXED_AMOUNT' as const, f })),
        ),
        { nil: undefined, freq: 3 },
      ),
    })
    .map((p): Omit<PositionDoc, 'id'> => {
      const quantity = decimalText(p.qUnits, p.qScale);
      const unitPrice = decimalText(p.pUnits, p.pScale);
      let discount: Pick<PositionDoc, 'discountType' | 'discountValue'> = {};
      if (p.discount?.type === 'PERCENTAGE') discount = { discountType: 'PERCENTAGE', discountValue: (p.discount.h / 100).toFixed(2) };
      if (p.discount?.type === 'FIXED_AMOUNT') {
        // at most the line amount (quantity x price, in cents, rounded down)
        const cents = Math.floor((p.qUnits * p.pUnits) / 10 ** (p.qScale + p.pScale - 2));
        discount = { discountType: 'FIXED_AMOUNT', discountValue: (Math.floor(cents * p.discount.f) / 100).toFixed(2) };
      }
      return { title: p.title, quantity, unitCode: p.unitCode, unitPrice, ...TREATMENTS[p.treatment]!, ...discount };
    });

/** Palettes of treatments one invoice mixes: mostly what businesses issue, sometimes anything. */
const paletteArb = fc.oneof(
  { weight: 4, arbitrary: fc.constant([0, 1, 2]) }, // domestic: 19 %, 7 %, zero-rated
  { weight: 2, arbitrary: fc.constant([0, 1]) },
  { weight: 1, arbitrary: fc.constant([3]) }, // reverse charge
  { weight: 1, arbitrary: fc.constant([4]) }, // intra-community supply
  { weight: 1, arbitrary: fc.constant([5]) }, // export
  { weight: 1, arbitrary: fc.constant([6]) }, // exempt
  { weight: 1, arbitrary: fc.constant([0, 6]) },
  { weight: 1, arbitrary: fc.constant([7]) }, // outside the scope of VAT
  { weight: 1, arbitrary: fc.uniqueArray(fc.integer({ min: 0, max: TREATMENTS.length - 1 }), { minLength: 1, maxLength: 4 }) },
);

const invoiceArb = paletteArb.chain((palette) =>
  fc.record({
    positions: fc.array(positionArb(palette), { minLength: 1, maxLength: 60 }),
    buyerReference: fc.option(fc.constantFrom('04011000-12345-34', 'PO-2026-118'), { nil: undefined, freq: 6 }),
    period: fc.option(
      fc.tuple(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 30 })).map(([d, len]) => ({
        start: `2026-10-${String(d).padStart(2, '0')}`,
        end: `2026-${d + len > 31 ? '11' : '10'}-${String(d + len > 31 ? d + len - 31 : d + len).padStart(2, '0')}`,
      })),
      { nil: undefined, freq: 3 },
    ),
    note: fc.option(fc.constantFrom('Vielen Dank für Ihren Auftrag.', 'Ref: <42> & "quoted"'), { nil: undefined, freq: 3 }),
    // a credit note of the invoice: all its positions, or some of them with part of their quantity
    credit: fc.oneof(
      { weight: 7, arbitrary: fc.constant(undefined) },
      {
        weight: 3,
        arbitrary: fc.oneof(
          fc.constant({ all: true as const }),
          fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 100 })), { minLength: 1, maxLength: 5 }).map((picks) => ({ picks })),
        ),
      },
    ),
  }),
);

const caseArb = fc.record({
  format: fc.integer({ min: 0, max: FORMATS.length - 1 }),
  company: companyArb,
  customer: customerArb,
  invoice: invoiceArb,
});
type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

/**
 * Defects the generator found, kept as examples fast-check runs first (each validated on its own).
 * Seed 2, path 18: a credit note of positions not subject to VAT (O) from a company with a register entry and no
 * VAT ID to a US buyer: the XRechnung XML failed BR-DE-14 (the breakdown had no rate BT-119; Peppol: DE-R-014).
 */
const OUTSIDE_SCOPE_CASE = (format: number, buyer: CustomerKind['buyer'], credit: boolean): Case => ({
  format,
  company: {
    ...sellerProfile,
    seller: {
      ...sellerProfile.seller!,
      vatId: undefined,
      taxNumber: '143/123/45678',
      registrationId: 'HRB 123456',
      electronicAddress: peppolEndpoint('0088:4035811991021'),
    },
  },
  customer: { kind: 'regression', ...billingSnapshot, buyer, vatStatus: 'not_checked' },
  invoice: {
    positions: [
      { title: 'Beratung', quantity: '72.30', unitCode: 'DAY', unitPrice: '5.2198', taxTreatmentId: 'outside_scope', taxRate: '0' },
    ],
    buyerReference: 'PO-2026-118',
    period: undefined,
    note: undefined,
    credit: credit ? { all: true } : undefined,
  },
});
const US_BUYER = { ...CUSTOMERS[8]!.buyer, electronicAddress: { scheme: 'EM', value: 'ap@acme.example' } };
const DE_BUYER = { ...CUSTOMERS[0]!.buyer, vatId: undefined, electronicAddress: peppolEndpoint('0088:4035811991021') };
const REGRESSIONS: [Case][] = [
  [OUTSIDE_SCOPE_CASE(1, US_BUYER, true)], // xrechnung-ubl
  [OUTSIDE_SCOPE_CASE(2, US_BUYER, false)], // xrechnung-cii
  [OUTSIDE_SCOPE_CASE(3, DE_BUYER, false)], // peppol-ubl, German seller and buyer
  // seed 3, path 1: a Kleinunternehmer's PEPPOL credit note with a note to an Austrian buyer had two document notes
  // (the invoice's and § 19 UStG), PEPPOL-EN16931-R002 allows one unless seller and buyer are both German
  [
    {
      ...OUTSIDE_SCOPE_CASE(3, { ...CUSTOMERS[3]!.buyer, electronicAddress: peppolEndpoint('0088:4035811991021') }, true),
      company: { ...sellerProfile, smallBusiness: true },
      invoice: {
        positions: [
          { title: 'Wartung', quantity: '0.10', unitCode: 'DAY', unitPrice: '83.826', taxTreatmentId: 'standard', taxRate: '0.19' },
        ],
        buyerReference: 'PO-2026-118',
        period: { start: '2026-10-27', end: '2026-11-22' },
        note: 'Ref: <42> & "quoted"',
        credit: { all: true },
      },
    },
  ],
];

// ------------------------------------------------------------------------------------------------ a case

interface Outcome {
  format: (typeof FORMATS)[number];
  /** validate's findings (errors) */
  errors: ValidationError[];
  /** finalization accepted (with vat_override_confirmed where only the VAT confirmation stood in the way) */
  accepted: boolean;
  refusal?: string;
  /** accepted: the XML written from the frozen snapshot, and the totals of the positions as issued */
  xml?: string;
  totals?: InvoiceTotals;
  typeCode: '380' | '381';
}

const INVOICE_ID = 1;
const NOTE_ID = 2;

async function evaluate(c: Case): Promise<Outcome> {
  const format = FORMATS[c.format]!;
  const f = fakeDeps({ 'account.seller-profile.v1': () => c.company, 'customer.billing-snapshot.v1': () => c.customer });
  // finalizing a credit note takes its gross from its invoice's (fake repository: always enough left)
  Object.assign(f.deps.invoices, { reserveCredit: async () => true });
  const positions = c.invoice.positions.map((p, i) => ({ ...p, id: i + 1 }));
  const base: Partial<InvoiceDoc> = {
    format: format.api,
    buyerReference: c.invoice.buyerReference,
    note: c.invoice.note,
    ...(c.invoice.period ? { benefitPeriodStart: c.invoice.period.start, benefitPeriodEnd: c.invoice.period.end } : {}),
  };
  let id = INVOICE_ID;
  let typeCode: '380' | '381' = '380';
  const invoice = draft(INVOICE_ID, { ...base, positions });
  if (c.invoice.credit) {
    // the invoice was finalized before; the credit note refers to it
    Object.assign(invoice, { status: 'FINALIZED', invoiceDate: '2026-11-02' });
    const request =
      'all' in c.invoice.credit
        ? {}
        : {
            positions: uniqueBy(
              c.invoice.credit.picks.map(([n, pct]) => {
                const p = positions[n % positions.length]!;
                const q = (Number(p.quantity) * pct) / 100;
                const quantity = Number(q.toFixed(3)) > 0 ? q.toFixed(3) : p.quantity;
                return { position_id: p.id, quantity: pct === 100 ? undefined : quantity };
              }),
              (x) => x.position_id,
            ),
          };
    const { lines, errors } = creditLines(invoice, request as never);
    if (errors.length) throw new Error(`the generator asked for an impossible credit note: ${JSON.stringify(errors)}`);
    draft(NOTE_ID, { ...base, typeCode: '381', precedingInvoiceId: INVOICE_ID, positions: lines.map((l, i) => ({ ...l, id: i + 1 })) });
    id = NOTE_ID;
    typeCode = '381';
  }
  function draft(docId: number, overrides: Partial<InvoiceDoc>): InvoiceDoc {
    const doc: InvoiceDoc = {
      _id: `${COMPANY}:${docId}`,
      id: docId,
      companyId: COMPANY,
      customerId: 1,
      status: 'DRAFT',
      number: `RE-2026-${String(docId).padStart(5, '0')}`,
      typeCode: '380',
      format: 'ZUGFERD',
      positions: [],
      createdAt: new Date('2026-11-01T08:00:00Z'),
      updatedAt: new Date('2026-11-01T08:00:00Z'),
      ...overrides,
    };
    f.invoices.set(docId, structuredClone(doc));
    return f.invoices.get(docId)!;
  }

  const stored = (await f.deps.invoices.get(COMPANY, id))!;
  const validation = await validateInvoice(f.deps, stored, ISSUE_DATE);
  const outcome: Outcome = { format, errors: validation.errors, accepted: false, typeCode };
  // validate's verdict is finalization's: refused without the VAT confirmation exactly when validate has errors
  const vatOnly = validation.errors.length > 0 && validation.errors.every((e) => e.rule === 'VAT_OVERRIDE_REQUIRED');
  try {
    await startFinalizeJob(f.deps, COMPANY, id, vatOnly);
    outcome.accepted = true;
  } catch (e) {
    outcome.refusal = `${(e as { options?: { code?: string } }).options?.code ?? ''} ${(e as Error).message}`;
    return outcome;
  }
  const render = f.messages.find((m) => m.type === 'document.render-invoice.v1')?.data as { snapshot: InvoiceSnapshot };
  outcome.xml = toEInvoiceXml(format.kit, render.snapshot as unknown as EInvoice);
  // the totals the API shows for the invoice as finalized (a Kleinunternehmer's positions issued without VAT)
  outcome.totals = totalsOf([...f.invoices.get(id)!.positions]);
  return outcome;
}

function uniqueBy<T>(items: T[], key: (t: T) => unknown): T[] {
  const seen = new Set<unknown>();
  return items.filter((t) => (seen.has(key(t)) ? false : (seen.add(key(t)), true)));
}

// ----------------------------------------------------------------------------------- totals read from XML

interface XmlTotals {
  lineTotal: string;
  taxBasis: string;
  taxTotal: string;
  grandTotal: string;
  payable?: string;
}

const textOf = (xml: string, tag: string): string | undefined => new RegExp(`<${tag}(?:\\s[^>]*)?>([^<]*)</${tag}>`).exec(xml)?.[1];
const textsOf = (xml: string, tag: string): string[] =>
  [...xml.matchAll(new RegExp(`<${tag}(?:\\s[^>]*)?>([^<]*)</${tag}>`, 'g'))].map((m) => m[1]!);
const blockOf = (xml: string, tag: string): string => new RegExp(`<${tag}(?:\\s[^>]*)?>[\\s\\S]*?</${tag}>`).exec(xml)?.[0] ?? '';
const cents = (v: string | undefined) => (v === undefined ? undefined : Math.round(Number(v) * 100));
const sumCents = (vs: string[]) => vs.reduce((s, v) => s + Math.round(Number(v) * 100), 0);

function totalsFromXml(format: EInvoiceFormat, xml: string): Record<keyof XmlTotals, number | undefined> {
  if (format === 'cii-en16931' || format === 'xrechnung-cii') {
    const sum = blockOf(xml, 'ram:SpecifiedTradeSettlementHeaderMonetarySummation');
    return {
      lineTotal: cents(textOf(sum, 'ram:LineTotalAmount')),
      taxBasis: cents(textOf(sum, 'ram:TaxBasisTotalAmount')),
      taxTotal: cents(textOf(sum, 'ram:TaxTotalAmount')),
      grandTotal: cents(textOf(sum, 'ram:GrandTotalAmount')),
      payable: cents(textOf(sum, 'ram:DuePayableAmount')),
    };
  }
  if (format === 'fatturapa') {
    return {
      lineTotal: sumCents(textsOf(xml, 'PrezzoTotale')),
      taxBasis: sumCents(textsOf(xml, 'ImponibileImporto')),
      taxTotal: sumCents(textsOf(xml, 'Imposta')),
      grandTotal: cents(textOf(xml, 'ImportoTotaleDocumento')),
      payable: cents(textOf(xml, 'ImportoPagamento')),
    };
  }
  if (format === 'facturae') {
    const it = blockOf(xml, 'InvoiceTotals');
    return {
      lineTotal: cents(textOf(it, 'TotalGrossAmount')),
      taxBasis: cents(textOf(it, 'TotalGrossAmountBeforeTaxes')),
      taxTotal: cents(textOf(it, 'TotalTaxOutputs')),
      grandTotal: cents(textOf(it, 'InvoiceTotal')),
      payable: cents(textOf(it, 'TotalExecutableAmount')),
    };
  }
  // UBL: the document-level TaxTotal comes before the lines
  const sum = blockOf(xml, 'cac:LegalMonetaryTotal');
  return {
    lineTotal: cents(textOf(sum, 'cbc:LineExtensionAmount')),
    taxBasis: cents(textOf(sum, 'cbc:TaxExclusiveAmount')),
    taxTotal: cents(textOf(blockOf(xml, 'cac:TaxTotal'), 'cbc:TaxAmount')),
    grandTotal: cents(textOf(sum, 'cbc:TaxInclusiveAmount')),
    payable: cents(textOf(sum, 'cbc:PayableAmount')),
  };
}

function expectedTotals(format: EInvoiceFormat, t: InvoiceTotals, typeCode: '380' | '381', xml: string) {
  const expected: Record<keyof XmlTotals, number | undefined> = {
    lineTotal: cents(t.lineNetTotal),
    taxBasis: cents(t.taxExclusiveTotal),
    taxTotal: cents(t.vatTotal),
    grandTotal: cents(t.taxInclusiveTotal),
    payable: cents(t.amountDue),
  };
  // Facturae states a credit note as a corrective invoice "por diferencias": negative amounts (facturae.ts)
  if (format === 'facturae' && typeCode === '381')
    for (const k of Object.keys(expected) as (keyof XmlTotals)[]) expected[k] = expected[k] === 0 ? 0 : -expected[k]!;
  // FatturaPA writes ImportoPagamento only with payment instructions for an amount to pay (not for a credit note's clearing)
  if (format === 'fatturapa' && (typeCode === '381' || !xml.includes('<ImportoPagamento>') || Number(t.amountDue) <= 0))
    expected.payable = undefined;
  return expected;
}

// ------------------------------------------------------------------------------------ the official kit

interface Verdict {
  pass: boolean;
  report: string;
}

/** Runs the official validator once on many files of one format; PASS/FAIL (with the errors) per file. */
async function validateFiles(format: EInvoiceFormat, files: string[]): Promise<Map<string, Verdict>> {
  const { stdout } = await run(VALIDATE, ['-n', '20', format, ...files], { maxBuffer: 256 * 1024 * 1024, timeout: 600_000 }).catch(
    (e: { stdout?: string; stderr?: string; code?: number }) => {
      if (e.code !== 1) throw new Error(`validate ${format} exited ${e.code}: ${e.stderr ?? ''}`); // 2: usage or setup error
      return { stdout: e.stdout ?? '' };
    },
  );
  const verdicts = new Map<string, Verdict>();
  let current: Verdict | undefined;
  for (const line of stdout.split('\n')) {
    const head = /^(PASS|FAIL) (\S+?)(:|$)/.exec(line);
    if (head) verdicts.set(head[2]!, (current = { pass: head[1] === 'PASS', report: line }));
    else if (current && line.trim()) current.report += `\n${line}`;
  }
  for (const file of files) if (!verdicts.has(file)) throw new Error(`validate ${format} gave no verdict for ${file}:\n${stdout}`);
  return verdicts;
}

// ------------------------------------------------------------------------------------------------ the test

describe('generative conformance: validate names what is missing, or the XML passes the official rules with the API totals', () => {
  const dir = mkdtempSync(join(tmpdir(), 'generative-conformance-'));
  /** verdicts of the XML by its text, from the batches (and single runs while shrinking) */
  const verdicts = new Map<string, Verdict>();
  let fileNo = 0;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const writeXml = (format: EInvoiceFormat, xml: string) => {
    const file = join(dir, `${format}__${String(++fileNo).padStart(5, '0')}.xml`);
    writeFileSync(file, xml);
    return file;
  };

  async function verdictOf(format: EInvoiceFormat, xml: string): Promise<Verdict> {
    const key = `${format}\n${xml}`;
    const known = verdicts.get(key);
    if (known) return known;
    const file = writeXml(format, xml);
    const v = (await validateFiles(format, [file])).get(file)!;
    verdicts.set(key, v);
    return v;
  }

  it('runs against the official validators', () => {
    expect(existsSync(VALIDATE)).toBe(true);
  });

  it(`holds for ${NUM_RUNS} generated cases`, async () => {
    const started = Date.now();
    const params: fc.Parameters<[Case]> = {
      seed: SEED,
      numRuns: NUM_RUNS,
      ...(PATH ? { path: PATH } : {}),
      endOnFailure: !SHRINK,
      ...(PATH ? {} : { examples: REGRESSIONS }),
    };
    // 1. the cases fast-check will run (same seed), written and validated in batches per format
    const sampled = PATH ? [] : fc.sample(caseArb, { seed: SEED, numRuns: NUM_RUNS });
    const batches = new Map<EInvoiceFormat, { file: string; key: string }[]>();
    const stats = { cases: 0, accepted: 0, refused: 0, credit: 0, perFormat: {} as Record<string, { accepted: number; refused: number }> };
    const refusedRules = new Map<string, number>();
    for (const c of sampled) {
      const o = await evaluate(c);
      const s = (stats.perFormat[o.format.kit] ??= { accepted: 0, refused: 0 });
      if (o.accepted) s.accepted++;
      else s.refused++;
      for (const e of o.errors) refusedRules.set(e.rule, (refusedRules.get(e.rule) ?? 0) + 1);
      if (!o.xml) continue;
      const key = `${o.format.kit}\n${o.xml}`;
      if (verdicts.has(key)) continue;
      const list = batches.get(o.format.kit) ?? [];
      list.push({ file: writeXml(o.format.kit, o.xml), key });
      batches.set(o.format.kit, list);
    }
    const generatedMs = Date.now() - started;
    // two validator processes at a time (the SEF loading dominates; 2 cores)
    const jobs = [...batches.entries()].flatMap(([format, list]) => chunks(list, 150).map((part) => ({ format, part })));
    const timing: string[] = [];
    await pool(jobs, 2, async ({ format, part }) => {
      const t0 = Date.now();
      const result = await validateFiles(
        format,
        part.map((p) => p.file),
      );
      for (const p of part) verdicts.set(p.key, result.get(p.file)!);
      timing.push(`${format} ${part.length} files ${Date.now() - t0} ms`);
    });
    const batchedMs = Date.now() - started - generatedMs;

    // 2. the property, on the same cases (fast-check replays the seed; shrinking validates new cases one by one)
    const property = fc.asyncProperty(caseArb, async (c) => {
      stats.cases++;
      const o = await evaluate(c);
      if (!o.accepted) {
        // refused: validate names what is missing, each finding with its field, rule and message, and
        // finalization refuses with exactly those findings
        expect(o.errors.length).toBeGreaterThan(0);
        for (const e of o.errors) expect(e).toEqual({ field: expect.any(String), rule: expect.any(String), message: expect.any(String) });
        expect(() => assertFinalizable({ errors: o.errors, vatStatus: 'valid', vatOverrideRequired: false }, false)).toThrow();
        return;
      }
      if (o.typeCode === '381') stats.credit++;
      // accepted: validate had nothing but (at most) the VAT confirmation ...
      expect(o.errors.filter((e) => e.rule !== 'VAT_OVERRIDE_REQUIRED')).toEqual([]);
      // ... the XML passes the official rules ...
      const v = await verdictOf(o.format.kit, o.xml!);
      if (!v.pass) throw new Error(`validate said valid, finalization accepted, but the ${o.format.kit} XML fails:\n${v.report}`);
      // ... and carries the totals the API computes
      expect(totalsFromXml(o.format.kit, o.xml!)).toEqual(expectedTotals(o.format.kit, o.totals!, o.typeCode, o.xml!));
    });
    const details = await fc.check(property, params);
    const took = Date.now() - started;
    console.log(
      [
        `generative conformance: ${stats.cases} cases (numRuns ${NUM_RUNS}), seed ${SEED}${PATH ? `, path ${PATH}` : ''}, ${took} ms ` +
          `(generate ${generatedMs} ms, official validators ${batchedMs} ms)`,
        `  per format (accepted/refused): ${Object.entries(stats.perFormat)
          .map(([k, s]) => `${k} ${s.accepted}/${s.refused}`)
          .join(', ')}; credit notes accepted: ${stats.credit}`,
        `  findings of refused cases: ${[...refusedRules.entries()].map(([r, n]) => `${r} ${n}`).join(', ')}`,
        `  validator batches: ${timing.join('; ')}`,
        `  reproduce: FC_SEED=${SEED} npx jest --config apps/invoice-service/jest.config.cjs generative-conformance`,
      ].join('\n'),
    );
    if (details.failed) {
      throw new Error(
        `${fc.defaultReportMessage(details)}\n\n${String(details.errorInstance)}\n\nreproduce: FC_SEED=${SEED} FC_PATH=${details.counterexamplePath} ` +
          `npx jest --config apps/invoice-service/jest.config.cjs generative-conformance`,
      );
    }
  });
});

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function pool<T>(items: T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}
