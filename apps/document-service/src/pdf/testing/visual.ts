import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EInvoice } from '@inv/einvoice';
import { renderInvoicePdf } from '../invoice';
import type { PdfLanguage } from '../format';
import { renderStatementPdf } from '../statement';
import type { AccountStatement } from '../types';
import { seller, totalsFor } from './fixtures';

/**
 * Fixed documents for the visual regression test (visual.spec.ts): an invoice, a credit note and an account
 * statement in German and English, with fixed dates, a fixed logo and a fixed creation date, so that the same
 * code draws the same pixels. Position ids are company-wide (17, 18, 19): the documents must number 1..n.
 */
export const VISUAL_LOGO = readFileSync(join(__dirname, '../../../assets/logo-placeholder.png'));
const CREATED = new Date('2026-11-27T09:00:00Z');

const company: EInvoice['seller'] = {
  ...seller,
  managingDirectors: ['Erika Mustermann', 'Jürgen Weiß'],
};

const customer: EInvoice['buyer'] = {
  name: 'Beispielkunde AG',
  vatId: 'DE987654321',
  address: { line1: 'Königsallee 1', city: 'Düsseldorf', postalCode: '40212', countryCode: 'DE' },
  contact: { name: 'Anna Schmidt' },
};

const TEXT = {
  de: {
    lines: ['Softwareentwicklung Backend', 'Wartungsvertrag Premium', 'Fachbuch „Ölförderung“'],
    description: 'Schnittstelle zum Warenwirtschaftssystem',
    terms: 'Zahlbar innerhalb von 14 Tagen ohne Abzug bis zum 04.12.2026.',
    creditTerms: 'Der Betrag wird Ihnen erstattet oder mit offenen Rechnungen verrechnet.',
  },
  en: {
    lines: ['Backend software development', 'Premium maintenance contract', 'Handbook “Oil production”'],
    description: 'Interface to the merchandise management system',
    terms: 'Payable within 14 days without deduction by 4 Dec 2026.',
    creditTerms: 'The amount will be refunded to you or offset against open invoices.',
  },
} as const;

function invoice(lang: PdfLanguage, credit: boolean): EInvoice {
  const t = TEXT[lang];
  return {
    number: credit ? 'RK-2026-00007' : 'RE-2026-00042',
    issueDate: credit ? '2026-11-27' : '2026-11-20',
    typeCode: credit ? '381' : '380',
    currency: 'EUR',
    dueDate: credit ? undefined : '2026-12-04',
    buyerReference: 'PO-4711',
    precedingInvoice: credit ? { number: 'RE-2026-00042', issueDate: '2026-11-20' } : undefined,
    period: { start: '2026-10-01', end: '2026-10-31' },
    paymentTerms: credit ? t.creditTerms : t.terms,
    seller: company,
    buyer: customer,
    customerNumber: 10042,
    lines: [
      {
        id: '17',
        name: t.lines[0],
        description: t.description,
        quantity: '12.5',
        unitCode: 'HUR',
        unitPrice: '95.00',
        vat: { category: 'S', rate: '19', treatment: 'standard' },
      },
      {
        id: '18',
        name: t.lines[1],
        quantity: '1',
        unitCode: 'MON',
        unitPrice: '249.00',
        vat: { category: 'S', rate: '19', treatment: 'standard' },
        period: { start: '2026-10-01', end: '2026-10-31' },
      },
      {
        id: '19',
        name: t.lines[2],
        quantity: '3',
        unitCode: 'C62',
        unitPrice: '39.90',
        discount: { type: 'PERCENTAGE', value: '10' },
        vat: { category: 'S', rate: '7', treatment: 'reduced' },
      },
    ].slice(0, credit ? 2 : 3) as EInvoice['lines'],
    payment: credit
      ? { meansCode: '97', remittanceInfo: 'RK-2026-00007' }
      : { meansCode: '58', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', accountName: seller.name, remittanceInfo: 'RE-2026-00042' },
    language: lang,
  };
}

function statement(lang: PdfLanguage): AccountStatement {
  return {
    language: lang,
    currency: 'EUR',
    company,
    companyPayment: { meansCode: '58', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', accountName: seller.name },
    customer: { ...customer, customerNumber: '10042' },
    statementDate: '2026-11-30',
    from: '2026-10-01',
    to: '2026-11-30',
    openingBalance: '250.00',
    entries: [
      { date: '2026-10-05', documentNumber: 'ZA-2026-0311', type: 'payment', credit: '250.00', balance: '0.00' },
      { date: '2026-11-20', documentNumber: 'RE-2026-00042', type: 'invoice', debit: '1925.52', balance: '1925.52' },
      { date: '2026-11-27', documentNumber: 'RK-2026-00007', type: 'credit_note', credit: '1709.44', balance: '216.08' },
    ],
    closingBalance: '216.08',
  };
}

export type VisualCase = { name: string; render: () => Promise<Buffer> };

/** invoice-de, invoice-en, credit-note-de, credit-note-en, statement-de, statement-en. */
export function visualCases(): VisualCase[] {
  const cases: VisualCase[] = [];
  for (const lang of ['de', 'en'] as const) {
    for (const credit of [false, true]) {
      const inv = invoice(lang, credit);
      cases.push({
        name: `${credit ? 'credit-note' : 'invoice'}-${lang}`,
        // Classic for German, Modern for English: both templates are covered
        render: () =>
          renderInvoicePdf(inv, { template: lang === 'de' ? 1 : 2, totals: totalsFor(inv), logo: VISUAL_LOGO, creationDate: CREATED }),
      });
    }
    cases.push({
      name: `statement-${lang}`,
      render: () => renderStatementPdf(statement(lang), { template: lang === 'de' ? 1 : 2, logo: VISUAL_LOGO, creationDate: CREATED }),
    });
  }
  return cases;
}
