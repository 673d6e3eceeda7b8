import type { EInvoice, InvoiceLine } from '@inv/einvoice';
import { computeTotals } from '@inv/money';
import type { AccountStatement, PdfTotals } from '../types';

/** Sample data for the PDF tests and the benchmark (German seller, names with accents and umlauts). */
export const seller: EInvoice['seller'] = {
  name: 'Müller & Söhne Softwarehaus GmbH',
  vatId: 'DE123456789',
  taxNumber: '215/5432/1234',
  registrationId: 'HRB 123456',
  registrationCourt: 'Amtsgericht Köln',
  electronicAddress: { scheme: 'EM', value: 'rechnung@mueller-soehne.de' },
  address: { line1: 'Hohenzollernring 72', city: 'Köln', postalCode: '50672', countryCode: 'DE' },
  contact: { name: 'Jürgen Weiß', phone: '+49 221 1234567', email: 'buchhaltung@mueller-soehne.de' },
};

export const buyer: EInvoice['buyer'] = {
  name: 'Société Générale d’Équipement SARL',
  vatId: 'FR61954506077',
  address: { line1: '12 rue de la Pépinière', line2: 'Bâtiment C', city: 'Paris', postalCode: '75008', countryCode: 'FR' },
  contact: { name: 'Françoise Lefèvre' },
};

const ITEMS: Omit<InvoiceLine, 'id'>[] = [
  {
    name: 'Softwareentwicklung Backend',
    description: 'Schnittstelle zum Warenwirtschaftssystem, inkl. Tests',
    quantity: '12.5',
    unitCode: 'HUR',
    unitPrice: '95.00',
    vat: { category: 'S', rate: '19', treatment: 'standard' },
  },
  {
    name: 'Wartungsvertrag Premium',
    quantity: '1',
    unitCode: 'MON',
    unitPrice: '249.00',
    vat: { category: 'S', rate: '19', treatment: 'standard' },
    period: { start: '2026-10-01', end: '2026-10-31' },
  },
  {
    name: 'Schulung „Año nuevo“ – Español/Italiano',
    quantity: '2',
    unitCode: 'DAY',
    unitPrice: '780.00',
    discount: { type: 'PERCENTAGE', value: '10', reason: 'Rahmenvertrag' },
    vat: { category: 'S', rate: '19', treatment: 'standard' },
  },
  {
    name: 'Fachbuch „Größenwahn & Ölförderung“',
    quantity: '3',
    unitCode: 'C62',
    unitPrice: '39.90',
    vat: { category: 'S', rate: '7', treatment: 'reduced' },
  },
  {
    name: 'Reisekosten pauschal',
    quantity: '1',
    unitCode: 'LS',
    unitPrice: '120.00',
    discount: { type: 'FIXED_AMOUNT', value: '20.00' },
    vat: { category: 'S', rate: '19', treatment: 'standard' },
  },
];

export function sampleLines(count: number): InvoiceLine[] {
  return Array.from({ length: count }, (_, i) => ({ ...ITEMS[i % ITEMS.length], id: String(i + 1) }));
}

export function sampleInvoice(lineCount: number, overrides: Partial<EInvoice> = {}): EInvoice {
  return {
    number: 'RE-2026-00042',
    issueDate: '2026-11-20',
    typeCode: '380',
    currency: 'EUR',
    dueDate: '2026-12-04',
    buyerReference: 'PO-4711',
    orderReference: 'B-2026-889',
    period: { start: '2026-10-01', end: '2026-10-31' },
    paymentTerms: 'Zahlbar innerhalb von 14 Tagen ohne Abzug.',
    seller,
    buyer: {
      ...buyer,
      vatId: undefined,
      address: { line1: 'Königsallee 1', city: 'Düsseldorf', postalCode: '40212', countryCode: 'DE' },
      name: 'Beispielkunde AG',
    },
    lines: sampleLines(lineCount),
    payment: { meansCode: '58', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', accountName: 'Müller & Söhne Softwarehaus GmbH' },
    notes: ['Vielen Dank für die gute Zusammenarbeit.'],
    language: 'de',
    ...overrides,
  };
}

/** Intra-EU reverse charge invoice in English to a French buyer. */
export function reverseChargeInvoice(lineCount = 3): EInvoice {
  return sampleInvoice(lineCount, {
    number: 'INV-2026-0100',
    language: 'en',
    buyer,
    paymentTerms: undefined,
    notes: undefined,
    lines: sampleLines(lineCount).map((line) => ({ ...line, vat: { category: 'AE', rate: '0', treatment: 'reverse_charge' } })),
    exemptions: { AE: { reason: 'Reverse charge', code: 'VATEX-EU-AE' } },
  });
}

export function totalsFor(invoice: EInvoice): PdfTotals {
  return computeTotals({ lines: invoice.lines });
}

export function sampleStatement(entries = 12, language: 'de' | 'en' = 'de'): AccountStatement {
  return {
    language,
    company: seller,
    companyPayment: { meansCode: '58', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
    customer: { ...buyer, customerNumber: 'K-10042' },
    from: '2026-01-01',
    to: '2026-06-30',
    openingBalance: '1200.00',
    entries: Array.from({ length: entries }, (_, i) => {
      // Spread the bookings evenly over the half year, in order.
      const date = new Date(Date.UTC(2026, 0, 2) + Math.floor((i * 175) / Math.max(entries, 1)) * 86_400_000).toISOString().slice(0, 10);
      return i % 2 === 0
        ? { date, documentNumber: `RE-2026-${100 + i}`, type: 'invoice' as const, debit: '595.00', balance: '1795.00' }
        : { date, documentNumber: `ZA-${100 + i}`, type: 'payment' as const, credit: '595.00', balance: '1200.00' };
    }),
    closingBalance: '1200.00',
  };
}
