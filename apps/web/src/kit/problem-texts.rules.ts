import type { Lang } from './i18n';

/**
 * What each finding of an invoice check means (the `rule` of the `errors` and `warnings` of GET /invoice/{id}/validate,
 * of INVOICE_NOT_VALID at finalization and of RECURRING_TEMPLATE_NOT_VALID): the platform's own checks
 * (apps/invoice-service validate-invoice.ts) and the e-invoice format rules (libs/einvoice requirements.ts: EN 16931,
 * XRechnung, Peppol, FatturaPA, Facturae). The company's data is set under Settings → Company, the customer's in the
 * customer. problem-texts.spec.ts scans both sources and fails when a rule lacks a sentence.
 */
const RULES_EN = {
  // the platform's own checks
  CUSTOMER_EXISTS: 'The invoice’s customer no longer exists. Choose a customer.',
  BILLING_ADDRESS_REQUIRED: 'The customer has no billing address. Add one to the customer.',
  AT_LEAST_ONE_POSITION: 'The invoice has no positions. Add at least one.',
  SELLER_PROFILE: 'The company profile is incomplete. Complete it under Settings → Company.',
  BANK_ACCOUNT_REQUIRED: 'The company has no bank account for the payment details. Add one under Settings → Bank accounts.',
  VAT_OVERRIDE_REQUIRED: 'The customer’s VAT ID is not confirmed. Correct it, or confirm that you want to finalize anyway.',
  AMOUNT_BOUNDS: 'Some positions have amounts outside the supported range. Correct their quantities and prices.',
  SMALL_BUSINESS_NO_VAT: 'As a small business (§ 19 UStG), the positions are invoiced without VAT.',
  VAT_RATE_NOT_IN_FORCE: 'A VAT rate did not apply on the date of supply. Check the VAT rates of the positions.',
  ATTACHMENT_NOT_IN_XML: 'Some attachments cannot be embedded in this e-invoice format; they are sent separately.',

  // the invoice and its positions
  'date-format': 'A date is not a valid calendar date.',
  'BR-02': 'The invoice number is missing.',
  'BR-03': 'The invoice date is missing.',
  'BR-05': 'Only invoices in euros are supported.',
  'BR-16': 'The invoice has no positions. Add at least one.',
  'BR-21': 'A position has no identifier. Save the position again.',
  'BR-22': 'A position has no quantity.',
  'BR-23': 'A position has no unit.',
  'BR-25': 'A position has no title.',
  'BR-26': 'A position has no net price.',
  'BR-27': 'The net price of a position must not be negative.',
  'BR-CO-04': 'A position has no tax treatment (VAT category).',
  amounts: 'Some amounts of the positions cannot be computed. Check quantities, prices and discounts.',
  'BR-29': 'The service period ends before it starts.',
  'BG-3': 'A credit note must name the invoice it corrects.',
  'BR-CO-25': 'An amount due needs a due date or payment terms. Assign a payment term.',

  // the company (seller) and the customer (buyer)
  'BR-06': 'The company’s legal name is missing. Complete the company profile.',
  'BR-08': 'The company’s postal address (street, city) is missing. Complete the company profile.',
  'BR-09': 'The company’s country is missing. Complete the company profile.',
  'BR-07': 'The customer’s name is missing.',
  'BR-10': 'The customer’s postal address (street, city) is missing.',
  'BR-11': 'The customer’s country is missing.',
  'BR-CO-26':
    'The company needs a VAT ID, a seller identifier (e.g. a GLN) or a commercial register number; a tax number alone is not enough.',
  'BR-61': 'Payment by transfer needs the company’s IBAN. Add a bank account under Settings → Bank accounts.',

  // VAT categories
  'BR-S-02': 'The company’s VAT ID or tax number is missing. Add it to the company profile.',
  'BR-E-02': 'VAT-exempt positions need the company’s VAT ID or tax number. Add it to the company profile.',
  'BR-AE-02': 'Reverse charge needs the VAT IDs of the company and of the customer.',
  'BR-IC-02': 'An intra-community supply needs the VAT IDs of the company and of the customer.',
  'BR-IC-11': 'An intra-community supply needs the delivery date or the service period.',
  'BR-IC-12': 'An intra-community supply needs the country of delivery.',
  'BR-G-02': 'An export needs the company’s VAT ID.',
  'BR-O-02': 'An invoice not subject to VAT must not carry the VAT ID of the company or of the customer.',
  'BR-O-11': 'Positions not subject to VAT cannot be combined with other tax treatments on one invoice.',

  // XRechnung
  'BR-DE-01': 'Payment details are missing. Add a bank account under Settings → Bank accounts.',
  'BR-DE-03': 'The company’s city is missing. Complete the company profile.',
  'BR-DE-04': 'The company’s postal code is missing. Complete the company profile.',
  'BR-DE-05': 'The company’s contact person is missing. Complete the company profile.',
  'BR-DE-06': 'The company’s phone number is missing. Complete the company profile.',
  'BR-DE-07': 'The company’s e-mail address is missing. Complete the company profile.',
  'BR-DE-08': 'The customer’s city is missing. Complete the customer’s billing address.',
  'BR-DE-09': 'The customer’s postal code is missing. Complete the customer’s billing address.',
  'BR-DE-15': 'The buyer reference (the Leitweg-ID for public-sector customers) is missing. Enter it in the invoice or the customer.',
  'BR-DE-16': 'XRechnung needs the company’s VAT ID or tax number. Add it to the company profile.',

  // Peppol
  'PEPPOL-EN16931-R003': 'Peppol needs a buyer reference or a purchase order reference.',
  'PEPPOL-EN16931-R010': 'The customer’s electronic address (Peppol ID) is missing. Add it to the customer.',
  'PEPPOL-EN16931-R020': 'The company’s electronic address (Peppol ID) is missing. Add it to the company profile.',
  'PEPPOL-EN16931-CL008': 'An electronic address uses a scheme Peppol does not know; an e-mail address cannot be a Peppol ID.',
  'DE-R-001': 'Peppol between German companies needs payment details. Add a bank account under Settings → Bank accounts.',
  'DE-R-005': 'Peppol between German companies needs the company’s contact person. Complete the company profile.',
  'DE-R-006': 'Peppol between German companies needs the company’s phone number. Complete the company profile.',
  'DE-R-007': 'Peppol between German companies needs the company’s e-mail address. Complete the company profile.',
  'DE-R-015': 'Peppol between German companies needs the buyer reference. Enter it in the invoice or the customer.',

  // FatturaPA (Italy), Facturae (Spain)
  'FatturaPA:CedentePrestatore/IdFiscaleIVA': 'FatturaPA needs the company’s VAT ID. Add it to the company profile.',
  'FatturaPA:CessionarioCommittente/CodiceFiscale': 'An Italian customer needs a VAT ID (Partita IVA) or a codice fiscale.',
  'FatturaPA:CodiceDestinatario':
    'An Italian customer needs a valid SdI recipient code (7 characters, 6 for public administrations) or a PEC address.',
  'FatturaPA:CAP': 'An Italian address needs a five-digit postal code (CAP).',
  'Facturae:TaxIdentificationNumber': 'Facturae needs the tax identification (VAT ID or NIF) of the company and of the customer.',
  'Facturae:CountryCode': 'A country of the company or the customer is not supported by Facturae.',
  'Facturae:PostCode': 'A Spanish address needs a five-digit postal code.',
} as const satisfies Record<string, string>;

export type ProblemRule = keyof typeof RULES_EN;

const RULES_DE: Record<ProblemRule, string> = {
  CUSTOMER_EXISTS: 'Den Kunden der Rechnung gibt es nicht mehr. Wählen Sie einen Kunden.',
  BILLING_ADDRESS_REQUIRED: 'Der Kunde hat keine Rechnungsanschrift. Ergänzen Sie sie beim Kunden.',
  AT_LEAST_ONE_POSITION: 'Die Rechnung hat keine Positionen. Fügen Sie mindestens eine hinzu.',
  SELLER_PROFILE: 'Das Unternehmensprofil ist unvollständig. Ergänzen Sie es unter Einstellungen → Unternehmen.',
  BANK_ACCOUNT_REQUIRED: 'Das Unternehmen hat kein Bankkonto für die Zahlungsangaben. Legen Sie eines unter Einstellungen → Bankkonten an.',
  VAT_OVERRIDE_REQUIRED:
    'Die USt-IdNr. des Kunden ist nicht bestätigt. Korrigieren Sie sie oder bestätigen Sie, dass Sie trotzdem festschreiben wollen.',
  AMOUNT_BOUNDS: 'Einige Positionen haben Beträge außerhalb des zulässigen Bereichs. Korrigieren Sie ihre Mengen und Preise.',
  SMALL_BUSINESS_NO_VAT: 'Als Kleinunternehmer (§ 19 UStG) werden die Positionen ohne Umsatzsteuer berechnet.',
  VAT_RATE_NOT_IN_FORCE: 'Ein USt-Satz galt am Tag der Leistung nicht. Prüfen Sie die USt-Sätze der Positionen.',
  ATTACHMENT_NOT_IN_XML: 'Einige Anhänge können in diesem E-Rechnungsformat nicht eingebettet werden; sie werden gesondert versendet.',

  'date-format': 'Ein Datum ist kein gültiges Kalenderdatum.',
  'BR-02': 'Die Rechnungsnummer fehlt.',
  'BR-03': 'Das Rechnungsdatum fehlt.',
  'BR-05': 'Es werden nur Rechnungen in Euro unterstützt.',
  'BR-16': 'Die Rechnung hat keine Positionen. Fügen Sie mindestens eine hinzu.',
  'BR-21': 'Einer Position fehlt die Kennung. Speichern Sie die Position erneut.',
  'BR-22': 'Einer Position fehlt die Menge.',
  'BR-23': 'Einer Position fehlt die Einheit.',
  'BR-25': 'Einer Position fehlt die Bezeichnung.',
  'BR-26': 'Einer Position fehlt der Nettopreis.',
  'BR-27': 'Der Nettopreis einer Position darf nicht negativ sein.',
  'BR-CO-04': 'Einer Position fehlt die steuerliche Behandlung (Umsatzsteuerkategorie).',
  amounts: 'Einige Beträge der Positionen lassen sich nicht berechnen. Prüfen Sie Mengen, Preise und Rabatte.',
  'BR-29': 'Der Leistungszeitraum endet, bevor er beginnt.',
  'BG-3': 'Eine Gutschrift muss die Rechnung nennen, die sie korrigiert.',
  'BR-CO-25': 'Ein zu zahlender Betrag braucht ein Fälligkeitsdatum oder Zahlungsbedingungen. Ordnen Sie eine Zahlungsbedingung zu.',

  'BR-06': 'Der Firmenname des Unternehmens fehlt. Ergänzen Sie das Unternehmensprofil.',
  'BR-08': 'Die Anschrift des Unternehmens (Straße, Ort) fehlt. Ergänzen Sie das Unternehmensprofil.',
  'BR-09': 'Das Land des Unternehmens fehlt. Ergänzen Sie das Unternehmensprofil.',
  'BR-07': 'Der Name des Kunden fehlt.',
  'BR-10': 'Die Anschrift des Kunden (Straße, Ort) fehlt.',
  'BR-11': 'Das Land des Kunden fehlt.',
  'BR-CO-26':
    'Das Unternehmen braucht eine USt-IdNr., eine Verkäuferkennung (z. B. eine GLN) oder eine Handelsregisternummer; die Steuernummer allein genügt nicht.',
  'BR-61': 'Für die Zahlung per Überweisung fehlt die IBAN des Unternehmens. Legen Sie ein Bankkonto unter Einstellungen → Bankkonten an.',

  'BR-S-02': 'Die USt-IdNr. oder Steuernummer des Unternehmens fehlt. Ergänzen Sie sie im Unternehmensprofil.',
  'BR-E-02': 'Steuerfreie Positionen erfordern die USt-IdNr. oder Steuernummer des Unternehmens. Ergänzen Sie sie im Unternehmensprofil.',
  'BR-AE-02': 'Die Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge) erfordert die USt-IdNr. des Unternehmens und des Kunden.',
  'BR-IC-02': 'Eine innergemeinschaftliche Lieferung erfordert die USt-IdNr. des Unternehmens und des Kunden.',
  'BR-IC-11': 'Eine innergemeinschaftliche Lieferung erfordert das Lieferdatum oder den Leistungszeitraum.',
  'BR-IC-12': 'Eine innergemeinschaftliche Lieferung erfordert das Lieferland.',
  'BR-G-02': 'Eine Ausfuhrlieferung erfordert die USt-IdNr. des Unternehmens.',
  'BR-O-02': 'Eine nicht umsatzsteuerbare Rechnung darf keine USt-IdNr. des Unternehmens oder des Kunden enthalten.',
  'BR-O-11': 'Nicht umsatzsteuerbare Positionen können nicht mit anderen steuerlichen Behandlungen auf einer Rechnung stehen.',

  'BR-DE-01': 'Die Zahlungsangaben fehlen. Legen Sie ein Bankkonto unter Einstellungen → Bankkonten an.',
  'BR-DE-03': 'Der Ort des Unternehmens fehlt. Ergänzen Sie das Unternehmensprofil.',
  'BR-DE-04': 'Die Postleitzahl des Unternehmens fehlt. Ergänzen Sie das Unternehmensprofil.',
  'BR-DE-05': 'Der Ansprechpartner des Unternehmens fehlt. Ergänzen Sie das Unternehmensprofil.',
  'BR-DE-06': 'Die Telefonnummer des Unternehmens fehlt. Ergänzen Sie das Unternehmensprofil.',
  'BR-DE-07': 'Die E-Mail-Adresse des Unternehmens fehlt. Ergänzen Sie das Unternehmensprofil.',
  'BR-DE-08': 'Der Ort des Kunden fehlt. Ergänzen Sie die Rechnungsanschrift des Kunden.',
  'BR-DE-09': 'Die Postleitzahl des Kunden fehlt. Ergänzen Sie die Rechnungsanschrift des Kunden.',
  'BR-DE-15':
    'Die Käuferreferenz (bei öffentlichen Auftraggebern die Leitweg-ID) fehlt. Tragen Sie sie in der Rechnung oder beim Kunden ein.',
  'BR-DE-16': 'Die XRechnung erfordert die USt-IdNr. oder Steuernummer des Unternehmens. Ergänzen Sie sie im Unternehmensprofil.',

  'PEPPOL-EN16931-R003': 'Peppol erfordert eine Käuferreferenz oder eine Bestellreferenz.',
  'PEPPOL-EN16931-R010': 'Die elektronische Adresse (Peppol-ID) des Kunden fehlt. Ergänzen Sie sie beim Kunden.',
  'PEPPOL-EN16931-R020': 'Die elektronische Adresse (Peppol-ID) des Unternehmens fehlt. Ergänzen Sie sie im Unternehmensprofil.',
  'PEPPOL-EN16931-CL008':
    'Eine elektronische Adresse verwendet ein Schema, das Peppol nicht kennt; eine E-Mail-Adresse kann keine Peppol-ID sein.',
  'DE-R-001':
    'Peppol zwischen deutschen Unternehmen erfordert Zahlungsangaben. Legen Sie ein Bankkonto unter Einstellungen → Bankkonten an.',
  'DE-R-005': 'Peppol zwischen deutschen Unternehmen erfordert den Ansprechpartner des Unternehmens. Ergänzen Sie das Unternehmensprofil.',
  'DE-R-006': 'Peppol zwischen deutschen Unternehmen erfordert die Telefonnummer des Unternehmens. Ergänzen Sie das Unternehmensprofil.',
  'DE-R-007': 'Peppol zwischen deutschen Unternehmen erfordert die E-Mail-Adresse des Unternehmens. Ergänzen Sie das Unternehmensprofil.',
  'DE-R-015': 'Peppol zwischen deutschen Unternehmen erfordert die Käuferreferenz. Tragen Sie sie in der Rechnung oder beim Kunden ein.',

  'FatturaPA:CedentePrestatore/IdFiscaleIVA': 'FatturaPA erfordert die USt-IdNr. des Unternehmens. Ergänzen Sie sie im Unternehmensprofil.',
  'FatturaPA:CessionarioCommittente/CodiceFiscale':
    'Ein italienischer Kunde braucht eine USt-IdNr. (Partita IVA) oder einen Codice fiscale.',
  'FatturaPA:CodiceDestinatario':
    'Ein italienischer Kunde braucht einen gültigen SdI-Empfängercode (7 Zeichen, 6 bei öffentlichen Verwaltungen) oder eine PEC-Adresse.',
  'FatturaPA:CAP': 'Eine italienische Anschrift braucht eine fünfstellige Postleitzahl (CAP).',
  'Facturae:TaxIdentificationNumber': 'Facturae erfordert die Steuernummer (USt-IdNr. oder NIF) des Unternehmens und des Kunden.',
  'Facturae:CountryCode': 'Ein Land des Unternehmens oder des Kunden wird von Facturae nicht unterstützt.',
  'Facturae:PostCode': 'Eine spanische Anschrift braucht eine fünfstellige Postleitzahl.',
};

/** The sentence per finding rule in each language. */
export const RULE_TEXTS: Record<Lang, Record<ProblemRule, string>> = { de: RULES_DE, en: RULES_EN };
