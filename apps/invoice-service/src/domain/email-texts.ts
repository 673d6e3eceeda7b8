/**
 * Default subject and body of an invoice e-mail, in German or English after the customer's language, with
 * the invoice number, the total and the due date. A request's subject or message replaces them.
 */
export interface EmailTextInput {
  language: 'de' | 'en';
  number: string;
  creditNote: boolean;
  total: string; // decimal string, EUR
  dueDate?: string; // YYYY-MM-DD
  seller: string;
}

const money = (value: string, language: 'de' | 'en') =>
  new Intl.NumberFormat(language === 'de' ? 'de-DE' : 'en-GB', { style: 'currency', currency: 'EUR' }).format(Number(value));
const day = (iso: string, language: 'de' | 'en') => {
  const [y, m, d] = iso.split('-');
  return language === 'de' ? `${d}.${m}.${y}` : `${d}/${m}/${y}`;
};

export function emailTexts(i: EmailTextInput): { subject: string; text: string } {
  const total = money(i.total, i.language);
  if (i.language === 'de') {
    const what = i.creditNote ? 'Gutschrift' : 'Rechnung';
    const due = !i.creditNote && i.dueDate ? `, zahlbar bis zum ${day(i.dueDate, 'de')}` : '';
    return {
      subject: `${what} ${i.number}`,
      text: `Sehr geehrte Damen und Herren,\n\nanbei erhalten Sie unsere ${what} ${i.number} über ${total}${due}.\n\nMit freundlichen Grüßen\n${i.seller}\n`,
    };
  }
  const what = i.creditNote ? 'credit note' : 'invoice';
  const due = !i.creditNote && i.dueDate ? `, due on ${day(i.dueDate, 'en')}` : '';
  return {
    subject: `${i.creditNote ? 'Credit note' : 'Invoice'} ${i.number}`,
    text: `Dear Sir or Madam,\n\nplease find attached our ${what} ${i.number} for ${total}${due}.\n\nKind regards\n${i.seller}\n`,
  };
}
