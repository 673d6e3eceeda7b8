import { computeTotals } from '@inv/money';
import { hasAlpha3 } from './countries';
import type { EInvoiceFormat } from './format-names';
import type { EInvoice, Party, VatCategoryCode } from './model';

export interface Requirement {
  /** Path of the missing or wrong field in the EInvoice model, e.g. "buyer.vatId", "lines[2].unitCode". */
  field: string;
  /** The rule that needs it: an EN 16931 / XRechnung / Peppol rule id, or "<format>:<element>". */
  rule: string;
  message: string;
}

/** EAS codes Peppol accepts as endpoint scheme (Peppol BIS 3.0.21 code list; no "EM" e-mail scheme). */
const PEPPOL_EAS = new Set(
  (
    '0002 0007 0009 0060 0088 0096 0097 0106 0130 0135 0142 0151 0183 0184 0188 0190 0191 0192 0195 0196 0198 0199 0200 0201 0204 0208 0209 0210 0211 0216 0218 0221 0225 0230 0235 0240 0242 0244 0245 0246 0248 ' +
    '9910 9913 9914 9915 9918 9919 9920 9922 9923 9924 9925 9926 9927 9928 9929 9930 9931 9932 9933 9934 9935 9936 9937 9938 9939 9940 9941 9942 9943 9944 9945 9946 9947 9948 9949 9950 9951 9952 9953 9957 9959'
  ).split(' '),
);

const blank = (v: string | undefined) => v === undefined || v.trim() === '';

function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(value);
}

const isEn16931 = (f: EInvoiceFormat) =>
  f === 'cii-en16931' || f === 'xrechnung-cii' || f === 'xrechnung-ubl' || f === 'peppol-ubl' || f === 'ubl-en16931';
const isXRechnung = (f: EInvoiceFormat) => f === 'xrechnung-cii' || f === 'xrechnung-ubl';

/**
 * Everything the chosen format needs that the invoice lacks, one entry per problem; empty when the
 * writer can produce a document that passes the format's rules. Used by GET /invoice/{id}/validate.
 * It checks presence and the cross-field rules (VAT IDs per category, bank data per payment means,
 * routing data per format); the arithmetic rules always hold because totals are computed.
 */
export function requirementsFor(format: EInvoiceFormat, invoice: EInvoice): Requirement[] {
  const out: Requirement[] = [];
  const need = (cond: boolean, field: string, rule: string, message: string) => {
    if (cond) out.push({ field, rule, message });
  };
  const { seller, buyer } = invoice;
  const lines = invoice.lines ?? [];
  const categories = new Set<VatCategoryCode>(lines.map((l) => l.vat?.category).filter((c): c is VatCategoryCode => !!c));

  // --- core data every format needs
  need(blank(invoice.number), 'number', 'BR-02', 'Invoice number is required.');
  need(blank(invoice.issueDate), 'issueDate', 'BR-03', 'Invoice issue date is required.');
  const dates: [string, string | undefined][] = [
    ['issueDate', invoice.issueDate],
    ['dueDate', invoice.dueDate],
    ['deliveryDate', invoice.deliveryDate],
    ['period.start', invoice.period?.start],
    ['period.end', invoice.period?.end],
    ['precedingInvoice.issueDate', invoice.precedingInvoice?.issueDate],
  ];
  for (const [field, value] of dates) {
    need(!blank(value) && !isIsoDate(value!), field, 'date-format', `${field} must be a calendar date YYYY-MM-DD.`);
  }
  need(
    !!invoice.period && invoice.period.start > invoice.period.end,
    'period.end',
    'BR-29',
    'The period end must not be before its start.',
  );
  need(lines.length === 0, 'lines', 'BR-16', 'The invoice needs at least one line.');
  need(
    invoice.typeCode === '381' && !invoice.precedingInvoice,
    'precedingInvoice',
    'BG-3',
    'A credit note must reference the invoice it corrects (preceding invoice, BT-25).',
  );
  partyRequirements(need, 'seller', seller, 'BR-06', 'BR-08', 'BR-09');
  partyRequirements(need, 'buyer', buyer, 'BR-07', 'BR-10', 'BR-11');

  lines.forEach((l, i) => {
    const f = `lines[${i}]`;
    need(blank(l.id), `${f}.id`, 'BR-21', 'Line identifier is required.');
    need(blank(l.quantity), `${f}.quantity`, 'BR-22', 'Line quantity is required.');
    need(blank(l.unitCode), `${f}.unitCode`, 'BR-23', 'Unit of measure (UN/ECE Rec 20, e.g. HUR, C62) is required.');
    need(blank(l.name), `${f}.name`, 'BR-25', 'Item name is required.');
    need(blank(l.unitPrice), `${f}.unitPrice`, 'BR-26', 'Item net price is required.');
    need(!l.vat?.category, `${f}.vat.category`, 'BR-CO-04', 'VAT category is required.');
  });
  // arithmetic input errors (negative price, discount above 100 % or above the line amount)
  if (lines.length && lines.every((l) => l.vat && !blank(l.quantity) && !blank(l.unitPrice))) {
    try {
      computeTotals({
        lines: lines.map((l) => ({
          quantity: l.quantity,
          unitPrice: l.unitPrice,
          vat: l.vat,
          ...(l.discount ? { discount: l.discount } : {}),
        })),
      });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const field = /^(lines\[\d+\][\w.]*)/.exec(message)?.[1] ?? 'lines';
      out.push({ field, rule: /BR-27/.test(message) ? 'BR-27' : 'amounts', message });
    }
  }

  // --- VAT category rules (EN 16931 BR-S/AE/IC/G/E/O-02, BR-IC-11/12, BR-O-11)
  const sellerTaxId = !blank(seller?.vatId) || !blank(seller?.taxNumber);
  if (categories.has('S') || categories.has('Z'))
    need(!sellerTaxId, 'seller.vatId', 'BR-S-02', 'Standard-rated lines need the seller VAT ID or tax number.');
  if (categories.has('E')) need(!sellerTaxId, 'seller.vatId', 'BR-E-02', 'Exempt lines need the seller VAT ID or tax number.');
  if (categories.has('AE')) {
    need(blank(seller?.vatId), 'seller.vatId', 'BR-AE-02', 'Reverse charge needs the seller VAT ID.');
    need(blank(buyer?.vatId) && blank(buyer?.registrationId), 'buyer.vatId', 'BR-AE-02', 'Reverse charge needs the buyer VAT ID.');
  }
  if (categories.has('K')) {
    need(blank(seller?.vatId), 'seller.vatId', 'BR-IC-02', 'An intra-community supply needs the seller VAT ID.');
    need(blank(buyer?.vatId), 'buyer.vatId', 'BR-IC-02', 'An intra-community supply needs the buyer VAT ID.');
    need(
      !invoice.deliveryDate && !invoice.period,
      'deliveryDate',
      'BR-IC-11',
      'An intra-community supply needs the delivery date or the invoicing period.',
    );
    need(
      !invoice.deliverTo && blank(buyer?.address?.countryCode),
      'deliverTo.address.countryCode',
      'BR-IC-12',
      'An intra-community supply needs the deliver-to country.',
    );
  }
  if (categories.has('G')) need(blank(seller?.vatId), 'seller.vatId', 'BR-G-02', 'An export needs the seller VAT ID.');
  if (categories.has('O')) {
    need(
      !blank(seller?.vatId) || !blank(buyer?.vatId),
      'seller.vatId',
      'BR-O-02',
      'An invoice not subject to VAT must not carry seller or buyer VAT IDs.',
    );
    need(categories.size > 1, 'lines', 'BR-O-11', 'Lines not subject to VAT (O) cannot be mixed with other VAT categories.');
  }

  // --- payment
  const pay = invoice.payment;
  if (lines.length && !invoice.dueDate && blank(invoice.paymentTerms)) {
    try {
      const due = computeTotals({
        lines: lines.map((l) => ({
          quantity: l.quantity,
          unitPrice: l.unitPrice,
          vat: l.vat,
          ...(l.discount ? { discount: l.discount } : {}),
        })),
        ...(invoice.prepaidAmount !== undefined ? { prepaidAmount: invoice.prepaidAmount } : {}),
      }).amountDue;
      need(Number(due) > 0, 'dueDate', 'BR-CO-25', 'A positive amount due needs a due date or payment terms.');
    } catch {
      // amount errors are reported above
    }
  }
  if (pay && (pay.meansCode === '58' || pay.meansCode === '30')) {
    need(blank(pay.iban), 'payment.iban', 'BR-61', 'A credit transfer needs the payee IBAN / account identifier.');
  }

  if (isEn16931(format)) {
    need(invoice.currency !== 'EUR', 'currency', 'BR-05', 'Only EUR is supported.');
    // BR-CO-26: BT-29 (identifier), BT-30 (registrationId) or BT-31 (vatId); the tax number BT-32 does not count
    need(
      !!seller && blank(seller.vatId) && blank(seller.registrationId) && blank(seller.identifier?.value),
      'seller.vatId',
      'BR-CO-26',
      'The seller needs a VAT ID (BT-31), a seller identifier (BT-29, e.g. a GLN) or a legal registration identifier (BT-30, e.g. the commercial register entry) so that the buyer can identify it; a tax number (BT-32) is not enough.',
    );
  }

  // --- Peppol: routing addresses and a reference the buyer can match
  if (format === 'peppol-ubl') {
    need(
      blank(invoice.buyerReference) && blank(invoice.orderReference),
      'buyerReference',
      'PEPPOL-EN16931-R003',
      'Peppol needs a buyer reference or a purchase order reference.',
    );
    for (const [role, p, rule] of [
      ['seller', seller, 'PEPPOL-EN16931-R020'],
      ['buyer', buyer, 'PEPPOL-EN16931-R010'],
    ] as const) {
      if (!p?.electronicAddress || blank(p.electronicAddress.value))
        need(true, `${role}.electronicAddress`, rule, `The ${role} needs a Peppol electronic address (endpoint ID).`);
      else
        need(
          !PEPPOL_EAS.has(p.electronicAddress.scheme),
          `${role}.electronicAddress.scheme`,
          'PEPPOL-EN16931-CL008',
          `Scheme ${p.electronicAddress.scheme} is not a Peppol EAS code (e-mail addresses cannot be Peppol endpoints).`,
        );
    }
    // Peppol's German rules (DE-R-*) when seller and buyer are both in Germany: the XRechnung contact and routing data
    if (seller?.address?.countryCode === 'DE' && buyer?.address?.countryCode === 'DE') {
      need(blank(invoice.buyerReference), 'buyerReference', 'DE-R-015', 'Peppol between German parties needs the buyer reference.');
      need(!pay, 'payment', 'DE-R-001', 'Peppol between German parties needs payment instructions.');
      need(blank(seller?.contact?.name), 'seller.contact.name', 'DE-R-005', 'Peppol between German parties needs a seller contact name.');
      need(
        blank(seller?.contact?.phone),
        'seller.contact.phone',
        'DE-R-006',
        'Peppol between German parties needs a seller contact phone number.',
      );
      need(
        blank(seller?.contact?.email),
        'seller.contact.email',
        'DE-R-007',
        'Peppol between German parties needs a seller contact e-mail.',
      );
    }
  }

  // --- XRechnung (BR-DE-*): routing, contacts, payment
  if (isXRechnung(format)) {
    need(
      blank(invoice.buyerReference),
      'buyerReference',
      'BR-DE-15',
      'XRechnung needs the buyer reference (Leitweg-ID for public buyers).',
    );
    need(!pay, 'payment', 'BR-DE-01', 'XRechnung needs payment instructions.');
    need(blank(seller?.address?.city), 'seller.address.city', 'BR-DE-03', 'XRechnung needs the seller city.');
    need(blank(seller?.address?.postalCode), 'seller.address.postalCode', 'BR-DE-04', 'XRechnung needs the seller postal code.');
    need(blank(seller?.contact?.name), 'seller.contact.name', 'BR-DE-05', 'XRechnung needs a seller contact name.');
    need(blank(seller?.contact?.phone), 'seller.contact.phone', 'BR-DE-06', 'XRechnung needs a seller contact phone number.');
    need(blank(seller?.contact?.email), 'seller.contact.email', 'BR-DE-07', 'XRechnung needs a seller contact e-mail.');
    need(blank(buyer?.address?.city), 'buyer.address.city', 'BR-DE-08', 'XRechnung needs the buyer city.');
    need(blank(buyer?.address?.postalCode), 'buyer.address.postalCode', 'BR-DE-09', 'XRechnung needs the buyer postal code.');
    need(!sellerTaxId, 'seller.vatId', 'BR-DE-16', 'XRechnung needs the seller VAT ID or tax number.');
    need(
      !seller?.electronicAddress || blank(seller.electronicAddress.value),
      'seller.electronicAddress',
      'PEPPOL-EN16931-R020',
      'XRechnung needs the seller electronic address.',
    );
    need(
      !buyer?.electronicAddress || blank(buyer.electronicAddress.value),
      'buyer.electronicAddress',
      'PEPPOL-EN16931-R010',
      'XRechnung needs the buyer electronic address.',
    );
  }

  // --- FatturaPA 1.2.2 FPR12
  if (format === 'fatturapa') {
    need(blank(seller?.vatId), 'seller.vatId', 'FatturaPA:CedentePrestatore/IdFiscaleIVA', 'FatturaPA needs the seller VAT ID.');
    if (buyer?.address?.countryCode === 'IT') {
      need(
        blank(buyer.vatId) && blank(buyer.fiscalCode) && blank(buyer.partitaIva),
        'buyer.fiscalCode',
        'FatturaPA:CessionarioCommittente/CodiceFiscale',
        'An Italian buyer needs a VAT ID (Partita IVA) or Codice Fiscale.',
      );
      need(
        blank(buyer.sdiCode) && blank(buyer.pec),
        'buyer.sdiCode',
        'FatturaPA:CodiceDestinatario',
        'An Italian buyer needs an SdI recipient code or a PEC address.',
      );
      need(
        !/^\d{5}$/.test(buyer.address.postalCode ?? ''),
        'buyer.address.postalCode',
        'FatturaPA:CAP',
        'An Italian address needs a five-digit CAP.',
      );
    }
    if (!blank(buyer?.sdiCode))
      need(
        !/^[A-Z0-9]{6,7}$/.test(buyer!.sdiCode!),
        'buyer.sdiCode',
        'FatturaPA:CodiceDestinatario',
        'The SdI recipient code has 7 characters (A-Z, 0-9), 6 for a public administration.',
      );
  }

  // --- Facturae 3.2.2
  if (format === 'facturae') {
    for (const [role, p] of [
      ['seller', seller],
      ['buyer', buyer],
    ] as const) {
      need(
        blank(p?.vatId) && blank(p?.fiscalCode),
        `${role}.vatId`,
        'Facturae:TaxIdentificationNumber',
        `Facturae needs the ${role}'s tax identification (VAT ID or NIF).`,
      );
      if (p?.address?.countryCode)
        need(
          !hasAlpha3(p.address.countryCode),
          `${role}.address.countryCode`,
          'Facturae:CountryCode',
          `Country ${p.address.countryCode} is not supported for Facturae.`,
        );
      if (p?.address?.countryCode === 'ES')
        need(
          !/^\d{5}$/.test(p.address.postalCode ?? ''),
          `${role}.address.postalCode`,
          'Facturae:PostCode',
          'A Spanish address needs a five-digit postal code.',
        );
    }
  }
  return out;
}

type Need = (cond: boolean, field: string, rule: string, message: string) => void;

function partyRequirements(
  need: Need,
  role: 'seller' | 'buyer',
  p: Party | undefined,
  nameRule: string,
  addressRule: string,
  countryRule: string,
): void {
  need(!p || blank(p.name), `${role}.name`, nameRule, `The ${role} name is required.`);
  need(
    !p?.address || blank(p.address.line1) || blank(p.address.city),
    `${role}.address`,
    addressRule,
    `The ${role} postal address (street, city) is required.`,
  );
  need(
    !p?.address || !/^[A-Z]{2}$/.test(p.address.countryCode ?? ''),
    `${role}.address.countryCode`,
    countryRule,
    `The ${role} country code (ISO 3166-1 alpha-2) is required.`,
  );
}
