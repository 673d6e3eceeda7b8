/**
 * Dates and amounts in the texts invoice-service writes (payment terms, e-mails, reminder letters), in the format
 * the PDFs print them (document-service pdf/format.ts): one format per language everywhere a reader sees it.
 */
export type Language = 'de' | 'en';

const MONTHS_EN = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2026-12-04" -> "04.12.2026" (de) / "4 Dec 2026" (en). */
export function documentDate(iso: string, language: Language): string {
  const [y, m, d] = iso.split('-');
  return language === 'de' ? `${d}.${m}.${y}` : `${Number(d)} ${MONTHS_EN[Number(m) - 1]} ${y}`;
}

/** "1234.5" -> "1.234,50 €" (de) / "€1,234.50" (en). */
export const euros = (amount: string, language: Language): string =>
  new Intl.NumberFormat(language === 'de' ? 'de-DE' : 'en-GB', { style: 'currency', currency: 'EUR' }).format(Number(amount));
