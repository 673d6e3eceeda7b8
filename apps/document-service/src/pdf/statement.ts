import { Canvas } from './canvas';
import { checkDecimal, formatAmount, formatDate, formatIban, formatMoney, formatPeriod, isZero } from './format';
import { CONTENT, mm } from './geometry';
import { labelsFor } from './labels';
import { finishPages, openLetter } from './letter';
import { createPdfADocument } from './pdfa';
import { FlowTable, type TableRow } from './table';
import { DEFAULT_TEMPLATE_ID, themeFor } from './templates';
import type { AccountStatement, RenderStatementOptions } from './types';

const ENTRY_TYPES = new Set(['invoice', 'credit_note', 'payment', 'discount', 'refund', 'adjustment', 'reminder_fee', 'interest']);

function validate(s: AccountStatement): void {
  if (!s || typeof s !== 'object') throw new RangeError('statement is required');
  if (!s.company?.name || !s.company.address) throw new RangeError('statement.company with name and address is required');
  if (!s.customer?.name || !s.customer.address) throw new RangeError('statement.customer with name and address is required');
  if (!Array.isArray(s.entries)) throw new RangeError('statement.entries must be an array');
  s.entries.forEach((e, i) => {
    if (!ENTRY_TYPES.has(e.type))
      throw new RangeError(`statement.entries[${i}].type ${JSON.stringify(e.type)} is not one of ${[...ENTRY_TYPES].join(', ')}`);
    formatDate(e.date, 'en');
    checkDecimal(e.balance, `statement.entries[${i}].balance`);
    if (e.debit !== undefined) checkDecimal(e.debit, `statement.entries[${i}].debit`);
    if (e.credit !== undefined) checkDecimal(e.credit, `statement.entries[${i}].credit`);
  });
  // Formatting validates every amount and date; fail before any drawing happens.
  formatDate(s.from, 'en');
  formatDate(s.to, 'en');
  formatAmount(s.openingBalance, 'en');
  formatAmount(s.closingBalance, 'en');
}

/** Whether a balance string is negative (credit in the customer's favour), decided on the sign only. */
function isNegative(amount: string): boolean {
  return amount.trim().startsWith('-') && !isZero(amount);
}

/** Customer account statement: opening balance, every booking with running balance, closing balance. */
export async function renderStatementPdf(statement: AccountStatement, opts: RenderStatementOptions = {}): Promise<Buffer> {
  validate(statement);
  const theme = themeFor(opts.template ?? DEFAULT_TEMPLATE_ID);
  const lang = statement.language;
  const l = labelsFor(lang);
  const currency = statement.currency ?? 'EUR';
  const { doc, result } = createPdfADocument({
    lang,
    fonts: theme.fonts,
    title: l.statement,
    author: statement.company.name,
    creationDate: opts.creationDate,
  });
  try {
    const c = new Canvas(doc, theme);
    const rows: [string, string][] = [
      [l.statementDate, formatDate(statement.statementDate ?? statement.to, lang)],
      [l.statementPeriod, formatPeriod({ start: statement.from, end: statement.to }, lang)],
    ];
    if (statement.customer.customerNumber) rows.push([l.customerNumber, statement.customer.customerNumber]);
    if (statement.customer.vatId) rows.push([l.customerVatId, statement.customer.vatId]);
    const flow = openLetter(c, {
      sender: statement.company,
      recipient: statement.customer,
      logo: opts.logo,
      lang,
      info: rows,
      subject: l.statement,
      subjectGap: 4,
      runningHead: `${l.statement} \u00b7 ${l.continued}`,
    });
    flow.y += c.text(l.intro.statement, CONTENT.left, flow.y, { size: 9, width: CONTENT.width }) + mm(4);

    const money = (v: string | undefined): string => (v && !isZero(v) ? formatAmount(v, lang) : '');
    const tableRows: TableRow[] = [
      {
        cells: [formatDate(statement.from, lang), '', l.openingBalance, '', '', formatAmount(statement.openingBalance, lang)],
        bold: true,
      },
      ...statement.entries.map((e) => ({
        cells: [
          formatDate(e.date, lang),
          e.documentNumber,
          l.entryType[e.type],
          money(e.debit),
          money(e.credit),
          formatAmount(e.balance, lang),
        ],
      })),
      {
        cells: [formatDate(statement.to, lang), '', l.closingBalance, '', '', formatAmount(statement.closingBalance, lang)],
        bold: true,
        ruleAbove: true,
      },
    ];
    new FlowTable(c, flow, [
      { header: l.date, width: 64 },
      { header: l.document, width: 0 },
      { header: l.type, width: 92 },
      { header: `${l.debit} (${currency})`, width: 70, align: 'right' },
      { header: `${l.credit} (${currency})`, width: 70, align: 'right' },
      { header: `${l.balance} (${currency})`, width: 76, align: 'right' },
    ]).render(tableRows);

    flow.y += mm(5);
    const closing = statement.closingBalance;
    const summary = isZero(closing)
      ? l.balanceSettled
      : isNegative(closing)
        ? `${l.balanceInYourFavour}: ${formatMoney(closing.trim().slice(1), lang, currency)}`
        : `${l.balanceInOurFavour}: ${formatMoney(closing, lang, currency)}`;
    const pay = statement.companyPayment;
    const lines = [summary];
    if (!isZero(closing) && !isNegative(closing) && pay?.iban) {
      lines.push(l.transferTo, `${l.iban} ${formatIban(pay.iban)}${pay.bic ? `   ${l.bic} ${pay.bic}` : ''}`);
    }
    const text = lines.join('\n');
    flow.ensure(c.height(text, { size: 9.5, width: CONTENT.width }) + 4);
    flow.y += c.text(text, CONTENT.left, flow.y, { size: 9.5, width: CONTENT.width, bold: false });

    finishPages(c, { party: statement.company, payment: statement.companyPayment }, l, lang);
  } catch (err) {
    doc.end();
    await result.catch(() => undefined);
    throw err;
  }
  doc.end();
  return result;
}
