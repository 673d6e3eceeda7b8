import type { Party, PaymentInstructions, PostalAddress } from '@inv/einvoice';
import type { Canvas } from './canvas';
import { Flow } from './flow';
import { formatIban, type PdfLanguage } from './format';
import {
  ADDRESS_FIELD,
  BODY_TOP_FIRST,
  CONTENT,
  FOLD_MARKS,
  FOOTER,
  INFO_BLOCK,
  LETTERHEAD,
  LOGO_SLOT,
  MARGIN,
  PAGE,
  PUNCH_MARK,
  mm,
} from './geometry';
import type { Labels } from './labels';

// Region names come from ICU (Intl.DisplayNames) instead of a hand-kept country table.
const regionNames: Partial<Record<PdfLanguage, Intl.DisplayNames>> = {};
export function countryName(code: string, lang: PdfLanguage): string {
  const names = (regionNames[lang] ??= new Intl.DisplayNames([lang], { type: 'region' }));
  try {
    return names.of(code.toUpperCase()) ?? code;
  } catch {
    return code; // not a valid region code: print what we were given
  }
}

/** "12345 Köln" / "Milano MI 20121"-style city line; postal code first as in most EU countries. */
export function cityLine(address: PostalAddress): string {
  return [address.postalCode, address.city, address.subdivision && address.countryCode === 'IT' ? `(${address.subdivision})` : '']
    .filter(Boolean)
    .join(' ');
}

/**
 * Recipient lines for the envelope window (DIN 5008: name, contact, street, city; the country in
 * capitals on the last line, only for mail across borders). At most 6 lines fit the window.
 */
export function addressLines(party: Party, fromCountry: string, lang: PdfLanguage): string[] {
  const lines = [party.name];
  if (party.contact?.name && party.contact.name !== party.name) lines.push(party.contact.name);
  lines.push(party.address.line1);
  if (party.address.line2) lines.push(party.address.line2);
  lines.push(cityLine(party.address));
  if (party.address.countryCode.toUpperCase() !== fromCountry.toUpperCase()) {
    lines.push(countryName(party.address.countryCode, lang).toLocaleUpperCase(lang));
  }
  return lines.filter((l) => l.trim() !== '').slice(0, 6);
}

/** Seller name left as a word mark with address and contact below; the logo slot on the right. */
export function drawLetterhead(c: Canvas, seller: Party, logo: Buffer | undefined): void {
  const { colors } = c.theme;
  let y = LETTERHEAD.top;
  const leftWidth = logo ? LOGO_SLOT.x - CONTENT.left - mm(5) : CONTENT.width;
  y += c.text(seller.name, CONTENT.left, y, { bold: true, size: 14, color: colors.accent, width: leftWidth, maxHeight: 36 });
  y += 3;
  const address = [seller.address.line1, seller.address.line2, cityLine(seller.address)].filter(Boolean).join(' \u00b7 ');
  y += c.text(address, CONTENT.left, y, { size: 8, color: colors.muted, width: leftWidth });
  const contact = [seller.contact?.phone, seller.contact?.email].filter(Boolean).join(' \u00b7 ');
  if (contact) c.text(contact, CONTENT.left, y + 1, { size: 8, color: colors.muted, width: leftWidth });
  if (logo) {
    try {
      c.doc.image(logo, LOGO_SLOT.x, LOGO_SLOT.y, {
        fit: [LOGO_SLOT.width, LOGO_SLOT.height],
        align: 'right',
        valign: 'center',
      });
    } catch (err) {
      throw new RangeError(`logo must be a PNG or JPEG image: ${(err as Error).message}`);
    }
  }
}

/** Return address line (small, ruled) and recipient address inside the window. */
export function drawAddressWindow(c: Canvas, sender: Party, recipientLines: string[]): void {
  const { colors } = c.theme;
  const returnLine = [sender.name, sender.address.line1, cityLine(sender.address)].filter(Boolean).join(' \u00b7 ');
  const textWidth = ADDRESS_FIELD.width - (ADDRESS_FIELD.textX - ADDRESS_FIELD.x);
  const returnY = ADDRESS_FIELD.y + ADDRESS_FIELD.returnZoneHeight - mm(5);
  c.text(returnLine, ADDRESS_FIELD.textX, returnY, { size: 6.5, color: colors.muted, width: textWidth, maxHeight: 9 });
  c.hline(ADDRESS_FIELD.textX, ADDRESS_FIELD.textX + textWidth, returnY + 9, colors.rule, 0.4);
  let y = ADDRESS_FIELD.y + ADDRESS_FIELD.returnZoneHeight;
  recipientLines.forEach((line, i) => {
    y += c.text(line, ADDRESS_FIELD.textX, y, { size: 10, bold: i === 0, width: textWidth, maxHeight: 12 }) + 0.5;
  });
}

/**
 * Label/value rows of the information block; returns the y below the block. The label column is as wide as
 * its longest label (at least 22 mm), but never so wide that a value that fits the block (a service period
 * above all) has to wrap: then the long label wraps instead.
 */
export function drawInfoBlock(c: Canvas, rows: [string, string][], y = INFO_BLOCK.y): number {
  const size = 8.5;
  const minLabel = mm(22);
  const widestLabel = Math.max(0, ...rows.map(([label]) => c.width(label, { size }))) + mm(3);
  const widestValue = Math.max(0, ...rows.map(([, value]) => c.width(value, { size })).filter((w) => w <= INFO_BLOCK.width - minLabel)) + 1;
  const labelWidth = Math.max(minLabel, Math.min(widestLabel, INFO_BLOCK.width - widestValue));
  const valueX = INFO_BLOCK.x + labelWidth;
  const valueWidth = INFO_BLOCK.width - labelWidth;
  for (const [label, value] of rows) {
    const h = c.text(value, valueX, y, { size, width: valueWidth, maxHeight: 30 });
    const hl = c.text(label, INFO_BLOCK.x, y, { size, color: c.theme.colors.muted, width: labelWidth - mm(2), maxHeight: 30 });
    y += Math.max(h, hl, c.lineHeight({ size })) + 2.5;
  }
  return y;
}

/** What the first page of a letter opens with (invoice, credit note, reminder, statement). */
export interface LetterOpening {
  /** The company writing: letterhead, return address, and the name of the continuation pages' running head. */
  sender: Party;
  /** The addressee in the envelope window. */
  recipient: Party;
  logo?: Buffer;
  lang: PdfLanguage;
  /** The information block's label/value rows (the date, numbers, the customer number). */
  info: [string, string][];
  /** The subject line below the information block (bold, in the accent colour). */
  subject: string;
  /** Space below the subject line, in points. */
  subjectGap: number;
  /** The right side of the continuation pages' running head. */
  runningHead: string;
}

/**
 * The opening of a letter, the same for every document a company sends (DIN 5008): fold and punch marks, the
 * letterhead with the logo, the return address and the recipient in the envelope window, the information block,
 * then the subject line. Answers the flow of the body, which starts below the subject and opens continuation pages
 * with the running head.
 */
export function openLetter(c: Canvas, o: LetterOpening): Flow {
  drawFoldMarks(c);
  drawLetterhead(c, o.sender, o.logo);
  drawAddressWindow(c, o.sender, addressLines(o.recipient, o.sender.address.countryCode, o.lang));
  const infoBottom = drawInfoBlock(c, o.info);
  const flow = new Flow(c, Math.max(BODY_TOP_FIRST, infoBottom + mm(6)), () => drawContinuationHeader(c, o.sender.name, o.runningHead));
  const { theme } = c;
  flow.y += c.text(o.subject, CONTENT.left, flow.y, { size: theme.titleSize, bold: true, color: theme.colors.accent }) + o.subjectGap;
  return flow;
}

/** Fold marks (105 / 210 mm) and punch mark (148.5 mm) at the left edge, page 1 only. */
export function drawFoldMarks(c: Canvas): void {
  for (const y of FOLD_MARKS) c.hline(mm(4), mm(9), y, '#9a9a9a', 0.4);
  c.hline(mm(4), mm(11), PUNCH_MARK, '#9a9a9a', 0.4);
}

/**
 * Diagonal DRAFT / ENTWURF across the page, drawn last and semi-transparent so that it stays visible
 * over shaded table rows (PDF/A-2 and -3 allow transparency; the sRGB output intent covers blending).
 */
export function drawWatermark(c: Canvas, text: string): void {
  const doc = c.doc;
  const size = text.length > 6 ? 110 : 130;
  const width = c.width(text, { bold: true, size });
  doc.save();
  doc.rotate(-55, { origin: [PAGE.width / 2, PAGE.height / 2] });
  doc.fillOpacity(0.13);
  c.text(text, PAGE.width / 2 - width / 2, PAGE.height / 2 - size * 0.6, { bold: true, size, color: '#7a7a7a' });
  doc.restore();
}

/** Small running head on continuation pages. */
export function drawContinuationHeader(c: Canvas, left: string, right: string): void {
  const { colors } = c.theme;
  const y = mm(14);
  c.text(left, CONTENT.left, y, { size: 8, bold: true, color: colors.accent, width: CONTENT.width / 2 });
  c.textRight(right, CONTENT.right, y, { size: 8, color: colors.muted });
  c.hline(CONTENT.left, CONTENT.right, y + 14, colors.rule);
}

export interface FooterData {
  party: Party;
  payment?: PaymentInstructions;
}

/**
 * The company's data in four columns, on every page: address; contact; what § 35a GmbHG (§ 80 AktG, § 125a HGB)
 * asks for on business letters (managing directors, register court and number) with the VAT ID and tax number
 * (§ 14 UStG); bank account.
 */
export function footerColumns(data: FooterData, labels: Labels, lang: PdfLanguage): string[][] {
  const p = data.party;
  const col1 = [p.name, p.address.line1, p.address.line2 ?? '', cityLine(p.address), countryName(p.address.countryCode, lang)];
  // The contact person is the info block's (Ansprechpartner); here the managing directors, one per line.
  const directors = (p.managingDirectors ?? []).map((name) => name.trim()).filter(Boolean);
  const col2 = [
    p.contact?.phone ? `${labels.phone} ${p.contact.phone}` : '',
    p.contact?.email ? `${labels.email} ${p.contact.email}` : '',
    ...(directors.length ? [`${labels.managingDirectors(directors.length)}:`, ...directors] : []),
  ];
  const col3 = [
    p.registrationCourt ? `${labels.register}: ${p.registrationCourt}` : '',
    p.registrationId ?? '',
    p.vatId ? `${labels.vatId} ${p.vatId}` : '',
    p.taxNumber ? `${labels.taxNumber} ${p.taxNumber}` : '',
  ];
  const pay = data.payment;
  const col4 = pay?.iban
    ? [labels.bank, pay.accountName ?? '', `${labels.iban} ${formatIban(pay.iban)}`, pay.bic ? `${labels.bic} ${pay.bic}` : '']
    : [];
  return [col1, col2, col3, col4].map((col) => col.filter((l) => l.trim() !== ''));
}

/**
 * Column widths for the footer: each column gets its natural width, and the space left over is
 * shared equally; if the columns do not fit, they are scaled down and wrap.
 */
function footerWidths(c: Canvas, columns: string[][], total: number, gap: number, size: number): number[] {
  const natural = columns.map((col) => Math.max(...col.map((line) => c.width(line, { size }))) + 1);
  const free = total - gap * (columns.length - 1) - natural.reduce((a, b) => a + b, 0);
  if (free >= 0) return natural.map((w) => w + free / columns.length);
  const scale = (total - gap * (columns.length - 1)) / natural.reduce((a, b) => a + b, 0);
  return natural.map((w) => w * scale);
}

/**
 * Footer and "page n of N" on every buffered page (plus the draft watermark on top); call once after
 * the last page.
 */
export function finishPages(c: Canvas, footer: FooterData, labels: Labels, lang: PdfLanguage, watermark?: string): void {
  const doc = c.doc;
  const { start, count } = doc.bufferedPageRange();
  const size = 6.2;
  const columns = footerColumns(footer, labels, lang).filter((col) => col.length > 0);
  const gap = mm(3);
  const widths = footerWidths(c, columns, CONTENT.width, gap, size);
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    c.textRight(labels.page(i - start + 1, count), CONTENT.right, FOOTER.ruleY - mm(5), { size: 7.5, color: c.theme.colors.muted });
    c.hline(CONTENT.left, CONTENT.right, FOOTER.ruleY, c.theme.colors.rule);
    let x = MARGIN.left;
    columns.forEach((col, k) => {
      c.text(col.join('\n'), x, FOOTER.textY, { size, color: c.theme.colors.muted, width: widths[k], maxHeight: mm(18) });
      x += widths[k] + gap;
    });
    if (watermark) drawWatermark(c, watermark);
  }
}
