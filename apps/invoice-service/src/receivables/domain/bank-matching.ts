/**
 * Matching of bank statement credits to open invoices (pure). For each credit:
 * 1. an invoice number of an open invoice named in the remittance information (Ustrd lines, structured references,
 *    then the bank's additional text and the end-to-end id; compared without case, spaces and hyphens, word by word so that "42" is not found
 *    inside "2042"), or an ISO 11649 RF creditor reference whose reference part is the number: confidence 0.95 when
 *    the amount equals the open amount, 0.9 when it equals the open amount minus Skonto within its period, 0.75 for
 *    less (a partial payment), 0.6 for more (the proposal books the open amount);
 * 2. otherwise the amount equals the open amount (or open minus Skonto) of open invoices: 0.8 when exactly one of
 *    them belongs to a customer the payer is known as (the payer IBAN confirmed for that customer before, or the
 *    payer name matching the customer name), 0.5 when the amount alone is unique, lower shares of those when
 *    several invoices fit.
 * Debits, reversals, bookings that are not booked (PDNG, INFO) and credits in another currency than EUR get no
 * proposal. The index over the company's open invoices is built once per import: matching a line costs a few map
 * look-ups (10,000 lines against 5,000 invoices: a few ms; apps/invoice-service/bench/bank-matching.bench.ts).
 */

export interface OpenInvoice {
  id: number;
  number: string;
  customerId: number;
  customerName?: string;
  openCents: number;
  /** Skonto still obtainable: its amount in cents and the last day (absent when none or already granted). */
  skonto?: { cents: number; untilDate: string };
}

export interface MatchableLine {
  cents?: number;
  currency: string;
  credit: boolean;
  reversal: boolean;
  status?: string;
  bookingDate?: string;
  valueDate?: string;
  payerName?: string;
  payerIban?: string;
  unstructured: string[];
  references: string[];
  additionalInfo?: string;
  /** Some payers' software puts the invoice number here. */
  endToEndId?: string;
}

export type MatchReason =
  | 'invoice_number'
  | 'creditor_reference'
  | 'amount_equals_open'
  | 'amount_equals_open_minus_skonto'
  | 'partial_payment'
  | 'amount_exceeds_open'
  | 'several_invoice_numbers'
  | 'short_invoice_number'
  | 'payer_iban_known'
  | 'payer_name_matches'
  | 'amount_unique'
  | 'several_candidates';

export interface Proposal {
  invoiceId: number;
  number: string;
  customerId: number;
  /** What confirming books, in cents: the credit, or the open amount when the credit is larger. */
  amountCents: number;
  openCents: number;
  /** 0..1, two decimals. */
  confidence: number;
  reasons: MatchReason[];
}

export interface MatchIndex {
  /** number without case, spaces and hyphens → invoice */
  byNumber: Map<string, OpenInvoice>;
  /** number with letters and digits only → invoice (RF references carry only those) */
  byAlnum: Map<string, OpenInvoice>;
  /** open cents, and open minus Skonto → invoices */
  byCents: Map<number, OpenInvoice[]>;
  longestNumber: number;
  /** payer IBAN → the customer it paid for when a match was confirmed */
  payerIbans: Map<string, number>;
  /** customer name → its words (nameWords), computed once */
  nameCache: Map<string, Set<string>>;
}

/** Candidates by amount looked at per line at most (a very common amount is no evidence anyway). */
export const MAX_AMOUNT_CANDIDATES = 200;

/** At most this many proposals per line. */
export const MAX_PROPOSALS = 5;

export const normalNumber = (s: string) => s.toUpperCase().replace(/[\s-]+/g, '');
const alnum = (s: string) => s.toUpperCase().replace(/[^0-9A-Z]+/g, '');

export function buildMatchIndex(invoices: OpenInvoice[], payerIbans: Map<string, number> = new Map()): MatchIndex {
  const byNumber = new Map<string, OpenInvoice>();
  const byAlnum = new Map<string, OpenInvoice>();
  const byCents = new Map<number, OpenInvoice[]>();
  let longestNumber = 0;
  const addCents = (cents: number, inv: OpenInvoice) => {
    const list = byCents.get(cents);
    if (list) {
      if (!list.includes(inv)) list.push(inv);
    } else byCents.set(cents, [inv]);
  };
  for (const inv of invoices) {
    if (inv.openCents <= 0) continue;
    const n = normalNumber(inv.number);
    if (n) {
      byNumber.set(n, inv);
      longestNumber = Math.max(longestNumber, n.length);
    }
    const a = alnum(inv.number);
    if (a) byAlnum.set(a, inv);
    addCents(inv.openCents, inv);
    if (inv.skonto && inv.skonto.cents > 0 && inv.skonto.cents < inv.openCents) addCents(inv.openCents - inv.skonto.cents, inv);
  }
  return { byNumber, byAlnum, byCents, longestNumber, payerIbans, nameCache: new Map() };
}

/** ISO 11649: RF, two check digits, 1–21 letters or digits; letters count 10–35, the reference moved behind "RF00" ≡ 1 mod 97. */
export function creditorReferenceBody(raw: string): string | undefined {
  const ref = raw.toUpperCase().replace(/\s+/g, '');
  const m = /^RF(\d\d)([0-9A-Z]{1,21})$/.exec(ref);
  if (!m) return undefined;
  const digits = `${m[2]}RF${m[1]}`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (let i = 0; i < digits.length; i += 7) rest = Number(`${rest}${digits.slice(i, i + 7)}`) % 97;
  return rest === 1 ? m[2] : undefined;
}

const WORD_SPLIT = /[\s\-:;,()[\]#"'+*<>|]+/;

/** The open invoices whose numbers a text names, word sequences compared without case, spaces and hyphens. */
function numbersIn(text: string, index: MatchIndex, found: Map<number, { inv: OpenInvoice; via: MatchReason }>): void {
  const words = text
    .toUpperCase()
    .split(WORD_SPLIT)
    .map((w) => w.replace(/[.]+$/, '').replace(/^[.]+/, ''))
    .filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    let s = '';
    for (let j = i; j < words.length && j < i + 6; j++) {
      s += words[j];
      if (s.length > index.longestNumber) break;
      const inv = index.byNumber.get(s);
      if (inv && !found.has(inv.id)) found.set(inv.id, { inv, via: 'invoice_number' });
    }
    // "RE2026-0042" written as "Rechnung:RE2026/0042": the word itself without punctuation
    const w = words[i]!;
    if (/[^0-9A-Z]/.test(w)) {
      const inv = index.byAlnum.get(alnum(w));
      if (inv && !found.has(inv.id)) found.set(inv.id, { inv, via: 'invoice_number' });
    }
  }
}

const LEGAL_FORMS = new Set([
  'GMBH',
  'AG',
  'KG',
  'OHG',
  'UG',
  'CO',
  'MBH',
  'HAFTUNGSBESCHRAENKT',
  'EK',
  'EV',
  'GBR',
  'SE',
  'LTD',
  'LLC',
  'INC',
  'SA',
  'SARL',
  'BV',
  'NV',
  'SRL',
  'SPA',
  'HERR',
  'FRAU',
  'DR',
  'UND',
  'AND',
]);

/** Name words without case, accents, legal forms and salutations. */
export function nameWords(name: string): string[] {
  return name
    .toUpperCase()
    .replace(/Ä/g, 'AE')
    .replace(/Ö/g, 'OE')
    .replace(/Ü/g, 'UE')
    .replace(/ß/g, 'SS')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[()]/g, ' ')
    .split(/[^0-9A-Z]+/)
    .filter((w) => w.length > 1 && !LEGAL_FORMS.has(w));
}

/** The payer is the customer: all words of the shorter name appear in the other (legal forms and order aside). */
export function namesMatch(payer: string | undefined, customer: string | undefined, cache?: Map<string, Set<string>>): boolean {
  if (!payer || !customer) return false;
  const a = nameWords(payer);
  let b = cache?.get(customer);
  if (!b) {
    b = new Set(nameWords(customer));
    cache?.set(customer, b);
  }
  if (!a.length || !b.size) return false;
  if (a.length <= b.size) return a.every((w) => b.has(w));
  const set = new Set(a);
  return [...b].every((w) => set.has(w));
}

const round2 = (x: number) => Math.round(x * 100) / 100;

function amountFit(line: MatchableLine, cents: number, inv: OpenInvoice): { reason: MatchReason; bookCents: number } {
  if (cents === inv.openCents) return { reason: 'amount_equals_open', bookCents: cents };
  const date = line.valueDate ?? line.bookingDate;
  if (inv.skonto && cents === inv.openCents - inv.skonto.cents && (!date || date <= inv.skonto.untilDate))
    return { reason: 'amount_equals_open_minus_skonto', bookCents: cents };
  if (cents < inv.openCents) return { reason: 'partial_payment', bookCents: cents };
  return { reason: 'amount_exceeds_open', bookCents: inv.openCents };
}

/** Confidence of a proposal found by its invoice number or RF reference, by how the amount fits (docs/walkthrough.md states these). */
export const NUMBER_CONFIDENCE = {
  amount_equals_open: 0.95,
  amount_equals_open_minus_skonto: 0.9,
  partial_payment: 0.75,
  amount_exceeds_open: 0.6,
} as const satisfies Partial<Record<MatchReason, number>>;

/** The factors and confidences of the other rules (docs/walkthrough.md states these). */
export const CONFIDENCE_RULES = {
  /** an invoice number of 1 to 3 digits (found by chance in any text) */
  shortNumber: 0.7,
  /** several invoice numbers named: the exact amount's proposal, the others */
  severalNumbersExact: 0.9,
  severalNumbersOther: 0.7,
  /** no number: the amount fits an invoice of a customer the payer is known as (shared among several) */
  knownPayer: 0.8,
  /** no number: an invoice of another customer when the payer is known for one that fits (shared among all that fit) */
  otherThanKnownPayer: 0.2,
  /** no number: the amount alone (shared among several invoices) */
  amountAlone: 0.5,
  /** no number: the amount fits the open amount minus Skonto */
  skontoFactor: 0.95,
} as const;

/** The proposals for one line, best first (none for debits, reversals, unbooked lines, other currencies). */
export function matchLine(line: MatchableLine, index: MatchIndex): Proposal[] {
  if (!line.credit || line.reversal || line.cents === undefined || line.cents <= 0) return [];
  if (line.currency !== 'EUR' || (line.status !== undefined && line.status !== 'BOOK')) return [];
  const cents = line.cents;
  const found = new Map<number, { inv: OpenInvoice; via: MatchReason }>();
  for (const ref of line.references) {
    const body = creditorReferenceBody(ref);
    if (body) {
      const inv = index.byAlnum.get(body) ?? index.byAlnum.get(body.replace(/^0+/, ''));
      if (inv && !found.has(inv.id)) found.set(inv.id, { inv, via: 'creditor_reference' });
    } else numbersIn(ref, index, found);
  }
  for (const text of line.unstructured) numbersIn(text, index, found);
  if (!found.size && line.additionalInfo) numbersIn(line.additionalInfo, index, found);
  if (!found.size && line.endToEndId) numbersIn(line.endToEndId, index, found);

  if (found.size) {
    const several = found.size > 1;
    const proposals = [...found.values()].map(({ inv, via }) => {
      const fit = amountFit(line, cents, inv);
      let confidence: number = NUMBER_CONFIDENCE[fit.reason as keyof typeof NUMBER_CONFIDENCE];
      const reasons: MatchReason[] = [via, fit.reason];
      if (via === 'invoice_number' && /^\d{1,3}$/.test(normalNumber(inv.number))) {
        confidence *= CONFIDENCE_RULES.shortNumber;
        reasons.push('short_invoice_number');
      }
      if (several) {
        confidence *= fit.reason === 'amount_equals_open' ? CONFIDENCE_RULES.severalNumbersExact : CONFIDENCE_RULES.severalNumbersOther;
        reasons.push('several_invoice_numbers');
      }
      return {
        invoiceId: inv.id,
        number: inv.number,
        customerId: inv.customerId,
        amountCents: fit.bookCents,
        openCents: inv.openCents,
        confidence: round2(confidence),
        reasons,
      };
    });
    return proposals.sort((a, b) => b.confidence - a.confidence || a.invoiceId - b.invoiceId).slice(0, MAX_PROPOSALS);
  }

  const candidates = index.byCents.get(cents);
  if (!candidates?.length) return [];
  const knownCustomer = line.payerIban ? index.payerIbans.get(line.payerIban) : undefined;
  const payerFits = (inv: OpenInvoice): MatchReason | undefined =>
    knownCustomer !== undefined && knownCustomer === inv.customerId
      ? 'payer_iban_known'
      : namesMatch(line.payerName, inv.customerName, index.nameCache)
        ? 'payer_name_matches'
        : undefined;
  const scored = candidates
    .slice(0, MAX_AMOUNT_CANDIDATES)
    .map((inv) => ({ inv, payer: payerFits(inv), fit: amountFit(line, cents, inv) }));
  const ofPayer = scored.filter((s) => s.payer);
  const proposals = scored.map(({ inv, payer, fit }) => {
    let confidence: number;
    const reasons: MatchReason[] = [fit.reason];
    if (payer) {
      reasons.push(payer);
      confidence = CONFIDENCE_RULES.knownPayer / ofPayer.length;
    } else if (ofPayer.length) {
      confidence = CONFIDENCE_RULES.otherThanKnownPayer / scored.length;
    } else {
      confidence = CONFIDENCE_RULES.amountAlone / scored.length;
    }
    if (scored.length === 1) reasons.push('amount_unique');
    else reasons.push('several_candidates');
    if (fit.reason === 'amount_equals_open_minus_skonto') confidence *= CONFIDENCE_RULES.skontoFactor;
    return {
      invoiceId: inv.id,
      number: inv.number,
      customerId: inv.customerId,
      amountCents: fit.bookCents,
      openCents: inv.openCents,
      confidence: Math.max(0.01, round2(confidence)),
      reasons,
    };
  });
  return proposals.sort((a, b) => b.confidence - a.confidence || a.invoiceId - b.invoiceId).slice(0, MAX_PROPOSALS);
}
