import { DEBTOR_COLUMNS, columnIndex } from './columns';
import type { ExportInvoice } from './export-invoice';
import { line, text } from './extf';
import { datevVatId } from './bookings';
import type { ExportSupplierInvoice } from './export-payment';
import { creditorAccountOf, debtorAccountOf, type EffectiveMappings } from './mapping-rules';

const col = (h: string) => columnIndex(DEBTOR_COLUMNS, h);
const C = {
  konto: col('Konto'),
  nameCompany: col('Name (Adressatentyp Unternehmen)'),
  namePerson: col('Name (Adressatentyp natürl. Person)'),
  firstName: col('Vorname (Adressatentyp natürl. Person)'),
  type: col('Adressatentyp'),
  short: col('Kurzbezeichnung'),
  euCountry: col('EU-Land'),
  euVatId: col('EU-USt-IdNr.'),
  addressKind: col('Adressart'),
  street: col('Straße'),
  postalCode: col('Postleitzahl'),
  city: col('Ort'),
  country: col('Land'),
  addressExtra: col('Adresszusatz'),
  phone: col('Telefon'),
  email: col('E-Mail'),
  customerNumber: col('Kundennummer'),
  taxNumber: col('Steuernummer'),
};

/**
 * One Debitoren/Kreditoren row per debtor account in the batch, from the newest invoice of that customer
 * (its buyer as frozen at finalization). Companies are Adressatentyp 2, people (first and last name) 1; the
 * VAT ID is split into country and number.
 */
/** Keeps the newest invoice per debtor account (its buyer is the master record). */
export function newestPerDebtor(newest: Map<number, ExportInvoice>, inv: ExportInvoice, m: EffectiveMappings) {
  const account = debtorAccountOf(m, inv.customerNumber);
  const cur = newest.get(account);
  if (!cur || cur.invoiceDate < inv.invoiceDate || (cur.invoiceDate === inv.invoiceDate && cur.invoiceId < inv.invoiceId))
    newest.set(account, inv);
}

export function debtorLines(invoices: readonly ExportInvoice[], m: EffectiveMappings): string[] {
  const newest = new Map<number, ExportInvoice>();
  for (const inv of invoices) newestPerDebtor(newest, inv, m);
  return [...newest.entries()]
    .sort(([a], [b]) => a - b)
    .map(([account, inv]) => {
      const f = new Array<string>(DEBTOR_COLUMNS.length).fill('');
      const b = inv.buyer;
      f[C.konto] = String(account);
      if (b) {
        const person = Boolean(b.lastName) && !b.vatId;
        if (person) {
          f[C.namePerson] = text(b.lastName, 30);
          f[C.firstName] = text(b.firstName, 30);
          f[C.type] = '1';
        } else {
          f[C.nameCompany] = text(b.name, 50);
          f[C.type] = '2';
        }
        f[C.short] = text(b.name.slice(0, 15).trim(), 15);
        const vat = datevVatId(b.vatId);
        if (vat) {
          f[C.euCountry] = text(vat.slice(0, 2), 2);
          f[C.euVatId] = text(vat.slice(2), 13);
        }
        f[C.addressKind] = text('STR');
        f[C.street] = text(b.address.line1, 36);
        f[C.addressExtra] = text(b.address.line2, 36);
        f[C.postalCode] = text(b.address.postalCode, 10);
        f[C.city] = text(b.address.city, 30);
        f[C.country] = text(b.address.countryCode, 2);
        f[C.phone] = text(b.contact?.phone, 60);
        f[C.email] = text(b.contact?.email, 60);
        f[C.taxNumber] = text(b.taxNumber, 20);
      }
      if (inv.customerNumber !== undefined) f[C.customerNumber] = text(String(inv.customerNumber), 15);
      return line(f);
    });
}

/** Keeps the newest received invoice per creditor account (its seller is the master record). */
export function newestPerCreditor(newest: Map<number, ExportSupplierInvoice>, s: ExportSupplierInvoice, m: EffectiveMappings) {
  const account = creditorAccountOf(m, s.supplierId);
  const cur = newest.get(account);
  if (!cur || cur.issueDate < s.issueDate || (cur.issueDate === s.issueDate && cur.inboundId < s.inboundId)) newest.set(account, s);
}

/** The name of the collective creditor account (suppliers without an account of their own share it). */
export const COLLECTIVE_CREDITOR_NAME = 'Sammelkreditor';

/**
 * The Kreditoren rows of the same file: one per creditor account, from the newest received invoice of the supplier
 * (what its e-invoice states: name and VAT ID; the e-invoice event carries no address). Companies, Adressatentyp 2.
 * The collective creditor account (creditorAccountOf without a supplier) books many suppliers: it is named
 * "Sammelkreditor", never after one of them, and carries no VAT ID.
 */
export function creditorLines(newest: ReadonlyMap<number, ExportSupplierInvoice>, m: EffectiveMappings): string[] {
  const collective = creditorAccountOf(m, undefined);
  return [...newest.entries()]
    .sort(([a], [b]) => a - b)
    .map(([account, s]) => {
      const f = new Array<string>(DEBTOR_COLUMNS.length).fill('');
      f[C.konto] = String(account);
      if (account === collective) {
        f[C.nameCompany] = text(COLLECTIVE_CREDITOR_NAME, 50);
        f[C.type] = '2';
        f[C.short] = text(COLLECTIVE_CREDITOR_NAME, 15);
        return line(f);
      }
      if (s.sellerName) {
        f[C.nameCompany] = text(s.sellerName, 50);
        f[C.type] = '2';
        f[C.short] = text(s.sellerName.slice(0, 15).trim(), 15);
      }
      const vat = datevVatId(s.sellerVatId);
      if (vat) {
        f[C.euCountry] = text(vat.slice(0, 2), 2);
        f[C.euVatId] = text(vat.slice(2), 13);
      }
      return line(f);
    });
}
