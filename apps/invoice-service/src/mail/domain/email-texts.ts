/**
 * Subject and body of an invoice e-mail, in German or English after the customer's language. The company
 * may replace the defaults with its own texts; both use the placeholders below. A request's subject or
 * message replaces the result.
 */
import { documentDate, euros } from '../../platform';

export type Language = 'de' | 'en';
export interface EmailTemplate {
  subject: string;
  body: string;
}

export const PLACEHOLDERS = ['number', 'document', 'total', 'due_date', 'seller', 'customer'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

export const DEFAULT_TEMPLATES: Record<Language, EmailTemplate> = {
  de: {
    subject: '{document} {number}',
    body: 'Sehr geehrte Damen und Herren,\n\nanbei erhalten Sie unsere {document} {number} über {total}{due_date}.\n\nMit freundlichen Grüßen\n{seller}\n',
  },
  en: {
    subject: '{document} {number}',
    body: 'Dear Sir or Madam,\n\nPlease find attached our {document} {number} for {total}{due_date}.\n\nKind regards\n{seller}\n',
  },
};

export interface EmailTextInput {
  language: Language;
  number: string;
  creditNote: boolean;
  total: string; // decimal string, EUR
  dueDate?: string; // YYYY-MM-DD
  seller: string;
  customer: string;
}

// one date format per language, the PDFs' (04.12.2026 / 4 Dec 2026)
const money = euros;
const day = documentDate;

/** Placeholders a template uses that do not exist (a PUT with them answers 400). */
export function unknownPlaceholders(text: string): string[] {
  return [...text.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!).filter((p) => !(PLACEHOLDERS as readonly string[]).includes(p));
}

export function emailTexts(i: EmailTextInput, template: EmailTemplate = DEFAULT_TEMPLATES[i.language]): { subject: string; text: string } {
  const de = i.language === 'de';
  const values: Record<Placeholder, string> = {
    number: i.number,
    // a credit note corrects an invoice (Rechnungskorrektur): "Gutschrift" is self-billing in § 14 (2) UStG terms
    document: i.creditNote ? (de ? 'Rechnungskorrektur' : 'credit note') : de ? 'Rechnung' : 'invoice',
    total: money(i.total, i.language),
    due_date: !i.creditNote && i.dueDate ? (de ? `, zahlbar bis zum ${day(i.dueDate, 'de')}` : `, payable by ${day(i.dueDate, 'en')}`) : '',
    seller: i.seller,
    customer: i.customer,
  };
  const fill = (t: string) => t.replace(/\{([a-z_]+)\}/g, (all, p: string) => (p in values ? values[p as Placeholder] : all));
  const subject = fill(template.subject);
  return { subject: subject.charAt(0).toUpperCase() + subject.slice(1), text: fill(template.body) };
}
