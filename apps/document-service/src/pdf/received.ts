import type { InboundContent, InboundParty } from '@inv/contracts';
import { Canvas } from './canvas';
import { Flow } from './flow';
import { formatAmount, formatDate, formatIban, formatPercent, formatQuantity, formatUnitPrice, type PdfLanguage } from './format';
import { CONTENT, FOOTER, mm } from './geometry';
import { countryName, drawContinuationHeader } from './letter';
import { labelsFor, unitName, vatLabel } from './labels';
import { createPdfADocument } from './pdfa';
import { FlowTable, type TableRow } from './table';
import { themeFor } from './templates';

/** A received e-invoice as inbound-service read it (our JSON vocabulary) and what is known about its receipt. */
export interface ReceivedInvoice {
  language: PdfLanguage;
  inboundId: number;
  format: string;
  profile?: string;
  valid: boolean;
  receivedAt: string;
  documentType?: 'INVOICE' | 'CREDIT_NOTE';
  content: InboundContent;
}

/** The view's own texts (the shared ones come from labels.ts). */
const TEXT = {
  de: {
    title: 'Eingangsrechnung',
    titleCreditNote: 'Eingegangene Rechnungskorrektur',
    titleSelfBilled: 'Gutschrift (Gutschriftsverfahren)',
    subtitle: (profile: string, received: string) =>
      `Ansicht einer empfangenen elektronischen Rechnung (${profile}), empfangen am ${received}`,
    valid: 'Prüfung: gültig nach den offiziellen Regeln',
    invalid: 'Prüfung: NICHT gültig, siehe Prüfbericht',
    seller: 'Verkäufer (Rechnungssteller)',
    buyer: 'Käufer (Rechnungsempfänger)',
    // the document is addressed to us: "Ihre Referenz" (the invoices we issue say it to the buyer) would be wrong here
    buyerReference: 'Käuferreferenz',
    number: 'Rechnungsnummer',
    typeCode: 'Rechnungsart',
    currency: 'Währung',
    contractReference: 'Vertragsnummer',
    projectReference: 'Projektnummer',
    precedingInvoices: 'Vorausgegangene Rechnung',
    taxNumber: 'Steuernummer',
    allowancesCharges: 'Nachlässe und Zuschläge auf Dokumentebene',
    allowance: 'Nachlass',
    charge: 'Zuschlag',
    reason: 'Grund',
    lineTotal: 'Summe der Positionen',
    allowanceTotal: 'Summe Nachlässe',
    chargeTotal: 'Summe Zuschläge',
    rounding: 'Rundung',
    paymentMeans: 'Zahlungsart',
    paymentTerms: 'Zahlungsbedingungen',
    notes: 'Bemerkungen',
    itemId: 'Art.-Nr.',
    lineId: 'Positions-ID',
    email: 'E-Mail',
    electronicAddress: 'Elektronische Adresse',
    footer: (id: number) => `Eingangsdokument ${id} \u00b7 Ansicht aus den Daten der E-Rechnung; maßgeblich ist die empfangene XML-Datei`,
    means: {
      '30': 'Überweisung',
      '31': 'Auslandsüberweisung',
      '42': 'Zahlung auf Bankkonto',
      '48': 'Kartenzahlung',
      '49': 'Lastschrift',
      '57': 'Dauerauftrag',
      '58': 'SEPA-Überweisung',
      '59': 'SEPA-Lastschrift',
      '10': 'Barzahlung',
      '1': 'nicht festgelegt',
      ZZZ: 'vereinbart',
    } as Record<string, string>,
  },
  en: {
    title: 'Received invoice',
    titleCreditNote: 'Received credit note',
    titleSelfBilled: 'Self-billed invoice',
    subtitle: (profile: string, received: string) => `View of a received electronic invoice (${profile}), received on ${received}`,
    valid: 'Check: valid under the official rules',
    invalid: 'Check: NOT valid, see the validation report',
    seller: 'Seller (issuer)',
    buyer: 'Buyer (recipient)',
    buyerReference: 'Buyer reference',
    number: 'Invoice number',
    typeCode: 'Invoice type',
    currency: 'Currency',
    contractReference: 'Contract reference',
    projectReference: 'Project reference',
    precedingInvoices: 'Preceding invoice',
    taxNumber: 'Tax number',
    allowancesCharges: 'Document level allowances and charges',
    allowance: 'Allowance',
    charge: 'Charge',
    reason: 'Reason',
    lineTotal: 'Sum of lines',
    allowanceTotal: 'Sum of allowances',
    chargeTotal: 'Sum of charges',
    rounding: 'Rounding',
    paymentMeans: 'Payment means',
    paymentTerms: 'Payment terms',
    notes: 'Notes',
    itemId: 'Item no.',
    lineId: 'Line ID',
    email: 'E-mail',
    electronicAddress: 'Electronic address',
    footer: (id: number) => `Received document ${id} \u00b7 view made from the e-invoice's data; the received XML file is authoritative`,
    means: {
      '30': 'Credit transfer',
      '31': 'Debit transfer',
      '42': 'Payment to bank account',
      '48': 'Bank card',
      '49': 'Direct debit',
      '57': 'Standing agreement',
      '58': 'SEPA credit transfer',
      '59': 'SEPA direct debit',
      '10': 'Cash',
      '1': 'Not defined',
      ZZZ: 'Mutually defined',
    } as Record<string, string>,
  },
} as const;

const TYPE_CODES: Record<string, Record<PdfLanguage, string>> = {
  '380': { de: 'Rechnung (380)', en: 'Commercial invoice (380)' },
  // a supplier's 381 corrects its invoice (Rechnungskorrektur); "Gutschrift" is the § 14 (2) UStG self-billing of 389
  '381': { de: 'Rechnungskorrektur (381)', en: 'Credit note (381)' },
  '384': { de: 'Korrigierte Rechnung (384)', en: 'Corrected invoice (384)' },
  '389': { de: 'Gutschrift im Gutschriftsverfahren (389)', en: 'Self-billed invoice (389)' },
  '326': { de: 'Teilrechnung (326)', en: 'Partial invoice (326)' },
  '875': { de: 'Abschlagsrechnung (875)', en: 'Partial construction invoice (875)' },
  '877': { de: 'Schlussrechnung (877)', en: 'Final construction invoice (877)' },
};

// The document is a supplier's: print what it says even where it is not what our renderers accept.
const lenient =
  (f: (v: string, lang: PdfLanguage) => string) =>
  (v: string | undefined, lang: PdfLanguage): string => {
    if (v === undefined || v.trim() === '') return '';
    try {
      return f(v.trim(), lang);
    } catch {
      return v;
    }
  };
const amount = lenient(formatAmount);
const price = lenient(formatUnitPrice);
const quantity = lenient(formatQuantity);
const percent = lenient(formatPercent);
const date = lenient(formatDate);

/** BT-73/74: "01.10.2026 – 31.10.2026"; an open end is shown as such ("ab 01.10.2026", "bis 31.10.2026"). */
function servicePeriod(p: InboundContent['service_period'], lang: PdfLanguage): string {
  const start = date(p?.start, lang);
  const end = date(p?.end, lang);
  if (start && end) return `${start} \u2013 ${end}`;
  if (start) return `${lang === 'de' ? 'ab' : 'from'} ${start}`;
  if (end) return `${lang === 'de' ? 'bis' : 'until'} ${end}`;
  return '';
}

/** BT-34/BT-49: an e-mail address (scheme EM) as such, another scheme named before its value. */
function electronicAddress(a: { scheme?: string; value: string }, t: (typeof TEXT)[PdfLanguage]): string {
  if (a.scheme === 'EM') return `${t.email}: ${a.value}`;
  return `${t.electronicAddress}${a.scheme ? ` (${a.scheme})` : ''}: ${a.value}`;
}

function partyLines(p: InboundParty, lang: PdfLanguage, t: (typeof TEXT)[PdfLanguage]): string[] {
  const l = labelsFor(lang);
  const a = p.address;
  const city = [a?.postal_code, a?.city].filter(Boolean).join(' ');
  return [
    p.trading_name && p.trading_name !== p.name ? p.trading_name : '',
    a?.street ?? '',
    a?.additional ?? '',
    city,
    a?.country ? countryName(a.country, lang) : '',
    p.vat_id ? `${l.vatId} ${p.vat_id}` : '',
    p.tax_number ? `${t.taxNumber} ${p.tax_number}` : '',
    p.legal_registration_id ? `${l.register}: ${p.legal_registration_id}` : '',
    p.electronic_address ? electronicAddress(p.electronic_address, t) : '',
    p.contact?.name ?? '',
    [p.contact?.phone, p.contact?.email].filter(Boolean).join(' \u00b7 '),
  ].filter((line) => line.trim() !== '');
}

/**
 * A received e-invoice (XRechnung and the other XML formats have no visual of their own) as a readable PDF/A-3b:
 * title, seller and buyer, numbers and dates, the lines, document level allowances and charges, the VAT breakdown,
 * the totals, payment means and terms, notes. Everything printed comes from the reading; nothing is computed.
 */
export async function renderReceivedPdf(r: ReceivedInvoice, opts: { creationDate?: Date } = {}): Promise<Buffer> {
  const lang = r.language;
  const t = TEXT[lang];
  const l = labelsFor(lang);
  const c0 = r.content;
  const theme = themeFor(2);
  const creditNote = r.documentType === 'CREDIT_NOTE' || c0.type_code === '381';
  const title = creditNote ? t.titleCreditNote : c0.type_code === '389' ? t.titleSelfBilled : t.title;
  const currency = c0.currency ?? '';
  const { doc, result } = createPdfADocument({ lang, fonts: theme.fonts, title, author: c0.seller.name, creationDate: opts.creationDate });
  try {
    const c = new Canvas(doc, theme);
    const { colors } = theme;
    const heading = `${title}${c0.number ? ` ${c0.number}` : ''}`;
    let y = mm(15);
    y +=
      c.text(heading, CONTENT.left, y, { size: theme.titleSize, bold: true, color: colors.accent, width: CONTENT.width, maxHeight: 44 }) +
      2;
    y += c.text(t.subtitle(r.profile ?? r.format, date(r.receivedAt.slice(0, 10), lang)), CONTENT.left, y, {
      size: 8.5,
      color: colors.muted,
      width: CONTENT.width,
    });
    y +=
      c.text(r.valid ? t.valid : t.invalid, CONTENT.left, y + 1, {
        size: 8.5,
        bold: !r.valid,
        color: r.valid ? colors.muted : '#b42318',
        width: CONTENT.width,
      }) + mm(5);

    // seller and buyer side by side
    const colWidth = (CONTENT.width - mm(8)) / 2;
    let bottom = y;
    for (const [i, label, party] of [
      [0, t.seller, c0.seller],
      [1, t.buyer, c0.buyer],
    ] as const) {
      const x = CONTENT.left + i * (colWidth + mm(8));
      let py = y;
      py += c.text(label, x, py, { size: 7.5, color: colors.muted, width: colWidth });
      py += c.text(party.name ?? '\u2013', x, py + 1, { size: 10, bold: true, width: colWidth, maxHeight: 40 }) + 2;
      py += c.text(partyLines(party, lang, t).join('\n'), x, py, { size: 8.5, width: colWidth, maxHeight: mm(45) });
      bottom = Math.max(bottom, py);
    }
    y = bottom + mm(6);

    // numbers and dates, two label/value columns
    const rows: [string, string][] = (
      [
        [t.number, c0.number ?? ''],
        [creditNote ? l.creditNoteDate : l.issueDate, date(c0.issue_date, lang)],
        [t.typeCode, c0.type_code ? (TYPE_CODES[c0.type_code]?.[lang] ?? c0.type_code) : ''],
        [l.dueDate, date(c0.due_date, lang)],
        [l.deliveryDate, date(c0.delivery_date, lang)],
        [l.servicePeriod, servicePeriod(c0.service_period, lang)],
        [t.currency, currency],
        [t.buyerReference, c0.buyer_reference ?? ''],
        [l.orderReference, c0.order_reference ?? ''],
        [t.contractReference, c0.contract_reference ?? ''],
        [t.projectReference, c0.project_reference ?? ''],
        ...c0.preceding_invoices.map((p): [string, string] => [t.precedingInvoices, p]),
      ] as [string, string][]
    ).filter(([, v]) => v !== '');
    const half = Math.ceil(rows.length / 2);
    const labelWidth = mm(34);
    let infoBottom = y;
    [rows.slice(0, half), rows.slice(half)].forEach((col, i) => {
      const x = CONTENT.left + i * (colWidth + mm(8));
      let ry = y;
      for (const [label, value] of col) {
        const h = c.text(value, x + labelWidth, ry, { size: 8.5, width: colWidth - labelWidth, maxHeight: 30 });
        c.text(label, x, ry, { size: 8.5, color: colors.muted, width: labelWidth - mm(2), maxHeight: 30 });
        ry += Math.max(h, c.lineHeight({ size: 8.5 })) + 2;
      }
      infoBottom = Math.max(infoBottom, ry);
    });

    const flow = new Flow(c, infoBottom + mm(6), () => drawContinuationHeader(c, c0.seller.name ?? '', `${heading} \u00b7 ${l.continued}`));
    const section = (text: string) => {
      flow.ensure(c.lineHeight({ size: 10, bold: true }) + 40);
      flow.y += c.text(text, CONTENT.left, flow.y, { size: 10, bold: true, color: colors.accent }) + 3;
    };

    // the lines
    // line ids are free text (BT-126): short ones fill the position column, long ones are printed below the name
    const shortIds = c0.lines.every((line) => line.id.length <= 4);
    const lineRows: TableRow[] = c0.lines.map((line, index) => {
      const extra = [
        shortIds ? '' : `${t.lineId} ${line.id}`,
        line.description && line.description !== line.name ? line.description : '',
        line.seller_item_id ? `${t.itemId} ${line.seller_item_id}` : '',
        ...line.allowances_charges.map(
          (ac) => `${ac.charge ? t.charge : t.allowance} ${amount(ac.amount, lang)}${ac.reason ? ` (${ac.reason})` : ''}`,
        ),
      ].filter(Boolean);
      return {
        cells: [
          shortIds ? line.id : String(index + 1),
          [{ text: line.name ?? line.description ?? '' }, ...(extra.length ? [{ text: extra.join('\n'), muted: true, size: 7.5 }] : [])],
          `${quantity(line.quantity, lang)} ${line.unit ? unitName(line.unit, lang, line.quantity) : ''}`.trim(),
          price(line.net_price, lang),
          line.vat_rate !== undefined ? percent(line.vat_rate, lang) : (line.vat_category ?? ''),
          amount(line.net_amount, lang),
        ],
      };
    });
    new FlowTable(c, flow, [
      { header: l.pos, width: 30 },
      { header: l.description, width: 0 },
      { header: l.quantity, width: 64, align: 'right' },
      { header: l.unitPrice, width: 64, align: 'right' },
      { header: l.vatRate, width: 48, align: 'right' },
      { header: `${l.amount}${currency ? ` (${currency})` : ''}`, width: 74, align: 'right' },
    ]).render(lineRows);
    flow.y += mm(5);

    if (c0.allowances_charges.length) {
      section(t.allowancesCharges);
      new FlowTable(c, flow, [
        { header: '', width: 70 },
        { header: t.reason, width: 0 },
        { header: l.vatRate, width: 60, align: 'right' },
        { header: `${l.amount}${currency ? ` (${currency})` : ''}`, width: 80, align: 'right' },
      ]).render(
        c0.allowances_charges.map((ac) => ({
          cells: [
            ac.charge ? t.charge : t.allowance,
            [
              ac.reason,
              ac.reason_code ? `(${ac.reason_code})` : '',
              ac.percentage ? `${percent(ac.percentage, lang)} \u00d7 ${amount(ac.base_amount, lang)}` : '',
            ]
              .filter(Boolean)
              .join(' '),
            ac.vat_rate !== undefined ? percent(ac.vat_rate, lang) : (ac.vat_category ?? ''),
            `${ac.charge ? '' : '\u2212'}${amount(ac.amount, lang)}`,
          ],
        })),
      );
      flow.y += mm(5);
    }

    // VAT breakdown (left) and totals (right), kept together
    const tt = c0.totals;
    // BT-111: the VAT total in the VAT accounting currency (e.g. EUR on a DKK invoice), in that currency
    const totals: [string, string | undefined, boolean?, string?][] = [
      [t.lineTotal, tt.line_total],
      [t.allowanceTotal, tt.allowance_total],
      [t.chargeTotal, tt.charge_total],
      [l.totalNet, tt.tax_exclusive],
      [l.totalVat, tt.tax_total],
      ...(c0.tax_currency && tt.tax_total_tax_currency
        ? [[`${l.totalVat} (${c0.tax_currency})`, tt.tax_total_tax_currency, false, c0.tax_currency] as [string, string, boolean, string]]
        : []),
      [l.totalGross, tt.tax_inclusive],
      [l.prepaid, tt.prepaid],
      [t.rounding, tt.rounding],
      [l.amountDue, tt.payable, true],
    ];
    const shown = totals.filter(([, v]) => v !== undefined && v !== '');
    const totalsHeight = shown.length * 14 + 10;
    // labelled like our own invoices' rows: by category, rate, the seller's country and the date of supply
    const sellerCountry = c0.seller.address?.country ?? /^[A-Z]{2}/.exec(c0.seller.vat_id?.trim().toUpperCase() ?? '')?.[0];
    const supplyDate = c0.delivery_date ?? c0.issue_date;
    const vatRows: TableRow[] = c0.vat_breakdown.map((v) => ({
      cells: [
        [
          {
            text: v.category
              ? vatLabel(
                  { category: v.category, rate: v.rate ?? '', sellerCountry, date: supplyDate, exemptionReason: v.exemption_reason },
                  lang,
                )
              : '',
          },
          ...(v.exemption_reason ? [{ text: v.exemption_reason, muted: true, size: 7 }] : []),
        ],
        v.rate !== undefined ? percent(v.rate, lang) : '',
        amount(v.taxable_amount, lang),
        amount(v.tax_amount, lang),
      ],
    }));
    // the category column takes "Steuerschuldnerschaft des Leistungsempfängers" without breaking a word
    const vatWidth = CONTENT.width * 0.58;
    const vatTable = new FlowTable(
      c,
      flow,
      [
        { header: l.vatCategory, width: 0 },
        { header: l.vatRate, width: 46, align: 'right' },
        { header: l.taxableAmount, width: 62, align: 'right' },
        { header: l.taxAmount, width: 62, align: 'right' },
      ],
      { x: CONTENT.left, width: vatWidth },
    );
    flow.ensure(Math.max(totalsHeight, vatRows.length ? vatTable.measure(vatRows) : 0) + 4);
    const top = flow.y;
    if (vatRows.length) vatTable.render(vatRows);
    const vatBottom = flow.y;
    const totalsLeft = CONTENT.left + vatWidth + mm(5);
    let ty = top;
    for (const [label, value, strong, inCurrency = currency] of shown) {
      if (strong) c.hline(totalsLeft, CONTENT.right, ty + 1, colors.text, 0.6);
      const style = { size: strong ? 9.5 : 8.5, bold: strong };
      c.text(label, totalsLeft, ty + 3, { ...style, width: CONTENT.right - totalsLeft - mm(28) });
      c.textRight(`${amount(value, lang)}${inCurrency ? ` ${inCurrency}` : ''}`, CONTENT.right, ty + 3, style);
      ty += 14;
    }
    flow.y = Math.max(vatBottom, ty) + mm(6);

    // payment
    const payment: string[] = [];
    for (const m of c0.payment_means) {
      const means = m.code ? `${t.means[m.code] ?? m.code}` : '';
      payment.push(
        [
          means ? `${t.paymentMeans}: ${means}` : '',
          m.account_name ? `${l.accountHolder}: ${m.account_name}` : '',
          m.iban ? `${l.iban} ${formatIban(m.iban)}${m.bic ? `   ${l.bic} ${m.bic}` : ''}` : '',
          m.remittance ? `${l.remittance}: ${m.remittance}` : '',
        ]
          .filter(Boolean)
          .join('\n'),
      );
    }
    if (c0.payment_terms) payment.push(`${t.paymentTerms}: ${c0.payment_terms}`);
    const paragraph = (heading: string, texts: string[]) => {
      const text = texts.filter(Boolean).join('\n');
      if (!text) return;
      const h = c.height(text, { size: 8.5, width: CONTENT.width });
      flow.ensure(Math.min(h, 120) + 20);
      section(heading);
      flow.y += c.text(text, CONTENT.left, flow.y, { size: 8.5, width: CONTENT.width, maxHeight: Math.max(60, flow.remaining) }) + mm(4);
    };
    paragraph(l.payment, payment);
    // a note may begin with its subject code (UNTDID 4451, XRechnung: #ADU#text)
    paragraph(
      t.notes,
      c0.notes.map((n) => n.replace(/^#[A-Z]{3}#/, '')),
    );

    const { start, count } = doc.bufferedPageRange();
    for (let i = start; i < start + count; i++) {
      doc.switchToPage(i);
      c.hline(CONTENT.left, CONTENT.right, FOOTER.ruleY, colors.rule);
      c.text(t.footer(r.inboundId), CONTENT.left, FOOTER.textY, { size: 7, color: colors.muted, width: CONTENT.width - mm(30) });
      c.textRight(l.page(i - start + 1, count), CONTENT.right, FOOTER.textY, { size: 7, color: colors.muted });
    }
  } catch (err) {
    doc.end();
    await result.catch(() => undefined);
    throw err;
  }
  doc.end();
  return result;
}
