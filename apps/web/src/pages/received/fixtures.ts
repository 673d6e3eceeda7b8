/** Test data shaped exactly like the API's answers (libs/contracts inbound.ts: InboundDocument, Supplier), for the page tests. */

const party = (name: string, vat: string, city: string) => ({
  name,
  vat_id: vat,
  identifiers: [],
  electronic_address: { scheme: '9930', value: vat },
  address: { street: 'Lange Industriestraße 123a, Gebäude C, 3. OG', city, postal_code: '80331', country: 'DE' },
  contact: { name: 'Frau Dr. Hildegard Mustermann-Schönberger', email: 'rechnungswesen@lieferant.example', phone: '+49 89 1234567' },
});

export function line(i: number) {
  return {
    id: String(i),
    name: `Beratungsleistung Projektphase ${i}: Konzeption, Umsetzung und Abnahme der Schnittstelle zum Warenwirtschaftssystem`,
    quantity: '12.5',
    unit: 'HUR',
    net_price: '95.00',
    net_amount: '1187.50',
    vat_category: 'S',
    vat_rate: '19',
    allowances_charges: [],
  };
}

export function inboundDoc(over: Record<string, unknown> = {}) {
  return {
    id: 7,
    status: 'RECEIVED',
    valid: false,
    received_at: '2026-11-27T10:15:00.000Z',
    filename: 'RE-2026-000123_xrechnung_ubl_mit_sehr_langem_dateinamen.xml',
    media_type: 'application/xml',
    size: 48213,
    sha256: 'ab'.repeat(32),
    format: 'xrechnung-ubl',
    profile: 'XRechnung 3.0',
    version: '3.0',
    customization_id: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
    document_type: 'INVOICE',
    number: 'RE-2026-000123',
    issue_date: '2026-11-25',
    seller_name: 'Bürobedarf Müller & Partner Gesellschaft für Organisationsberatung mbH <img src=x onerror=alert(1)>',
    seller_vat_id: 'DE123456789',
    payable: '14250.00',
    currency: 'EUR',
    error_count: 2,
    iban_differs: false,
    ...over,
  };
}

export function inboundDetail(over: Record<string, unknown> = {}, lines = 3) {
  return inboundDoc({
    findings: [
      {
        rule: 'BR-CO-15',
        severity: 'error',
        location: '/Invoice[1]/cac:LegalMonetaryTotal[1]/cbc:TaxInclusiveAmount[1]',
        message: 'Invoice total amount with VAT (BT-112) = Invoice total amount without VAT (BT-109) + Invoice total VAT amount (BT-110).',
        source: 'en16931',
      },
      {
        rule: 'BR-DE-15',
        severity: 'error',
        location: '/Invoice[1]',
        message: 'Das Element "Buyer reference" (BT-10) muss übermittelt werden.',
        source: 'xrechnung',
      },
      {
        rule: 'INB-VAT-RATE',
        severity: 'warning',
        location: '/Invoice[1]/cac:TaxTotal[1]',
        message: 'DE has no standard rate 18 % on 2026-11-25.',
        source: 'vat-rates',
      },
    ],
    content: {
      number: 'RE-2026-000123',
      issue_date: '2026-11-25',
      due_date: '2026-12-09',
      currency: 'EUR',
      buyer_reference: '04011000-12345-03',
      preceding_invoices: [],
      notes: ['Bitte geben Sie bei Zahlung die Rechnungsnummer an.\nVielen Dank für Ihren Auftrag!'],
      seller: party('Bürobedarf Müller & Partner Gesellschaft für Organisationsberatung mbH', 'DE123456789', 'München'),
      buyer: party('Test GmbH', 'DE987654321', 'Berlin'),
      lines: Array.from({ length: lines }, (_, i) => line(i + 1)),
      allowances_charges: [],
      vat_breakdown: [{ category: 'S', rate: '19', taxable_amount: '11974.79', tax_amount: '2275.21' }],
      totals: { line_total: '11974.79', tax_exclusive: '11974.79', tax_total: '2275.21', tax_inclusive: '14250.00', payable: '14250.00' },
      payment_means: [{ code: '58', iban: 'DE75512108001245126199', bic: 'SSKMDEMMXXX', remittance: 'RE-2026-000123' }],
      payment_terms: 'Zahlbar innerhalb von 14 Tagen ohne Abzug.',
      attachments: [
        {
          id: 'Stundennachweis',
          filename: 'stundennachweis-november.pdf',
          mime_code: 'application/pdf',
          download: '/api/v1/inbound/7/attachments/1',
          size: 123456,
          sha256: 'cd'.repeat(32),
        },
        { id: 'Zu groß', filename: 'bauplan.pdf', mime_code: 'application/pdf', description: 'Bauplan (zu groß)' },
      ],
    },
    ...over,
  });
}

export const supplier = {
  id: 3,
  name: 'Bürobedarf Müller & Partner GmbH',
  vat_id: 'DE123456789',
  peppol_id: '9930:DE123456789',
  ibans: ['DE75512108001245126199'],
  created_at: '2026-10-01T08:00:00.000Z',
  updated_at: '2026-10-01T08:00:00.000Z',
};
