/** An invoice or credit note as the export's read model holds it (db/export-invoices.ts stores it). */
export interface ExportParty {
  name: string;
  firstName?: string;
  lastName?: string;
  vatId?: string;
  taxNumber?: string;
  address: { line1: string; line2?: string; city: string; postalCode?: string; countryCode: string };
  contact?: { name?: string; phone?: string; email?: string };
}

export interface ExportVatGroup {
  category: string;
  /** percent, decimal string ("19") */
  rate: string;
  treatment: string;
  net: string;
  vat: string;
}

export interface ExportInvoice {
  invoiceId: number;
  number: string;
  typeCode: '380' | '381';
  invoiceDate: string;
  dueDate?: string;
  serviceDate?: string;
  customerId: number;
  customerNumber?: number;
  buyer?: ExportParty;
  vatGroups?: ExportVatGroup[];
  totalGross: string;
  precedingInvoiceNumber?: string;
  pdfKey?: string;
  pdfFilename?: string;
}
