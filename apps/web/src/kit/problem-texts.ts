import type { Lang } from './i18n';
import { PROBLEM_TEXTS_DE } from './problem-texts.de';
import { PROBLEM_TEXTS_EN, type ProblemCode } from './problem-texts.en';

export type { ProblemCode };

/** The sentence per problem code in each language (problem-texts.de.ts, problem-texts.en.ts). */
export const PROBLEM_TEXTS: Record<Lang, Record<ProblemCode, string>> = { de: PROBLEM_TEXTS_DE, en: PROBLEM_TEXTS_EN };

/** A form field as the page names it, with the format it expects. */
export type FieldText = { label: string; expected: string };

/**
 * The forms whose fields share a name with another form's but expect something else (`name` of an API key, a payment
 * term, a recurring invoice, a product; `phone` of the company, 40 characters, and of a customer, 50). A page passes its
 * form to problemMessage; without one, the common meaning applies.
 */
export type ProblemForm = 'apiKey' | 'paymentTerm' | 'recurring' | 'product' | 'companyProfile';

/**
 * Form fields by the API's path, numeric segments left out (`positions.0.quantity` is looked up as
 * `positions.quantity`, then `quantity`, then `positions`). Names follow the zod contracts in libs/contracts.
 */
const FIELDS_EN = {
  // API keys (the common meaning of `name`), members, webhooks, sign-in
  name: { label: 'Name', expected: '1 to 100 characters saying what the key is for' },
  role: { label: 'Role', expected: 'one of Owner, Admin, Member, Viewer' },
  mode: { label: 'Mode', expected: 'live or test' },
  email: { label: 'E-mail address', expected: 'an address like name@example.com' },
  url: { label: 'URL', expected: 'an https:// address on the public internet, at most 2048 characters' },
  description: { label: 'Description', expected: 'at most 500 characters' },
  'positions.description': { label: 'Description', expected: 'at most 2,000 characters' },
  event_types: { label: 'Events', expected: 'one or more of the listed events' },
  password: { label: 'Password', expected: 'at least 12 characters' },

  // invoice and its positions
  customer_id: { label: 'Customer', expected: 'one of your customers' },
  invoice_number: { label: 'Invoice number', expected: '1 to 50 characters, or empty to use the number range' },
  invoice_format: { label: 'Invoice format', expected: 'one of the listed formats' },
  invoice_date: { label: 'Invoice date', expected: 'a date such as 2026-11-29' },
  benefit_period_start: { label: 'Service period from', expected: 'a date such as 2026-11-01' },
  benefit_period_end: { label: 'Service period to', expected: 'a date such as 2026-11-30, not before the start' },
  buyer_reference: { label: 'Buyer reference (Leitweg-ID)', expected: 'at most 200 characters, e.g. 04011000-12345-03' },
  note: { label: 'Note', expected: 'at most 2,000 characters' },
  tax_treatment_id: { label: 'Tax treatment', expected: 'one of the listed tax treatments' },
  positions: { label: 'Positions', expected: 'at least one position with title, quantity and price' },
  product_id: { label: 'Product', expected: 'one of your active products' },
  title: { label: 'Title', expected: '1 to 500 characters' },
  quantity: { label: 'Quantity', expected: 'a number of at least 0 with at most 4 decimals, e.g. 1.5' },
  unit_id: { label: 'Unit', expected: 'one of the listed units (e.g. hour, piece, day)' },
  unit_net_amount: { label: 'Unit price (net)', expected: 'an amount in euros of at least 0, e.g. 120.00' },
  unit_price: { label: 'Unit price (net)', expected: 'an amount in euros of at least 0, e.g. 120.00' },
  single_net_amount: { label: 'Net amount', expected: 'an amount in euros, e.g. 120.00' },
  tax_rate: { label: 'VAT rate', expected: 'a rate below 100 %, e.g. 19 % or 7 %' },
  vat_rate: { label: 'VAT rate', expected: 'a rate below 100 %, e.g. 19 % or 7 %' },
  discount_type: { label: 'Discount type', expected: 'percentage or fixed amount' },
  discount_value: { label: 'Discount', expected: 'a percentage of at most 100 or an amount in euros' },
  due_date: { label: 'Due date', expected: 'a date such as 2026-12-29, not before the invoice date' },
  vat_override_confirmed: { label: 'Finalize despite unconfirmed VAT ID', expected: 'yes or no' },

  // payments, credit notes, e-mail
  amount: { label: 'Amount', expected: 'an amount in euros of at least 0.01, at most the open amount' },
  date: { label: 'Date', expected: 'a date such as 2026-11-29, not before the invoice date and at most one day ahead' },
  method: { label: 'Payment method', expected: 'bank transfer, cash, card, direct debit, PayPal or other' },
  reference: { label: 'Reference', expected: 'at most 200 characters' },
  skonto: { label: 'Early-payment discount', expected: 'yes or no' },
  invoice_id: { label: 'Invoice', expected: 'one of your finalized, open invoices' },
  reason: { label: 'Reason', expected: 'a short text' },
  to: { label: 'To', expected: 'one or more e-mail addresses, at most 10 recipients in all' },
  cc: { label: 'Cc', expected: 'e-mail addresses, at most 10 recipients in all' },
  bcc: { label: 'Bcc', expected: 'e-mail addresses, at most 10 recipients in all' },
  subject: { label: 'Subject', expected: '1 to 200 characters' },
  body: { label: 'Message', expected: 'the text of the e-mail' },
  file: { label: 'File', expected: 'a file of the accepted type and size' },

  // customer and its addresses
  contact_type: { label: 'Customer type', expected: 'business (B2B) or private person (B2C)' },
  organization_name: { label: 'Company name', expected: '1 to 200 characters; required for business customers' },
  first_name: { label: 'First name', expected: '1 to 100 characters; required for private customers' },
  last_name: { label: 'Last name', expected: '1 to 100 characters; required for private customers' },
  salutation: { label: 'Salutation', expected: 'Mr, Mrs, Ms or other' },
  vat_id: { label: 'VAT ID', expected: 'a VAT identification number with country prefix, e.g. DE123456789' },
  tax_number: { label: 'Tax number', expected: 'at most 30 characters, e.g. 21/815/08150' },
  peppol_id: { label: 'Peppol ID', expected: 'scheme and identifier, e.g. 0088:4035811991021' },
  language: { label: 'Language', expected: 'German or English' },
  payment_term_id: { label: 'Payment term', expected: 'one of your payment terms' },
  phone: { label: 'Phone', expected: 'at most 50 characters' },
  address_line_1: { label: 'Street and number', expected: '1 to 200 characters' },
  address_line_2: { label: 'Address line 2', expected: 'at most 200 characters' },
  company: { label: 'Company (address)', expected: 'at most 200 characters' },
  postal_code: { label: 'Postal code', expected: 'at most 20 characters, e.g. 10117' },
  city: { label: 'City', expected: '1 to 100 characters' },
  state_province: { label: 'State or province', expected: 'at most 100 characters' },
  country_code: { label: 'Country', expected: 'a country such as Germany (DE)' },
  codice_destinatario: { label: 'SdI recipient code', expected: '7 characters (6 for public administrations)' },
  pec: { label: 'PEC address', expected: 'a certified e-mail address' },
  codice_fiscale: { label: 'Codice fiscale', expected: '16 characters or 11 digits with check character' },
  partita_iva: { label: 'Partita IVA', expected: '11 digits with check digit' },

  // company profile
  legal_name: { label: 'Legal name', expected: '1 to 200 characters, as in the commercial register' },
  trading_name: { label: 'Trading name', expected: '1 to 200 characters' },
  address: { label: 'Address', expected: 'street, postal code, city and country' },
  'address.line1': { label: 'Street and number', expected: '1 to 200 characters' },
  'address.line2': { label: 'Address line 2', expected: 'at most 200 characters' },
  registration_court: { label: 'Registration court', expected: 'at most 100 characters, e.g. Amtsgericht Berlin-Charlottenburg' },
  registration_id: { label: 'Commercial register number', expected: 'at most 50 characters, e.g. HRB 12345' },
  registration_id_scheme: { label: 'Register scheme', expected: 'a 4-digit ICD code, e.g. 0106; empty for the German Handelsregister' },
  seller_identifier: { label: 'Seller identifier', expected: 'at most 100 characters, e.g. a GLN' },
  seller_identifier_scheme: { label: 'Seller identifier scheme', expected: 'a 4-digit ICD code, e.g. 0088 for a GLN' },
  managing_directors: { label: 'Managing directors', expected: 'at most 10 names of at most 100 characters' },
  contact_name: { label: 'Contact person', expected: 'at most 100 characters' },
  website: { label: 'Website', expected: 'an address like https://www.example.com' },
  default_language: { label: 'Default language', expected: 'German or English' },
  payment_term_days: { label: 'Payment period (days)', expected: 'a whole number from 0 to 365' },
  small_business: { label: 'Small business (§ 19 UStG)', expected: 'yes or no' },
  default_payment_term_id: { label: 'Default payment term', expected: 'one of your payment terms' },
  default_template_id: { label: 'Default template', expected: 'one of the listed templates' },

  // bank account
  iban: { label: 'IBAN', expected: 'a valid IBAN, e.g. DE89 3704 0044 0532 0130 00' },
  bic: { label: 'BIC', expected: '8 or 11 characters, e.g. COBADEFFXXX' },
  bank_name: { label: 'Bank', expected: 'at most 100 characters' },
  account_holder: { label: 'Account holder', expected: 'at most 200 characters' },
  is_default: { label: 'Default', expected: 'yes or no' },

  // payment term
  days: { label: 'Payment period (days)', expected: 'a whole number from 0 to 365' },
  discount: { label: 'Early-payment discount', expected: 'a percentage and a number of days' },
  'discount.percent': { label: 'Early-payment discount (%)', expected: 'more than 0 and at most 100, at most 2 decimals, e.g. 2' },
  'discount.days': {
    label: 'Early-payment discount period (days)',
    expected: 'a whole number from 1 to 365, fewer than the payment period',
  },
  text_de: { label: 'Text (German)', expected: 'at most 500 characters' },
  text_en: { label: 'Text (English)', expected: 'at most 500 characters' },

  // number ranges
  pattern: { label: 'Number format', expected: 'e.g. RE-{YYYY}-{SEQ:5}, with {SEQ} or {SEQ:n} exactly once, at most 40 characters' },
  reset: { label: 'Restart', expected: 'never, yearly or monthly' },
  next_value: { label: 'Next number', expected: 'a whole number of at least 1' },

  // DATEV
  consultant_number: { label: 'DATEV consultant number', expected: 'a number from 1000 to 9999999' },
  client_number: { label: 'DATEV client number', expected: 'a number from 1 to 99999' },
  chart_of_accounts: { label: 'Chart of accounts', expected: 'SKR03 or SKR04' },
  fiscal_year_start_month: { label: 'First month of the fiscal year', expected: 'a month from 1 (January) to 12' },
  account_length: { label: 'Account length', expected: 'a number of digits from 4 to 8' },
  mappings: { label: 'Account mappings', expected: 'at most 50 rows, each with a tax treatment and an account' },
  account: { label: 'Account', expected: 'an account number from 1 to 999999999' },
  receivables_account: { label: 'Receivables account', expected: 'an account number from 1 to 999999999' },
  debtor_accounts: { label: 'Debtor accounts', expected: 'one per customer or one collective account' },
  collective_debtor_account: { label: 'Collective debtor account', expected: 'an account number from 1 to 999999999' },
  bank_account: { label: 'Bank account (ledger)', expected: 'an account number from 1 to 999999999' },
  discount_account_standard: { label: 'Discount account (standard rate)', expected: 'an account number from 1 to 999999999' },
  discount_account_reduced: { label: 'Discount account (reduced rate)', expected: 'an account number from 1 to 999999999' },
  discount_account_untaxed: { label: 'Discount account (untaxed)', expected: 'an account number from 1 to 999999999' },
  expense_account: { label: 'Expense account', expected: 'an account number from 1 to 999999999' },

  // dunning settings
  interval_days: { label: 'Days between the levels', expected: 'three numbers of days up to 365, e.g. 7, 14, 14' },
  fees: { label: 'Dunning fees', expected: 'three amounts in euros of at most 10,000, e.g. 0, 5, 10' },
  pay_within_days: { label: 'Payment period of the dunning notice (days)', expected: 'a whole number from 1 to 90' },

  // recurring invoices
  interval: { label: 'Interval', expected: 'monthly, quarterly or yearly' },
  day_of_month: { label: 'Day of the month', expected: 'a day from 1 to 28, or the last day' },
  start_date: { label: 'Start date', expected: 'a date such as 2026-12-01, not long in the past' },
  end_date: { label: 'End date', expected: 'a date such as 2027-11-30, after the start date' },
} as const satisfies Record<string, FieldText>;

type FieldKey = keyof typeof FIELDS_EN;

const FIELDS_DE: Record<FieldKey, FieldText> = {
  name: { label: 'Name', expected: '1 bis 100 Zeichen, die sagen, wofür der Schlüssel ist' },
  role: { label: 'Rolle', expected: 'eine von Inhaber, Administrator, Mitglied, Betrachter' },
  mode: { label: 'Modus', expected: 'Live oder Test' },
  email: { label: 'E-Mail-Adresse', expected: 'eine Adresse wie name@example.com' },
  url: { label: 'URL', expected: 'eine https://-Adresse im öffentlichen Internet, höchstens 2048 Zeichen' },
  description: { label: 'Beschreibung', expected: 'höchstens 500 Zeichen' },
  'positions.description': { label: 'Beschreibung', expected: 'höchstens 2.000 Zeichen' },
  event_types: { label: 'Ereignisse', expected: 'eines oder mehrere der aufgeführten Ereignisse' },
  password: { label: 'Passwort', expected: 'mindestens 12 Zeichen' },

  customer_id: { label: 'Kunde', expected: 'einer Ihrer Kunden' },
  invoice_number: { label: 'Rechnungsnummer', expected: '1 bis 50 Zeichen, oder leer für den Nummernkreis' },
  invoice_format: { label: 'Rechnungsformat', expected: 'eines der aufgeführten Formate' },
  invoice_date: { label: 'Rechnungsdatum', expected: 'ein Datum wie 29.11.2026' },
  benefit_period_start: { label: 'Leistungszeitraum von', expected: 'ein Datum wie 01.11.2026' },
  benefit_period_end: { label: 'Leistungszeitraum bis', expected: 'ein Datum wie 30.11.2026, nicht vor dem Beginn' },
  buyer_reference: { label: 'Käuferreferenz (Leitweg-ID)', expected: 'höchstens 200 Zeichen, z. B. 04011000-12345-03' },
  note: { label: 'Bemerkung', expected: 'höchstens 2.000 Zeichen' },
  tax_treatment_id: { label: 'Steuerliche Behandlung', expected: 'eine der aufgeführten Behandlungen' },
  positions: { label: 'Positionen', expected: 'mindestens eine Position mit Bezeichnung, Menge und Preis' },
  product_id: { label: 'Artikel', expected: 'einer Ihrer aktiven Artikel' },
  title: { label: 'Bezeichnung', expected: '1 bis 500 Zeichen' },
  quantity: { label: 'Menge', expected: 'eine Zahl ab 0 mit höchstens 4 Nachkommastellen, z. B. 1,5' },
  unit_id: { label: 'Einheit', expected: 'eine der aufgeführten Einheiten (z. B. Stunde, Stück, Tag)' },
  unit_net_amount: { label: 'Einzelpreis (netto)', expected: 'ein Betrag in Euro ab 0, z. B. 120,00' },
  unit_price: { label: 'Einzelpreis (netto)', expected: 'ein Betrag in Euro ab 0, z. B. 120,00' },
  single_net_amount: { label: 'Nettobetrag', expected: 'ein Betrag in Euro, z. B. 120,00' },
  tax_rate: { label: 'USt-Satz', expected: 'ein Satz unter 100 %, z. B. 19 % oder 7 %' },
  vat_rate: { label: 'USt-Satz', expected: 'ein Satz unter 100 %, z. B. 19 % oder 7 %' },
  discount_type: { label: 'Rabattart', expected: 'Prozent oder fester Betrag' },
  discount_value: { label: 'Rabatt', expected: 'ein Prozentsatz bis 100 oder ein Betrag in Euro' },
  due_date: { label: 'Fälligkeitsdatum', expected: 'ein Datum wie 29.12.2026, nicht vor dem Rechnungsdatum' },
  vat_override_confirmed: { label: 'Trotz unbestätigter USt-IdNr. festschreiben', expected: 'ja oder nein' },

  amount: { label: 'Betrag', expected: 'ein Betrag in Euro ab 0,01, höchstens der offene Betrag' },
  date: { label: 'Datum', expected: 'ein Datum wie 29.11.2026, nicht vor dem Rechnungsdatum und höchstens einen Tag in der Zukunft' },
  method: { label: 'Zahlungsart', expected: 'Überweisung, bar, Karte, Lastschrift, PayPal oder sonstige' },
  reference: { label: 'Verwendungszweck', expected: 'höchstens 200 Zeichen' },
  skonto: { label: 'Skonto', expected: 'ja oder nein' },
  invoice_id: { label: 'Rechnung', expected: 'eine Ihrer festgeschriebenen, offenen Rechnungen' },
  reason: { label: 'Grund', expected: 'ein kurzer Text' },
  to: { label: 'An', expected: 'eine oder mehrere E-Mail-Adressen, insgesamt höchstens 10 Empfänger' },
  cc: { label: 'Cc', expected: 'E-Mail-Adressen, insgesamt höchstens 10 Empfänger' },
  bcc: { label: 'Bcc', expected: 'E-Mail-Adressen, insgesamt höchstens 10 Empfänger' },
  subject: { label: 'Betreff', expected: '1 bis 200 Zeichen' },
  body: { label: 'Nachricht', expected: 'der Text der E-Mail' },
  file: { label: 'Datei', expected: 'eine Datei zulässigen Typs und zulässiger Größe' },

  contact_type: { label: 'Kundenart', expected: 'Unternehmen (B2B) oder Privatperson (B2C)' },
  organization_name: { label: 'Firmenname', expected: '1 bis 200 Zeichen; Pflicht bei Geschäftskunden' },
  first_name: { label: 'Vorname', expected: '1 bis 100 Zeichen; Pflicht bei Privatkunden' },
  last_name: { label: 'Nachname', expected: '1 bis 100 Zeichen; Pflicht bei Privatkunden' },
  salutation: { label: 'Anrede', expected: 'Herr, Frau oder divers' },
  vat_id: { label: 'USt-IdNr.', expected: 'eine Umsatzsteuer-Identifikationsnummer mit Länderkennung, z. B. DE123456789' },
  tax_number: { label: 'Steuernummer', expected: 'höchstens 30 Zeichen, z. B. 21/815/08150' },
  peppol_id: { label: 'Peppol-ID', expected: 'Schema und Kennung, z. B. 0088:4035811991021' },
  language: { label: 'Sprache', expected: 'Deutsch oder Englisch' },
  payment_term_id: { label: 'Zahlungsbedingung', expected: 'eine Ihrer Zahlungsbedingungen' },
  phone: { label: 'Telefon', expected: 'höchstens 50 Zeichen' },
  address_line_1: { label: 'Straße und Hausnummer', expected: '1 bis 200 Zeichen' },
  address_line_2: { label: 'Adresszusatz', expected: 'höchstens 200 Zeichen' },
  company: { label: 'Firma (Anschrift)', expected: 'höchstens 200 Zeichen' },
  postal_code: { label: 'Postleitzahl', expected: 'höchstens 20 Zeichen, z. B. 10117' },
  city: { label: 'Ort', expected: '1 bis 100 Zeichen' },
  state_province: { label: 'Bundesland oder Region', expected: 'höchstens 100 Zeichen' },
  country_code: { label: 'Land', expected: 'ein Land wie Deutschland (DE)' },
  codice_destinatario: { label: 'SdI-Empfängercode', expected: '7 Zeichen (6 bei öffentlichen Verwaltungen)' },
  pec: { label: 'PEC-Adresse', expected: 'eine zertifizierte E-Mail-Adresse' },
  codice_fiscale: { label: 'Codice fiscale', expected: '16 Zeichen oder 11 Ziffern mit Prüfzeichen' },
  partita_iva: { label: 'Partita IVA', expected: '11 Ziffern mit Prüfziffer' },

  legal_name: { label: 'Firmenname', expected: '1 bis 200 Zeichen, wie im Handelsregister' },
  trading_name: { label: 'Handelsname', expected: '1 bis 200 Zeichen' },
  address: { label: 'Anschrift', expected: 'Straße, Postleitzahl, Ort und Land' },
  'address.line1': { label: 'Straße und Hausnummer', expected: '1 bis 200 Zeichen' },
  'address.line2': { label: 'Adresszusatz', expected: 'höchstens 200 Zeichen' },
  registration_court: { label: 'Registergericht', expected: 'höchstens 100 Zeichen, z. B. Amtsgericht Berlin-Charlottenburg' },
  registration_id: { label: 'Handelsregisternummer', expected: 'höchstens 50 Zeichen, z. B. HRB 12345' },
  registration_id_scheme: {
    label: 'Registerschema',
    expected: 'ein vierstelliger ICD-Code, z. B. 0106; leer beim deutschen Handelsregister',
  },
  seller_identifier: { label: 'Verkäuferkennung', expected: 'höchstens 100 Zeichen, z. B. eine GLN' },
  seller_identifier_scheme: { label: 'Schema der Verkäuferkennung', expected: 'ein vierstelliger ICD-Code, z. B. 0088 für eine GLN' },
  managing_directors: { label: 'Geschäftsführer', expected: 'höchstens 10 Namen mit je höchstens 100 Zeichen' },
  contact_name: { label: 'Ansprechpartner', expected: 'höchstens 100 Zeichen' },
  website: { label: 'Website', expected: 'eine Adresse wie https://www.example.com' },
  default_language: { label: 'Standardsprache', expected: 'Deutsch oder Englisch' },
  payment_term_days: { label: 'Zahlungsziel (Tage)', expected: 'eine ganze Zahl von 0 bis 365' },
  small_business: { label: 'Kleinunternehmer (§ 19 UStG)', expected: 'ja oder nein' },
  default_payment_term_id: { label: 'Standard-Zahlungsbedingung', expected: 'eine Ihrer Zahlungsbedingungen' },
  default_template_id: { label: 'Standardvorlage', expected: 'eine der aufgeführten Vorlagen' },

  iban: { label: 'IBAN', expected: 'eine gültige IBAN, z. B. DE89 3704 0044 0532 0130 00' },
  bic: { label: 'BIC', expected: '8 oder 11 Zeichen, z. B. COBADEFFXXX' },
  bank_name: { label: 'Bank', expected: 'höchstens 100 Zeichen' },
  account_holder: { label: 'Kontoinhaber', expected: 'höchstens 200 Zeichen' },
  is_default: { label: 'Standard', expected: 'ja oder nein' },

  days: { label: 'Zahlungsziel (Tage)', expected: 'eine ganze Zahl von 0 bis 365' },
  discount: { label: 'Skonto', expected: 'ein Prozentsatz und eine Anzahl Tage' },
  'discount.percent': { label: 'Skonto (%)', expected: 'mehr als 0 und höchstens 100, höchstens 2 Nachkommastellen, z. B. 2' },
  'discount.days': { label: 'Skontofrist (Tage)', expected: 'eine ganze Zahl von 1 bis 365, kürzer als das Zahlungsziel' },
  text_de: { label: 'Text (Deutsch)', expected: 'höchstens 500 Zeichen' },
  text_en: { label: 'Text (Englisch)', expected: 'höchstens 500 Zeichen' },

  pattern: {
    label: 'Nummernformat',
    expected: 'z. B. RE-{YYYY}-{SEQ:5}, mit {SEQ} oder {SEQ:n} genau einmal, höchstens 40 Zeichen',
  },
  reset: { label: 'Neubeginn', expected: 'nie, jährlich oder monatlich' },
  next_value: { label: 'Nächste Nummer', expected: 'eine ganze Zahl ab 1' },

  consultant_number: { label: 'DATEV-Beraternummer', expected: 'eine Zahl von 1000 bis 9999999' },
  client_number: { label: 'DATEV-Mandantennummer', expected: 'eine Zahl von 1 bis 99999' },
  chart_of_accounts: { label: 'Kontenrahmen', expected: 'SKR03 oder SKR04' },
  fiscal_year_start_month: { label: 'Erster Monat des Wirtschaftsjahres', expected: 'ein Monat von 1 (Januar) bis 12' },
  account_length: { label: 'Sachkontenlänge', expected: 'eine Stellenzahl von 4 bis 8' },
  mappings: { label: 'Kontenzuordnung', expected: 'höchstens 50 Zeilen, jede mit steuerlicher Behandlung und Konto' },
  account: { label: 'Konto', expected: 'eine Kontonummer von 1 bis 999999999' },
  receivables_account: { label: 'Forderungskonto', expected: 'eine Kontonummer von 1 bis 999999999' },
  debtor_accounts: { label: 'Debitorenkonten', expected: 'eines je Kunde oder ein Sammelkonto' },
  collective_debtor_account: { label: 'Sammeldebitor', expected: 'eine Kontonummer von 1 bis 999999999' },
  bank_account: { label: 'Bankkonto (Sachkonto)', expected: 'eine Kontonummer von 1 bis 999999999' },
  discount_account_standard: { label: 'Skontokonto (Regelsteuersatz)', expected: 'eine Kontonummer von 1 bis 999999999' },
  discount_account_reduced: { label: 'Skontokonto (ermäßigter Steuersatz)', expected: 'eine Kontonummer von 1 bis 999999999' },
  discount_account_untaxed: { label: 'Skontokonto (steuerfrei)', expected: 'eine Kontonummer von 1 bis 999999999' },
  expense_account: { label: 'Aufwandskonto', expected: 'eine Kontonummer von 1 bis 999999999' },

  interval_days: { label: 'Tage zwischen den Mahnstufen', expected: 'drei Anzahlen von Tagen bis 365, z. B. 7, 14, 14' },
  fees: { label: 'Mahngebühren', expected: 'drei Beträge in Euro bis 10.000, z. B. 0, 5, 10' },
  pay_within_days: { label: 'Zahlungsfrist der Mahnung (Tage)', expected: 'eine ganze Zahl von 1 bis 90' },

  interval: { label: 'Intervall', expected: 'monatlich, vierteljährlich oder jährlich' },
  day_of_month: { label: 'Tag im Monat', expected: 'ein Tag von 1 bis 28 oder der Monatsletzte' },
  start_date: { label: 'Startdatum', expected: 'ein Datum wie 01.12.2026, nicht lange in der Vergangenheit' },
  end_date: { label: 'Enddatum', expected: 'ein Datum wie 30.11.2027, nach dem Startdatum' },
};

/** Form fields by language (FIELDS_EN has the keys; FIELDS_DE must have each). */
export const FIELD_TEXTS: Record<Lang, Record<string, FieldText>> = { de: FIELDS_DE, en: FIELDS_EN };

/** Where a form's field means something else than the common meaning above. */
export const FORM_FIELD_TEXTS: Record<Lang, Record<ProblemForm, Record<string, FieldText>>> = {
  en: {
    apiKey: {},
    paymentTerm: {
      name: { label: 'Name', expected: '1 to 100 characters, e.g. 14 days net' },
    },
    recurring: {
      name: { label: 'Name', expected: '1 to 200 characters, e.g. Monthly rent' },
    },
    product: {
      name: { label: 'Name', expected: '1 to 500 characters' },
      description: { label: 'Description', expected: 'at most 2,000 characters' },
    },
    companyProfile: {
      phone: { label: 'Phone', expected: 'at most 40 characters' },
      vat_id: { label: 'VAT ID', expected: 'at most 20 characters with country prefix, e.g. DE123456789' },
    },
  },
  de: {
    apiKey: {},
    paymentTerm: {
      name: { label: 'Name', expected: '1 bis 100 Zeichen, z. B. 14 Tage netto' },
    },
    recurring: {
      name: { label: 'Name', expected: '1 bis 200 Zeichen, z. B. Monatsmiete' },
    },
    product: {
      name: { label: 'Name', expected: '1 bis 500 Zeichen' },
      description: { label: 'Beschreibung', expected: 'höchstens 2.000 Zeichen' },
    },
    companyProfile: {
      phone: { label: 'Telefon', expected: 'höchstens 40 Zeichen' },
      vat_id: { label: 'USt-IdNr.', expected: 'höchstens 20 Zeichen mit Länderkennung, z. B. DE123456789' },
    },
  },
};

/**
 * The field of an API path (`positions.0.quantity`, `address.postal_code`, `event_types.0`): the path without its
 * numeric segments, then each shorter tail of it (`template.positions.description`, `positions.description`,
 * `description`), then its first segment, as the form (or else the common list) knows it.
 */
export function fieldText(lang: Lang, path: string, form?: ProblemForm): FieldText | undefined {
  const segments = path.split('.').filter((s) => s !== '' && !/^\d+$/.test(s));
  if (!segments.length) return undefined;
  const candidates = [...segments.map((_s, i) => segments.slice(i).join('.')), segments[0]!];
  const tables = [form ? FORM_FIELD_TEXTS[lang][form] : undefined, FIELD_TEXTS[lang]];
  for (const key of candidates) for (const table of tables) if (table && Object.hasOwn(table, key)) return table[key];
  return undefined;
}

/**
 * A sentence that names what the problem document carries besides its code (`open_amount`, `reset_date`, …): used
 * when the body has each `{member:type}` it names (and the members `when` names have those values), else the plain
 * sentence above applies. Types: int (a count), money (EUR), date (YYYY-MM-DD), currency (ISO 4217).
 */
export type DataText = { when?: Record<string, string>; text: string };

const DATA_TEXTS_EN = {
  INVOICE_LIMIT_REACHED: [
    {
      text: 'Your plan’s quota of {limit:int} finalized invoices this month is used up. Drafts can still be prepared; finalize them from {reset_date:date}, when the quota resets, or after upgrading the plan.',
    },
  ],
  PAYMENT_EXCEEDS_OPEN_AMOUNT: [
    { text: 'The payment (with any early-payment discount) is higher than the open amount of {open_amount:money}. Check the amount.' },
  ],
  CREDIT_EXCEEDS_INVOICE: [
    { text: 'The invoice can be credited by at most {remaining_gross:money} more. Reduce the amount of the credit note.' },
  ],
  PAYMENT_TERM_IN_USE: [
    {
      when: { is_default: 'true' },
      text: 'This payment term is the company’s default. Choose another default payment term under Settings → Company first.',
    },
    { when: { customers: '1' }, text: 'This payment term is still assigned to one customer. Assign another payment term to it first.' },
    { text: 'This payment term is still assigned to {customers:int} customers. Assign another payment term to them first.' },
  ],
  EMAIL_LIMIT_EXCEEDED: [
    {
      when: { scope: 'company' },
      text: 'Your company has already sent {limit:int} e-mails today, the most per day. Please send it again tomorrow.',
    },
    {
      when: { scope: 'invoice' },
      text: 'This invoice has already been sent {limit:int} times today, the most per day. Please send it again tomorrow.',
    },
  ],
  LOGO_DIMENSIONS_TOO_LARGE: [
    { text: 'The logo has {width:int} × {height:int} pixels, more than 25 megapixels. Scale the image down and upload it again.' },
  ],
  BANK_ENTRY_CURRENCY_MISMATCH: [
    {
      text: 'The incoming payment is in {currency:currency}, not in euros. Record the euro amount your bank booked as a payment on the invoice.',
    },
  ],
} as const satisfies Partial<Record<ProblemCode, readonly DataText[]>>;

const DATA_TEXTS_DE: Record<keyof typeof DATA_TEXTS_EN, DataText[]> = {
  INVOICE_LIMIT_REACHED: [
    {
      text: 'Das Kontingent Ihres Tarifs von {limit:int} festgeschriebenen Rechnungen ist für diesen Monat ausgeschöpft. Entwürfe können Sie weiter anlegen; schreiben Sie sie ab dem {reset_date:date} fest, wenn das Kontingent zurückgesetzt wird, oder nach einem Tarifwechsel.',
    },
  ],
  PAYMENT_EXCEEDS_OPEN_AMOUNT: [
    { text: 'Die Zahlung (mit einem etwaigen Skonto) ist höher als der offene Betrag von {open_amount:money}. Prüfen Sie den Betrag.' },
  ],
  CREDIT_EXCEEDS_INVOICE: [
    {
      text: 'Die Rechnung kann nur noch um höchstens {remaining_gross:money} gutgeschrieben werden. Verringern Sie den Betrag der Gutschrift.',
    },
  ],
  PAYMENT_TERM_IN_USE: [
    {
      when: { is_default: 'true' },
      text: 'Diese Zahlungsbedingung ist die Standard-Zahlungsbedingung des Unternehmens. Wählen Sie zuerst unter Einstellungen → Unternehmen eine andere als Standard.',
    },
    { when: { customers: '1' }, text: 'Diese Zahlungsbedingung ist noch einem Kunden zugeordnet. Ordnen Sie ihm zuerst eine andere zu.' },
    { text: 'Diese Zahlungsbedingung ist noch {customers:int} Kunden zugeordnet. Ordnen Sie ihnen zuerst eine andere zu.' },
  ],
  EMAIL_LIMIT_EXCEEDED: [
    {
      when: { scope: 'company' },
      text: 'Ihr Unternehmen hat heute bereits {limit:int} E-Mails gesendet, das Tagesmaximum. Bitte senden Sie die E-Mail morgen erneut.',
    },
    {
      when: { scope: 'invoice' },
      text: 'Diese Rechnung wurde heute bereits {limit:int}-mal gesendet, das Tagesmaximum. Bitte senden Sie sie morgen erneut.',
    },
  ],
  LOGO_DIMENSIONS_TOO_LARGE: [
    {
      text: 'Das Logo hat {width:int} × {height:int} Pixel, mehr als 25 Megapixel. Verkleinern Sie das Bild und laden Sie es erneut hoch.',
    },
  ],
  BANK_ENTRY_CURRENCY_MISMATCH: [
    {
      text: 'Der Zahlungseingang ist in {currency:currency}, nicht in Euro. Erfassen Sie den Euro-Betrag, den Ihre Bank gebucht hat, als Zahlung zur Rechnung.',
    },
  ],
};

export const PROBLEM_DATA_TEXTS: Record<Lang, Partial<Record<ProblemCode, readonly DataText[]>>> = { de: DATA_TEXTS_DE, en: DATA_TEXTS_EN };

const LOCALES: Record<Lang, string> = { de: 'de-DE', en: 'en-GB' };
/** A member of the problem document in the page's language, or undefined when it is not what the type expects. */
function formatted(lang: Lang, type: string, value: unknown): string | undefined {
  const locale = LOCALES[lang];
  switch (type) {
    case 'int':
      return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
        ? new Intl.NumberFormat(locale).format(value)
        : undefined;
    case 'money':
      return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) < 1e13
        ? new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(value)
        : undefined;
    case 'date': {
      if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
      const date = new Date(`${value}T00:00:00Z`);
      return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value
        ? undefined
        : new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
    }
    case 'currency':
      return typeof value === 'string' && /^[A-Z]{3}$/.test(value) ? value : undefined;
    default:
      return undefined;
  }
}

/** The sentence of `code` naming the data `body` carries (PROBLEM_DATA_TEXTS), or undefined when it carries too little. */
export function problemTextWithData(lang: Lang, code: string, body: Record<string, unknown>): string | undefined {
  const table = PROBLEM_DATA_TEXTS[lang];
  const entries = Object.hasOwn(table, code) ? table[code as ProblemCode] : undefined;
  const member = (name: string) => (Object.hasOwn(body, name) ? body[name] : undefined);
  for (const entry of entries ?? []) {
    if (entry.when && !Object.entries(entry.when).every(([name, value]) => String(member(name)) === value)) continue;
    let complete = true;
    const text = entry.text.replace(/\{(\w+):(\w+)\}/g, (_m, name: string, type: string) => {
      const value = formatted(lang, type, member(name));
      if (value === undefined) complete = false;
      return value ?? '';
    });
    if (complete) return text;
  }
  return undefined;
}
