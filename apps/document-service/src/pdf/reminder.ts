import type { Party, PaymentInstructions } from '@inv/einvoice';
import { toDecimal } from '@inv/money';
import { Canvas } from './canvas';
import { checkDecimal, formatAmount, formatDate, formatIban, formatMoney, formatPercent, isZero, type PdfLanguage } from './format';
import { CONTENT, mm } from './geometry';
import { labelsFor } from './labels';
import { finishPages, openLetter } from './letter';
import { createPdfADocument } from './pdfa';
import { FlowTable, type TableRow } from './table';
import { DEFAULT_TEMPLATE_ID, themeFor } from './templates';
import type { TemplateId } from './types';

/**
 * A reminder (payment reminder, overdue notice or final reminder): letterhead, address window, info block (date, invoice number and date, due
 * date, customer number), the title of the level, the company's text, and a table of the invoice, its open amount,
 * fees, interest (one line per period of the base rate) and the total to pay. Amounts are decimal strings; the
 * renderer formats them and does no arithmetic (invoice-service computed them).
 */
export interface Reminder {
  language: PdfLanguage;
  company: Party;
  companyPayment?: PaymentInstructions;
  customer: Party & { customerNumber?: string };
  level: number;
  /** The level's name: "1. Mahnung", "Payment reminder". */
  title: string;
  date: string;
  text: string;
  invoiceNumber: string;
  invoiceDate: string;
  dueDate: string;
  invoiceTotal: string;
  openAmount: string;
  fees: string;
  flatFee: string;
  interest: string;
  interestPeriods: readonly { from: string; to: string; days: number; ratePercent: string }[];
  total: string;
  payBy: string;
}

export interface RenderReminderOptions {
  template?: TemplateId;
  logo?: Buffer;
  creationDate?: Date;
}

const L = {
  de: {
    date: 'Datum',
    invoiceNumber: 'Rechnungsnummer',
    invoiceDate: 'Rechnungsdatum',
    dueDate: 'Fällig seit',
    customerNumber: 'Kundennummer',
    item: 'Position',
    amount: 'Betrag',
    invoice: (n: string, d: string) => `Rechnung ${n} vom ${d}`,
    paid: 'bereits gezahlt / gutgeschrieben',
    open: 'Offener Rechnungsbetrag',
    fees: 'Mahngebühren',
    flatFee: 'Verzugspauschale (§ 288 Abs. 5 BGB)',
    interest: (from: string, to: string, days: number, rate: string) => `Verzugszinsen ${from} – ${to} (${days} Tage, ${rate} p. a.)`,
    interestTotal: 'Verzugszinsen gesamt',
    total: 'Zu zahlender Betrag',
    payBy: (d: string, amount: string) => `Bitte überweisen Sie ${amount} bis zum ${d}.`,
    interestNote: 'Verzugszinsen nach § 288 BGB: Basiszinssatz zuzüglich Zuschlag, tagesgenau (Tage/365).',
    continued: 'Fortsetzung',
  },
  en: {
    date: 'Date',
    invoiceNumber: 'Invoice number',
    invoiceDate: 'Invoice date',
    dueDate: 'Due date',
    customerNumber: 'Customer number',
    item: 'Item',
    amount: 'Amount',
    invoice: (n: string, d: string) => `Invoice ${n} dated ${d}`,
    paid: 'Less payments and credits',
    open: 'Amount outstanding',
    fees: 'Reminder fees',
    flatFee: 'Late payment compensation (§ 288 (5) BGB)',
    interest: (from: string, to: string, days: number, rate: string) =>
      `Late payment interest ${from} – ${to} (${days} days at ${rate} a year)`,
    interestTotal: 'Total late payment interest',
    total: 'Total now due',
    payBy: (d: string, amount: string) => `Please transfer ${amount} by ${d}.`,
    interestNote:
      'Late payment interest under § 288 of the German Civil Code (BGB): the statutory margin above the base rate, calculated daily on an actual/365 basis.',
    continued: 'continued',
  },
} as const;

function validate(r: Reminder): void {
  if (!r || typeof r !== 'object') throw new RangeError('reminder is required');
  if (!r.company?.name || !r.company.address) throw new RangeError('reminder.company with name and address is required');
  if (!r.customer?.name || !r.customer.address) throw new RangeError('reminder.customer with name and address is required');
  for (const k of ['invoiceTotal', 'openAmount', 'fees', 'flatFee', 'interest', 'total'] as const) checkDecimal(r[k], `reminder.${k}`);
  for (const k of ['date', 'invoiceDate', 'dueDate', 'payBy'] as const) formatDate(r[k], 'en');
  r.interestPeriods.forEach((p, i) => {
    formatDate(p.from, 'en');
    formatDate(p.to, 'en');
    checkDecimal(p.ratePercent, `reminder.interestPeriods[${i}].ratePercent`);
  });
}

export async function renderReminderPdf(reminder: Reminder, opts: RenderReminderOptions = {}): Promise<Buffer> {
  validate(reminder);
  const theme = themeFor(opts.template ?? DEFAULT_TEMPLATE_ID);
  const lang = reminder.language;
  const l = labelsFor(lang);
  const t = L[lang];
  const { doc, result } = createPdfADocument({
    lang,
    fonts: theme.fonts,
    title: `${reminder.title} ${reminder.invoiceNumber}`,
    author: reminder.company.name,
    creationDate: opts.creationDate,
  });
  try {
    const c = new Canvas(doc, theme);
    const rows: [string, string][] = [
      [t.date, formatDate(reminder.date, lang)],
      [t.invoiceNumber, reminder.invoiceNumber],
      [t.invoiceDate, formatDate(reminder.invoiceDate, lang)],
      [t.dueDate, formatDate(reminder.dueDate, lang)],
    ];
    if (reminder.customer.customerNumber) rows.push([t.customerNumber, reminder.customer.customerNumber]);
    const flow = openLetter(c, {
      sender: reminder.company,
      recipient: reminder.customer,
      logo: opts.logo,
      lang,
      info: rows,
      subject: `${reminder.title} \u2013 ${reminder.invoiceNumber}`,
      subjectGap: mm(3),
      runningHead: `${reminder.title} \u00b7 ${t.continued}`,
    });
    // the text's last paragraph (the closing: "Mit freundlichen Grüßen / Seller GmbH") goes below the table
    const paragraphs = reminder.text
      .trim()
      .split(/\n{2,}/)
      .filter(Boolean);
    const signOff = paragraphs.length > 1 ? paragraphs.pop() : undefined;
    const paragraph = (value: string, style: { size: number } = { size: 9.5 }) => {
      flow.ensure(c.height(value, { ...style, width: CONTENT.width }) + 4);
      flow.y += c.text(value, CONTENT.left, flow.y, { ...style, width: CONTENT.width }) + mm(2.5);
    };
    for (const p of paragraphs) paragraph(p);
    if (paragraphs.length) flow.y += mm(2);

    const money = (v: string) => formatAmount(v, lang);
    const tableRows: TableRow[] = [
      { cells: [t.invoice(reminder.invoiceNumber, formatDate(reminder.invoiceDate, lang)), money(reminder.invoiceTotal)] },
    ];
    const paid = toDecimal(reminder.invoiceTotal).minus(reminder.openAmount);
    if (paid.gt(0)) tableRows.push({ cells: [t.paid, `\u2212${money(paid.toFixed(2))}`] });
    tableRows.push({ cells: [t.open, money(reminder.openAmount)], bold: true, ruleAbove: true });
    if (!isZero(reminder.fees)) tableRows.push({ cells: [t.fees, money(reminder.fees)] });
    if (!isZero(reminder.flatFee)) tableRows.push({ cells: [t.flatFee, money(reminder.flatFee)] });
    for (const p of reminder.interestPeriods) {
      tableRows.push({
        cells: [[{ text: t.interest(formatDate(p.from, lang), formatDate(p.to, lang), p.days, formatPercent(p.ratePercent, lang)) }], ''],
      });
    }
    if (reminder.interestPeriods.length) tableRows.push({ cells: [t.interestTotal, money(reminder.interest)] });
    tableRows.push({ cells: [t.total, money(reminder.total)], bold: true, ruleAbove: true });
    new FlowTable(c, flow, [
      { header: t.item, width: 0 },
      { header: `${t.amount} (EUR)`, width: 90, align: 'right' },
    ]).render(tableRows);

    flow.y += mm(5);
    const pay = reminder.companyPayment;
    const lines = [t.payBy(formatDate(reminder.payBy, lang), formatMoney(reminder.total, lang))];
    if (pay?.iban) lines.push(`${l.iban} ${formatIban(pay.iban)}${pay.bic ? `   ${l.bic} ${pay.bic}` : ''}`);
    paragraph(lines.join('\n'));
    if (signOff) paragraph(signOff);
    if (reminder.interestPeriods.length) {
      flow.y += mm(2);
      paragraph(t.interestNote, { size: 8 });
    }

    finishPages(c, { party: reminder.company, payment: reminder.companyPayment }, l, lang);
  } catch (err) {
    doc.end();
    await result.catch(() => undefined);
    throw err;
  }
  doc.end();
  return result;
}
