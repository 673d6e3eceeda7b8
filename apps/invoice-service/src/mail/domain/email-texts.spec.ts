import { DEFAULT_TEMPLATES, emailTexts, unknownPlaceholders } from './email-texts';

const base = {
  number: 'RE-2026-00042',
  creditNote: false,
  total: '1234.5',
  dueDate: '2026-12-08',
  seller: 'Seller GmbH',
  customer: 'Buyer AG',
};

describe('invoice e-mail texts', () => {
  it('writes German and English defaults with number, total and due date', () => {
    expect(emailTexts({ ...base, language: 'de' })).toEqual({
      subject: 'Rechnung RE-2026-00042',
      text: 'Sehr geehrte Damen und Herren,\n\nanbei erhalten Sie unsere Rechnung RE-2026-00042 über 1.234,50\u00a0€, zahlbar bis zum 08.12.2026.\n\nMit freundlichen Grüßen\nSeller GmbH\n',
    });
    const en = emailTexts({ ...base, language: 'en' });
    expect(en.subject).toBe('Invoice RE-2026-00042');
    expect(en.text).toContain('Dear Sir or Madam,\n\nPlease find attached our invoice RE-2026-00042 for €1,234.50, payable by 8 Dec 2026.');
  });

  it('names a credit note as such (Rechnungskorrektur, not the self-billing Gutschrift) and gives it no due date', () => {
    const de = emailTexts({ ...base, number: 'RK-2026-00001', language: 'de', creditNote: true });
    expect(de.subject).toBe('Rechnungskorrektur RK-2026-00001');
    expect(de.text).toContain('unsere Rechnungskorrektur RK-2026-00001 über 1.234,50\u00a0€.');
    expect(de.text).not.toContain('Gutschrift');
    expect(emailTexts({ ...base, language: 'en', creditNote: true }).subject).toBe('Credit note RE-2026-00042');
  });

  it("fills a company's own template and finds unknown placeholders", () => {
    expect(emailTexts({ ...base, language: 'en' }, { subject: '{number} from {seller}', body: 'Hi {customer}, {total}.' })).toEqual({
      subject: 'RE-2026-00042 from Seller GmbH',
      text: 'Hi Buyer AG, €1,234.50.',
    });
    expect(unknownPlaceholders('Hello {customer}, pay {amount} by {due}')).toEqual(['amount', 'due']);
    expect(unknownPlaceholders(DEFAULT_TEMPLATES.de.body)).toEqual([]);
  });
});
