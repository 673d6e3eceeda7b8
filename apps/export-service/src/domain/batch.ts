import { Dec, toDecimal, type Dec as Decimal } from '@inv/money';
import { bookingLineText, bookingLinesOf, documentGuid } from './bookings';
import { BOOKING_COLUMNS, DEBTOR_COLUMNS } from './columns';
import { creditorLines, debtorLines, newestPerCreditor, newestPerDebtor } from './debtors';
import type { ExportInvoice } from './export-invoice';
import type { ExportPayment, ExportSupplierInvoice } from './export-payment';
import { paymentLinesOf, supplierDocumentGuid, supplierLinesOf } from './payment-bookings';
import { CRLF, headerLine, line, text } from './extf';
import type { FiscalSlice } from './fiscal-year';
import type { BelegDocument } from './belegbilder';
import type { EffectiveMappings } from './mapping-rules';

export interface BatchOptions {
  companyId: string;
  createdAt: Date;
  consultantNumber: number;
  clientNumber: number;
  includeMasterData: boolean;
  includeDocuments: boolean;
  /** Units per 1 EUR by currency, given with the export request (received invoices in another currency). */
  exchangeRates?: Record<string, string>;
}

export type BatchDocument = BelegDocument & { pdfKey: string };

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

/** A received invoice's original inside the ZIP: `ER_<number>_<inbound id>.<extension of the original>`. */
export const originalNameOf = (s: ExportSupplierInvoice) => {
  const ext =
    /\.([A-Za-z0-9]{1,5})$/.exec(s.original?.filename ?? '')?.[1]?.toLowerCase() ??
    (s.original?.contentType.includes('pdf') ? 'pdf' : 'xml');
  return `ER_${s.number.replace(/[^A-Za-z0-9._-]/g, '_')}_${s.inboundId}.${ext}`;
};

/**
 * The EXTF files of one fiscal-year slice, written as the invoices come (in booking order), so a large
 * export never holds all of them: `head()` is the header and heading lines, `add()` answers an invoice's
 * booking lines, and at the end `debtors()` the master-data file and `documents` the PDFs to zip.
 * Pure: text in, text out (encoded to Windows-1252 when zipped).
 */
export class BatchWriter {
  readonly names: ReturnType<typeof fileNames>;
  readonly documents: BatchDocument[] = [];
  rowCount = 0;
  invoiceCount = 0;
  paymentCount = 0;
  supplierInvoiceCount = 0;
  /** The ids of the payments booked in this slice (for export.payments-exported). */
  readonly paymentIds: number[] = [];
  private readonly newestCreditors = new Map<number, ExportSupplierInvoice>();
  private gross: Decimal = new Dec(0);
  private readonly newest = new Map<number, ExportInvoice>();
  private readonly header;

  constructor(
    readonly slice: FiscalSlice,
    private readonly m: EffectiveMappings,
    private readonly o: BatchOptions,
  ) {
    this.names = fileNames(slice, o.consultantNumber, o.clientNumber);
    this.header = {
      createdAt: o.createdAt,
      consultantNumber: o.consultantNumber,
      clientNumber: o.clientNumber,
      fiscalYearStart: slice.fiscalYearStart,
      accountLength: m.accountLength,
      chart: m.chart,
    };
  }

  head(): string {
    return (
      headerLine({
        ...this.header,
        category: 21,
        from: this.slice.from,
        to: this.slice.to,
        description: `Rechnungsausgang ${this.slice.fiscalYearStart.slice(0, 4)}`,
      }) +
      CRLF +
      line(BOOKING_COLUMNS.map((c) => text(c))) +
      CRLF
    );
  }

  /** The booking lines of one invoice (CRLF-terminated); throws ExportDataError for what cannot be booked. */
  add(inv: ExportInvoice): string {
    let out = '';
    for (const b of bookingLinesOf(inv, this.m, { companyId: this.o.companyId, withDocuments: this.o.includeDocuments })) {
      out += bookingLineText(b) + CRLF;
      this.gross = this.gross.plus(b.gross);
      this.rowCount++;
    }
    this.invoiceCount++;
    if (this.o.includeMasterData) newestPerDebtor(this.newest, inv, this.m);
    if (this.o.includeDocuments && inv.pdfKey) {
      this.documents.push({
        guid: documentGuid(this.o.companyId, inv.invoiceId),
        filename: pdfNameOf(inv),
        invoiceNumber: inv.number,
        pdfKey: inv.pdfKey,
      });
    }
    return out;
  }

  /** The booking lines of one payment on an issued invoice (and of its Skonto); `inv` is the invoice it pays. */
  addPayment(p: ExportPayment, inv: ExportInvoice | undefined): string {
    let out = '';
    for (const b of paymentLinesOf(p, inv, this.m)) {
      out += bookingLineText(b) + CRLF;
      this.gross = this.gross.plus(b.gross);
      this.rowCount++;
    }
    this.paymentCount++;
    this.paymentIds.push(p.paymentId);
    if (this.o.includeMasterData && inv) newestPerDebtor(this.newest, inv, this.m);
    return out;
  }

  /** The booking lines of one received (supplier) invoice; its original joins the Belegbilder when documents are wanted. */
  addSupplierInvoice(s: ExportSupplierInvoice): string {
    let out = '';
    for (const b of supplierLinesOf(s, this.m, {
      companyId: this.o.companyId,
      withDocuments: this.o.includeDocuments,
      exchangeRates: this.o.exchangeRates,
    })) {
      out += bookingLineText(b) + CRLF;
      this.gross = this.gross.plus(b.gross);
      this.rowCount++;
    }
    this.supplierInvoiceCount++;
    if (this.o.includeMasterData) newestPerCreditor(this.newestCreditors, s, this.m);
    if (this.o.includeDocuments && s.original) {
      this.documents.push({
        guid: supplierDocumentGuid(this.o.companyId, s.inboundId),
        filename: originalNameOf(s),
        invoiceNumber: s.number,
        pdfKey: s.original.key,
      });
    }
    return out;
  }

  /** The Debitoren/Kreditoren file of the customers and suppliers seen, when master data is wanted. */
  debtors(): string | undefined {
    if (!this.o.includeMasterData) return undefined;
    return (
      [
        headerLine({ ...this.header, category: 16, description: 'Debitoren' }),
        line(DEBTOR_COLUMNS.map((c) => text(c))),
        ...debtorLines([...this.newest.values()], this.m),
        ...creditorLines(this.newestCreditors, this.m),
      ].join(CRLF) + CRLF
    );
  }

  /** Signed sum of the rows (S positive, H negative), to the cent. */
  grossTotal(): string {
    return toDecimal(this.gross).toFixed(2);
  }
}

/** All files of a slice at once (tests and small batches). */
export function buildBatch(slice: FiscalSlice, invoices: readonly ExportInvoice[], m: EffectiveMappings, o: BatchOptions) {
  const w = new BatchWriter(slice, m, o);
  let bookings = w.head();
  for (const inv of invoices) bookings += w.add(inv);
  return { names: w.names, bookings, debtors: w.debtors(), documents: w.documents, rowCount: w.rowCount, grossTotal: w.grossTotal() };
}
