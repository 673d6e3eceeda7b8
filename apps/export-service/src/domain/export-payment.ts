/** A payment (with its Skonto) on an issued invoice, as the export's read model holds it (db/export-payments.ts). */
export interface ExportPayment {
  paymentId: number;
  invoiceId: number;
  /** The invoice number as issued (Belegfeld 1 of the payment row: the open-item key). */
  number: string;
  typeCode?: '380' | '381';
  amount: string;
  discount?: string;
  /** Payment date YYYY-MM-DD (Belegdatum). */
  date: string;
}

/** A received (supplier) invoice, as the export's read model holds it (db/export-supplier-invoices.ts). */
export interface ExportSupplierInvoice {
  inboundId: number;
  /** The supplier's invoice number (Belegfeld 1). */
  number: string;
  issueDate: string;
  typeCode?: string;
  supplierId?: number;
  sellerName?: string;
  sellerVatId?: string;
  totalGross?: string;
  /** BT-5, the document's currency (EUR when absent). */
  currency?: string;
  /** BT-110 in the document's currency. */
  totalVat?: string;
  /** BT-6 and BT-111: the VAT total in the VAT accounting currency, when the document states it. */
  taxCurrency?: string;
  totalVatTaxCurrency?: string;
  vatBreakdown?: { category: string; rate: string; net: string; vat: string }[];
  original?: { key: string; filename: string; contentType: string; size: number };
}
