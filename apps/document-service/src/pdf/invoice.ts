import type { EInvoice, InvoiceLine } from '@inv/einvoice';
import { Canvas } from './canvas';
import { Flow } from './flow';
import {
  checkDecimal,
  formatAmount,
  formatDate,
  formatIban,
  formatMoney,
  formatPercent,
  formatPeriod,
  formatQuantity,
  formatUnitPrice,
  isZero,
} from './format';
import { girocodeFor } from '../domain/girocode';
import { CONTENT, mm } from './geometry';
import { isSmallBusinessReason, labelsFor, unitName, vatCategoryName, vatLabel, type Labels } from './labels';
import { finishPages, openLetter } from './letter';
import { createPdfADocument, embedSupplement, embedXml } from './pdfa';
import { drawQr, qrMatrix, QUIET_ZONE_MODULES } from './qr';
import { FlowTable, type CellPart, type TableRow } from './table';
import { themeFor } from './templates';
import type { PdfTotals, RenderInvoiceOptions } from './types';

function validate(invoice: EInvoice, totals: PdfTotals): void {
  if (!invoice || typeof invoice !== 'object') throw new RangeError('invoice is required');
  if (!invoice.number) throw new RangeError('invoice.number is required');
  if (!Array.isArray(invoice.lines) || invoice.lines.length === 0) throw new RangeError('invoice.lines must not be empty');
  if (!totals || !Array.isArray(totals.lines) || !Array.isArray(totals.vatBreakdown)) {
    throw new RangeError('opts.totals is required (computeTotals from @inv/money)');
  }
  if (totals.lines.length !== invoice.lines.length) {
    throw new RangeError(`totals.lines has ${totals.lines.length} entries, invoice.lines ${invoice.lines.length}`);
  }
  // Every amount is checked up front so that a bad value fails the call before anything is drawn.
  for (const key of ['lineNetTotal', 'vatTotal', 'taxInclusiveTotal', 'amountDue'] as const) checkDecimal(totals[key], `totals.${key}`);
  if (totals.prepaidAmount !== undefined) checkDecimal(totals.prepaidAmount, 'totals.prepaidAmount');
  totals.lines.forEach((line, i) => checkDecimal(line.net, `totals.lines[${i}].net`));
  totals.vatBreakdown.forEach((vat, i) => {
    checkDecimal(vat.taxableAmount, `totals.vatBreakdown[${i}].taxableAmount`);
    checkDecimal(vat.taxAmount, `totals.vatBreakdown[${i}].taxAmount`);
  });
}

function infoRows(invoice: EInvoice, l: Labels): [string, string][] {
  const lang = invoice.language;
  const rows: [string, string][] = [[invoice.typeCode === '381' ? l.creditNoteNumber : l.invoiceNumber, invoice.number]];
  if (invoice.customerNumber !== undefined) rows.push([l.customerNumber, String(invoice.customerNumber)]);
  rows.push([invoice.typeCode === '381' ? l.creditNoteDate : l.issueDate, formatDate(invoice.issueDate, lang)]);
  if (invoice.period) rows.push([l.servicePeriod, formatPeriod(invoice.period, lang)]);
  if (invoice.deliveryDate) rows.push([l.deliveryDate, formatDate(invoice.deliveryDate, lang)]);
  if (invoice.dueDate) rows.push([l.dueDate, formatDate(invoice.dueDate, lang)]);
  if (invoice.buyerReference) rows.push([l.buyerReference, invoice.buyerReference]);
  if (invoice.orderReference) rows.push([l.orderReference, invoice.orderReference]);
  if (invoice.buyer.vatId) rows.push([l.customerVatId, invoice.buyer.vatId]);
  if (invoice.seller.contact?.name) rows.push([l.contact, invoice.seller.contact.name]);
  return rows;
}

function lineCell(line: InvoiceLine, allowance: string | undefined, invoice: EInvoice, l: Labels): CellPart[] {
  const lang = invoice.language;
  const cell: CellPart[] = [{ text: line.name }];
  if (line.description) cell.push({ text: line.description, muted: true, size: 7.5 });
  if (line.period) cell.push({ text: `${l.servicePeriod}: ${formatPeriod(line.period, lang)}`, muted: true, size: 7.5 });
  if (line.discount && allowance && !isZero(allowance)) {
    const what = line.discount.type === 'PERCENTAGE' ? ` ${formatPercent(line.discount.value, lang)}` : '';
    const reason = line.discount.reason ? ` (${line.discount.reason})` : '';
    // Shown as a negative amount by prefixing the sign: the renderer never does arithmetic.
    cell.push({ text: `${l.discount}${what}${reason}: \u2212${formatAmount(allowance, lang)}`, muted: true, size: 7.5 });
  }
  return cell;
}

function positionRows(invoice: EInvoice, totals: PdfTotals, l: Labels): TableRow[] {
  const lang = invoice.language;
  // Positions are numbered 1..n in the document (as BT-126 in the XML), not by their company-wide ids.
  return invoice.lines.map((line, i) => ({
    cells: [
      String(i + 1),
      lineCell(line, totals.lines[i].allowance, invoice, l),
      `${formatQuantity(line.quantity, lang)} ${unitName(line.unitCode, lang, line.quantity)}`,
      formatUnitPrice(line.unitPrice, lang),
      formatPercent(line.vat.rate, lang),
      formatAmount(totals.lines[i].net, lang),
    ],
  }));
}

const TOTALS_WIDTH = mm(66);
const SUMMARY_GAP = mm(6);

interface TotalsRow {
  label: string;
  amount: string;
  strong?: boolean;
}

function totalsRows(invoice: EInvoice, totals: PdfTotals, l: Labels): TotalsRow[] {
  const lang = invoice.language;
  const rows: TotalsRow[] = [
    { label: l.totalNet, amount: formatMoney(totals.lineNetTotal, lang) },
    { label: l.totalVat, amount: formatMoney(totals.vatTotal, lang) },
    { label: l.totalGross, amount: formatMoney(totals.taxInclusiveTotal, lang), strong: true },
  ];
  if (totals.prepaidAmount && !isZero(totals.prepaidAmount)) {
    rows.push({ label: l.prepaid, amount: `\u2212${formatMoney(totals.prepaidAmount, lang)}` });
    rows.push({ label: l.amountDue, amount: formatMoney(totals.amountDue, lang), strong: true });
  }
  return rows;
}

const totalsRowHeight = (c: Canvas, row: TotalsRow): number =>
  c.lineHeight({ size: row.strong ? 10.5 : 9.5, bold: row.strong }) + (row.strong ? 7 : 5);

/** Right-aligned totals starting at y; returns the y below. */
function drawTotals(c: Canvas, y: number, rows: TotalsRow[]): number {
  const left = CONTENT.right - TOTALS_WIDTH;
  for (const row of rows) {
    if (row.strong) {
      c.hline(left, CONTENT.right, y, c.theme.colors.text, 0.8);
      y += 3;
    }
    const style = { size: row.strong ? 10.5 : 9.5, bold: row.strong };
    c.text(row.label, left + 4, y, style);
    c.textRight(row.amount, CONTENT.right - 4, y, style);
    y += totalsRowHeight(c, row) - (row.strong ? 3 : 0);
  }
  return y;
}

const exemptionReason = (invoice: EInvoice, category: string): string | undefined =>
  invoice.exemptions?.[category as keyof NonNullable<EInvoice['exemptions']>]?.reason?.trim() || undefined;

/** "7", "7.0" and "7.00" are the same rate (compared as strings, no arithmetic). */
const plainRate = (rate: string): string => (rate.includes('.') ? rate.replace(/0+$/, '').replace(/\.$/, '') : rate);

function vatRows(invoice: EInvoice, totals: PdfTotals): TableRow[] {
  const lang = invoice.language;
  // the rate in force is the one of the date of supply (delivery, end of the service period), else of the issue date
  const date = invoice.deliveryDate ?? invoice.period?.end ?? invoice.issueDate;
  return totals.vatBreakdown.map((vat) => ({
    cells: [
      vatLabel(
        {
          category: vat.category,
          rate: vat.rate,
          sellerCountry: invoice.seller.address?.countryCode,
          date,
          treatment: invoice.lines.find((l) => l.vat.category === vat.category && plainRate(l.vat.rate) === plainRate(vat.rate))?.vat
            .treatment,
          exemptionReason: exemptionReason(invoice, vat.category),
        },
        lang,
      ),
      formatPercent(vat.rate, lang),
      formatAmount(vat.taxableAmount, lang),
      formatAmount(vat.taxAmount, lang),
    ],
  }));
}

/**
 * The legal statement each non-standard VAT category needs on the document (reverse charge,
 * intra-community supply, export, exemption), with the exemption reason the invoice gives.
 */
function vatNotes(invoice: EInvoice, totals: PdfTotals): string[] {
  const lang = invoice.language;
  const seen = new Set<string>();
  const notes: string[] = [];
  for (const vat of totals.vatBreakdown) {
    if (vat.category === 'S' || seen.has(vat.category)) continue;
    seen.add(vat.category);
    const given = exemptionReason(invoice, vat.category);
    // a Kleinunternehmer's note (§ 19 UStG) says it all
    if (vat.category === 'E' && isSmallBusinessReason(given)) {
      notes.push(given!);
      continue;
    }
    const text = vatCategoryName(vat.category, lang);
    const reason = given && !text.toLowerCase().includes(given.toLowerCase()) ? ` \u2013 ${given}` : '';
    notes.push(`${text}${reason}`);
  }
  return notes;
}

/** VAT breakdown table (left) and totals (right) side by side, kept together on one page. */
function drawSummary(c: Canvas, flow: Flow, invoice: EInvoice, totals: PdfTotals, l: Labels): void {
  const rows = totalsRows(invoice, totals, l);
  const totalsHeight = rows.reduce((sum, row) => sum + totalsRowHeight(c, row), 0);
  const region = { x: CONTENT.left, width: CONTENT.width - TOTALS_WIDTH - SUMMARY_GAP };
  const table = new FlowTable(
    c,
    flow,
    [
      { header: l.vatCategory, width: 0 },
      { header: l.vatRate, width: 46, align: 'right' },
      { header: l.taxableAmount, width: 52, align: 'right' },
      { header: l.taxAmount, width: 60, align: 'right' },
    ],
    region,
  );
  const vat = vatRows(invoice, totals);
  const headingHeight = c.lineHeight({ size: 8, bold: true }) + 3;
  flow.ensure(Math.max(totalsHeight, table.measure(vat) + headingHeight) + mm(8));
  const top = flow.y + mm(3);
  const totalsBottom = drawTotals(c, top, rows);
  flow.y = top;
  flow.y += c.text(`${l.vatBreakdown} (${invoice.currency})`, region.x, flow.y, { size: 8, bold: true, color: c.theme.colors.muted }) + 3;
  table.render(vat);
  flow.y = Math.max(flow.y, totalsBottom) + mm(4);
}

/** Heading followed by a paragraph, kept together on one page. */
function paragraph(c: Canvas, flow: Flow, heading: string | null, lines: string[], bold = false): void {
  const text = lines.filter(Boolean).join('\n');
  if (!text) return;
  const style = { size: 9, width: CONTENT.width, maxHeight: 300, bold };
  const headingHeight = heading ? c.lineHeight({ size: 9.5, bold: true }) + 3 : 0;
  flow.ensure(headingHeight + c.height(text, style) + 6);
  if (heading) flow.y += c.text(heading, CONTENT.left, flow.y, { size: 9.5, bold: true, color: c.theme.colors.accent }) + 3;
  flow.y += c.text(text, CONTENT.left, flow.y, style) + 6;
}

/**
 * The payment terms for a human reader: without the machine lines XRechnung defines for Skonto
 * (`#SKONTO#TAGE=10#PROZENT=2.00#`, BR-DE-18), which stay in the XML.
 */
export const readableTerms = (text: string | undefined) =>
  text
    ?.split('\n')
    .filter((line) => !/^#.*#$/.test(line.trim()))
    .join('\n')
    .trim() || undefined;

function paymentLines(invoice: EInvoice, totals: PdfTotals, l: Labels): string[] {
  const lang = invoice.language;
  const due = invoice.dueDate ? formatDate(invoice.dueDate, lang) : undefined;
  const pay = invoice.payment;
  const terms = readableTerms(invoice.paymentTerms);
  // A credit note asks for no payment; print its terms (e.g. how the refund is made) if there are any.
  if (invoice.typeCode === '381') return [terms ?? ''];
  if (isZero(totals.amountDue) || pay?.meansCode === '1') return [terms ?? '', l.noPaymentDue];
  const lines = [terms ?? l.paymentTermsDefault(due)];
  if (pay?.iban) {
    lines.push(
      l.transferTo,
      `${l.accountHolder}: ${pay.accountName ?? invoice.seller.name}`,
      `${l.iban}: ${formatIban(pay.iban)}${pay.bic ? `   ${l.bic}: ${pay.bic}` : ''}`,
      `${l.remittance}: ${pay.remittanceInfo ?? invoice.number}`,
    );
  }
  return lines;
}

const GIROCODE_WIDTH = mm(30); // the symbol without its quiet zone: well above the ~2.5 cm banking apps scan easily
const GIROCODE_COLUMN = mm(44);
const GIROCODE_GAP = mm(5);

const hasSkonto = (invoice: EInvoice): boolean =>
  invoice.earlyPaymentDiscount !== undefined || /#SKONTO#/i.test(invoice.paymentTerms ?? '');

/**
 * The payment paragraph; with a GiroCode (domain/girocode.ts decides) the text takes the left part and the code
 * with its caption the right column, both kept together on one page. The code keeps its quiet zone free: the
 * column gap on the left, the margin on the right, the caption starts below it.
 */
function paymentBlock(c: Canvas, flow: Flow, invoice: EInvoice, totals: PdfTotals, l: Labels, testMode = false): void {
  const lines = paymentLines(invoice, totals, l);
  const code = girocodeFor(invoice, totals.amountDue);
  // a test invoice carries no GiroCode: scanned, it would start a real transfer to the company's live account
  if (!code.ok || testMode) {
    paragraph(c, flow, l.payment, lines);
    return;
  }
  const matrix = qrMatrix(code.payload);
  const quiet = (GIROCODE_WIDTH / matrix.size) * QUIET_ZONE_MODULES;
  const caption = [l.girocode, l.girocodeAmount(formatMoney(totals.amountDue, invoice.language), hasSkonto(invoice))];
  const captionStyle = { size: 7, width: GIROCODE_COLUMN, align: 'center' as const, maxHeight: 60 };
  const captionHeight = c.height(caption[0], { ...captionStyle, bold: true }) + c.height(caption[1], captionStyle);
  const codeHeight = GIROCODE_WIDTH + quiet + captionHeight;

  const text = lines.filter(Boolean).join('\n');
  const textStyle = { size: 9, width: CONTENT.width - GIROCODE_COLUMN - GIROCODE_GAP, maxHeight: 300 };
  const headingHeight = c.lineHeight({ size: 9.5, bold: true }) + 3;
  const textHeight = c.height(text, textStyle);
  flow.ensure(headingHeight + Math.max(textHeight, codeHeight) + 6);

  const top = flow.y;
  c.text(l.payment, CONTENT.left, top, { size: 9.5, bold: true, color: c.theme.colors.accent });
  const bodyTop = top + headingHeight;
  c.text(text, CONTENT.left, bodyTop, textStyle);
  const column = CONTENT.right - GIROCODE_COLUMN;
  drawQr(c, matrix, column + (GIROCODE_COLUMN - GIROCODE_WIDTH) / 2, bodyTop, GIROCODE_WIDTH);
  let y = bodyTop + GIROCODE_WIDTH + quiet;
  y += c.text(caption[0], column, y, { ...captionStyle, bold: true });
  c.text(caption[1], column, y, { ...captionStyle, color: c.theme.colors.muted });
  flow.y = bodyTop + Math.max(textHeight, codeHeight) + 6;
}

export async function renderInvoicePdf(invoice: EInvoice, opts: RenderInvoiceOptions): Promise<Buffer> {
  validate(invoice, opts?.totals);
  const theme = themeFor(opts.template);
  const lang = invoice.language;
  const l = labelsFor(lang);
  const title = invoice.typeCode === '381' ? l.creditNote : l.invoice;
  const date = opts.creationDate ?? new Date();
  const { doc, result } = createPdfADocument({
    lang,
    fonts: theme.fonts,
    title: `${title} ${invoice.number}`,
    author: invoice.seller.name,
    creationDate: date,
  });
  try {
    const c = new Canvas(doc, theme);
    const flow = openLetter(c, {
      sender: invoice.seller,
      recipient: invoice.buyer,
      logo: opts.logo,
      lang,
      info: infoRows(invoice, l),
      subject: `${title} ${invoice.number}`,
      subjectGap: 4,
      runningHead: `${title} ${invoice.number} \u00b7 ${l.continued}`,
    });
    const sub: string[] = [];
    if (invoice.precedingInvoice) {
      const p = invoice.precedingInvoice;
      sub.push(l.precedingInvoice(p.number, p.issueDate ? formatDate(p.issueDate, lang) : undefined));
    }
    sub.push(invoice.typeCode === '381' ? l.intro.creditNote : l.intro.invoice);
    flow.y += c.text(sub.join('\n'), CONTENT.left, flow.y, { size: 9, width: CONTENT.width }) + mm(3);

    new FlowTable(c, flow, [
      { header: l.pos, width: 28 },
      { header: l.description, width: 0 },
      { header: l.quantity, width: 60, align: 'right' },
      { header: l.unitPrice, width: 62, align: 'right' },
      { header: l.vatRate, width: 50, align: 'right' },
      { header: `${l.amount} (${invoice.currency})`, width: 74, align: 'right' },
    ]).render(positionRows(invoice, opts.totals, l));

    drawSummary(c, flow, invoice, opts.totals, l);
    const legal = vatNotes(invoice, opts.totals);
    if (legal.length > 0) paragraph(c, flow, null, legal, true);

    const dateNote = !invoice.period && !invoice.deliveryDate ? l.serviceDateIsIssueDate : '';
    paymentBlock(c, flow, invoice, opts.totals, l, opts.testMode);
    // a note already printed as the legal VAT statement (the Kleinunternehmer's) is not repeated
    const notes = (invoice.notes ?? []).filter((note) => !legal.includes(note.trim()));
    if (notes.length || dateNote) paragraph(c, flow, l.notes, [...notes, dateNote]);

    finishPages(c, { party: invoice.seller, payment: invoice.payment }, l, lang, opts.draft ? l.draft : undefined, opts.testMode);
    if (opts.attachment) embedXml(doc, opts.attachment, date);
    for (const file of opts.supplements ?? []) embedSupplement(doc, file, date);
  } catch (err) {
    doc.end(); // release the stream; the caller gets the original error
    await result.catch(() => undefined);
    throw err;
  }
  doc.end();
  return result;
}
