import { sumDecimals } from '@inv/money';
import { bookingLineText, bookingLinesOf, documentGuid } from './bookings';
import { BOOKING_COLUMNS, DEBTOR_COLUMNS } from './columns';
import { debtorLines } from './debtors';
import type { ExportInvoice } from './export-invoice';
import { CRLF, headerLine, line, text } from './extf';
import type { FiscalSlice } from './fiscal-year';
import type { BelegDocument } from './belegbilder';
import type { EffectiveMappings } from './mappings';

export interface BatchOptions {
  companyId: string;
  createdAt: Date;
  consultantNumber: number;
  clientNumber: number;
  includeMasterData: boolean;
  includeDocuments: boolean;
}

export interface BatchFiles {
  zipName: string;
  bookingsName: string;
  bookings: string;
  debtorsName?: string;
  debtors?: string;
  documents: (BelegDocument & { pdfKey: string })[];
  rowCount: number;
  grossTotal: string;
}

const compact = (iso: string) => iso.replace(/-/g, '');

/** File names a person recognizes: what, whose (consultant/client) and which dates. */
export function fileNames(slice: FiscalSlice, consultant: number, client: number) {
  const span = `${compact(slice.from)}_${compact(slice.to)}`;
  return {
    zip: `DATEV_EXTF_${consultant}_${client}_${span}.zip`,
    bookings: `EXTF_Buchungsstapel_${span}.csv`,
    debtors: `EXTF_Debitoren_${span}.csv`,
  };
}

/** A PDF's name inside the ZIP: the invoice number, made safe for every file system. */
export const pdfNameOf = (inv: ExportInvoice) => `${inv.number.replace(/[^A-Za-z0-9._-]/g, '_')}_${inv.invoiceId}.pdf`;

/**
 * The EXTF files of one fiscal-year slice, as text (encoded to Windows-1252 when zipped): the booking
 * batch, with master data the Debitoren/Kreditoren file, with documents the list of PDFs to add.
 */
export function buildBatch(slice: FiscalSlice, invoices: readonly ExportInvoice[], m: EffectiveMappings, o: BatchOptions): BatchFiles {
  const names = fileNames(slice, o.consultantNumber, o.clientNumber);
  const header = { createdAt: o.createdAt, consultantNumber: o.consultantNumber, clientNumber: o.clientNumber, fiscalYearStart: slice.fiscalYearStart, accountLength: m.accountLength, chart: m.chart };
  const parts: string[] = [
    headerLine({ ...header, category: 21, from: slice.from, to: slice.to, description: `Rechnungsausgang ${slice.fiscalYearStart.slice(0, 4)}` }),
    line(BOOKING_COLUMNS.map((c) => text(c))),
  ];
  const grosses: string[] = [];
  const documents: BatchFiles['documents'] = [];
  for (const inv of invoices) {
    for (const b of bookingLinesOf(inv, m, { companyId: o.companyId, withDocuments: o.includeDocuments })) {
      parts.push(bookingLineText(b));
      grosses.push(b.gross);
    }
    if (o.includeDocuments && inv.pdfKey) {
      documents.push({ guid: documentGuid(o.companyId, inv.invoiceId), filename: pdfNameOf(inv), invoiceNumber: inv.number, pdfKey: inv.pdfKey });
    }
  }
  const files: BatchFiles = {
    zipName: names.zip,
    bookingsName: names.bookings,
    bookings: parts.join(CRLF) + CRLF,
    documents,
    rowCount: grosses.length,
    grossTotal: sumDecimals(grosses).toFixed(2),
  };
  if (o.includeMasterData) {
    const rows = debtorLines(invoices, m);
    files.debtorsName = names.debtors;
    files.debtors = [headerLine({ ...header, category: 16, description: 'Debitoren' }), line(DEBTOR_COLUMNS.map((c) => text(c))), ...rows].join(CRLF) + CRLF;
  }
  return files;
}
