import { Dec, formatAmount, toDecimal } from '@inv/money';

/** An invoice or credit note as the customer ledger knows it from invoice events. */
export type LedgerStatus = 'OPEN' | 'SENT' | 'PAID' | 'CANCELLED';
export interface LedgerInvoice {
  invoiceId: number;
  number: string;
  typeCode: '380' | '381';
  invoiceDate: string; // YYYY-MM-DD
  dueDate?: string;
  /** Gross amount as a decimal string; its sign is ignored (a credit note credits by its type, not by sign). */
  totalGross: string;
  status: LedgerStatus;
  paidDate?: string;
  cancelledDate?: string;
  /**
   * Payments recorded on the invoice (invoice.payment-recorded / -reversed events), reversed ones included. When there
   * is at least one, they are the truth about what was paid; without any, a PAID status is one payment of the gross.
   */
  payments?: LedgerPayment[];
  /**
   * Its PAID came with settledByCredit (invoice.status-changed.v1): a credit note settled it (or, for a credit note,
   * it was applied in full to its invoice). That PAID is no payment (nor refund): only payment events count, and
   * nothing stays open.
   */
  settledByCredit?: boolean;
  /** Reminders issued on the invoice (invoice.reminder-issued events): their fees and interest are debits of their own. */
  reminders?: LedgerReminder[];
}

/**
 * One reminder (Mahnung) as the ledger knows it: its fee, the § 288 (5) BGB flat fee charged with it and the default
 * interest as computed on the day of the reminder (decimal strings; invoice-service recomputes the interest on each
 * reminder, so it is the total up to that day, not an increment).
 */
export interface LedgerReminder {
  reminderId: number;
  level: number;
  date: string; // YYYY-MM-DD
  fee: string;
  interest: string;
  flatFee?: string;
}

/** The reminder list after an issued reminder: a reminder already known stays as it is (a redelivery changes nothing). */
export function withIssuedReminder(list: readonly LedgerReminder[], r: LedgerReminder): LedgerReminder[] {
  if (list.some((x) => x.reminderId === r.reminderId)) return [...list];
  return [...list, r];
}

/** One payment as the ledger knows it: the money received (`amount`) and the Skonto granted with it (`discount`). */
export interface LedgerPayment {
  paymentId: number;
  amount: string;
  discount?: string;
  date: string; // YYYY-MM-DD
  /** A reversal arrived (before or after the payment itself): the payment no longer counts. */
  reversed: boolean;
}

/**
 * The payment list after a recorded payment, whatever order the events arrive in: a payment already known (also one
 * whose reversal came first) stays as it is, so a redelivery changes nothing and a reversal is never undone.
 */
export function withRecordedPayment(list: readonly LedgerPayment[], p: Omit<LedgerPayment, 'reversed'>): LedgerPayment[] {
  if (list.some((x) => x.paymentId === p.paymentId)) return [...list];
  return [...list, { ...p, reversed: false }];
}

/** The payment list after a reversal: the payment is marked reversed, or remembered as reversed until it arrives. */
export function withReversedPayment(list: readonly LedgerPayment[], p: Omit<LedgerPayment, 'reversed'>): LedgerPayment[] {
  if (list.some((x) => x.paymentId === p.paymentId)) return list.map((x) => (x.paymentId === p.paymentId ? { ...x, reversed: true } : x));
  return [...list, { ...p, reversed: true }];
}

export type MovementType = 'invoice' | 'credit_note' | 'payment' | 'discount' | 'refund' | 'adjustment' | 'reminder_fee' | 'interest';
export interface Movement {
  date: string;
  documentNumber: string;
  type: MovementType;
  /** Decimal strings with 2 decimals; exactly one of them is set. */
  debit?: string;
  credit?: string;
}
export interface StatementEntry extends Movement {
  /** Running balance after this entry; positive = the customer owes us. */
  balance: string;
}
export interface Statement {
  from: string;
  to: string;
  openingBalance: string;
  entries: StatementEntry[];
  closingBalance: string;
}

const STATUS_RANK: Record<LedgerStatus, number> = { OPEN: 0, SENT: 1, PAID: 2, CANCELLED: 3 };

/**
 * The status after an event, whatever order events arrive in: statuses only move forward, and PAID and
 * CANCELLED are final. A redelivered or late event therefore never moves an invoice back.
 */
export function nextLedgerStatus(current: LedgerStatus | undefined, incoming: LedgerStatus): LedgerStatus {
  if (!current) return incoming;
  if (current === 'PAID' || current === 'CANCELLED') return current;
  return STATUS_RANK[incoming] > STATUS_RANK[current] ? incoming : current;
}

const amount = (value: string) => formatAmount(toDecimal(value, 'totalGross').abs());

const dec = (v: string | undefined) => toDecimal(v ?? '0').abs();

/** The payments that count (not reversed), in date order; empty when the invoice has none or all were reversed. */
const livePayments = (inv: LedgerInvoice) =>
  (inv.payments ?? []).filter((p) => !p.reversed).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.paymentId - b.paymentId));
/** Payment events are the truth once there is one; without any, PAID is one payment of the gross (older data). */
const hasPaymentEvents = (inv: LedgerInvoice) => (inv.payments?.length ?? 0) > 0;
/** PAID stands for one payment of the gross: no payment events and not settled by a credit note. */
const impliedPayment = (inv: LedgerInvoice) => inv.status === 'PAID' && !hasPaymentEvents(inv) && inv.settledByCredit !== true;
/** PAID by a credit note: nothing is left open, whatever the payments covered (the credit note books the rest). */
const creditSettled = (inv: LedgerInvoice) => inv.status === 'PAID' && inv.settledByCredit === true;

/** What the invoice's payments settled: the money received and the Skonto granted (decimal, positive). */
export function settledOf(inv: LedgerInvoice): { paid: Dec; discount: Dec } {
  if (!hasPaymentEvents(inv)) {
    const full = impliedPayment(inv) ? dec(inv.totalGross) : new Dec(0);
    return { paid: full, discount: new Dec(0) };
  }
  let paid = new Dec(0);
  let discount = new Dec(0);
  for (const p of livePayments(inv)) {
    paid = paid.plus(dec(p.amount));
    discount = discount.plus(dec(p.discount));
  }
  return { paid, discount };
}

/** What is still owed on a (not cancelled) document after its payments and Skonto; never below zero. */
export function openAmountOf(inv: LedgerInvoice): Dec {
  if (inv.status === 'CANCELLED' || creditSettled(inv)) return new Dec(0);
  const { paid, discount } = settledOf(inv);
  const open = dec(inv.totalGross).minus(paid).minus(discount);
  return open.lt(0) ? new Dec(0) : open;
}

/** The reminders in issue order: by date, then level, then id. */
const remindersInOrder = (inv: LedgerInvoice) =>
  [...(inv.reminders ?? [])].sort((a, b) =>
    a.date !== b.date ? (a.date < b.date ? -1 : 1) : a.level !== b.level ? a.level - b.level : a.reminderId - b.reminderId,
  );

/**
 * The debits the reminders of an invoice cause, each dated on its reminder's day with the invoice number: the reminder
 * fee and the § 288 (5) BGB flat fee (each a `reminder_fee` movement when above zero) and default interest.
 *
 * Interest: invoice-service recomputes the interest from the due date on each reminder, so a reminder's `interest` is the
 * total so far and already contains what earlier reminders charged. Booking it in full on every reminder would count the
 * same days twice. Each reminder therefore books only the increase over the highest interest an earlier reminder of the
 * same invoice carried (the previous reminder's, unless it dropped); a lower figure (e.g. recomputed on a smaller open
 * amount after a partial payment) books nothing and is never a credit, so the interest booked in all equals the highest
 * interest any reminder of the invoice stated.
 */
export function reminderMovementsOf(inv: LedgerInvoice): Movement[] {
  const out: Movement[] = [];
  let interestBooked = new Dec(0);
  for (const r of remindersInOrder(inv)) {
    const debit = (type: 'reminder_fee' | 'interest', value: Dec): Movement => ({
      date: r.date,
      documentNumber: inv.number,
      type,
      debit: formatAmount(value),
    });
    if (dec(r.fee).gt(0)) out.push(debit('reminder_fee', dec(r.fee)));
    if (dec(r.flatFee).gt(0)) out.push(debit('reminder_fee', dec(r.flatFee)));
    const increase = dec(r.interest).minus(interestBooked);
    if (increase.gt(0)) {
      out.push(debit('interest', increase));
      interestBooked = dec(r.interest);
    }
  }
  return out;
}

/**
 * The bookings an invoice causes on the customer account: the document itself, then its payments (each with its Skonto
 * as a `discount` movement of its own) or, without payment events, the PAID status as one payment of the gross (not
 * when a credit note settled it: settledByCredit; the credit note's own entry books the credit); a cancellation books
 * what was still open. Reminder fees and interest follow (reminderMovementsOf); they are not part of
 * the open amount, which stays the invoice's own.
 */
export function movementsOf(inv: LedgerInvoice): Movement[] {
  const gross = amount(inv.totalGross);
  const credit = inv.typeCode === '381';
  const out: Movement[] = [
    credit
      ? { date: inv.invoiceDate, documentNumber: inv.number, type: 'credit_note', credit: gross }
      : { date: inv.invoiceDate, documentNumber: inv.number, type: 'invoice', debit: gross },
  ];
  // A paid credit note is money we paid out to the customer: a refund, booked as a debit.
  const settle = (date: string, type: 'payment' | 'discount', value: string): Movement =>
    credit
      ? { date, documentNumber: inv.number, type: type === 'payment' ? 'refund' : 'discount', debit: value }
      : { date, documentNumber: inv.number, type, credit: value };
  if (hasPaymentEvents(inv)) {
    for (const p of livePayments(inv)) {
      if (!dec(p.amount).isZero()) out.push(settle(p.date, 'payment', formatAmount(dec(p.amount))));
      if (!dec(p.discount).isZero()) out.push(settle(p.date, 'discount', formatAmount(dec(p.discount))));
    }
  } else if (impliedPayment(inv)) {
    out.push(settle(inv.paidDate ?? inv.invoiceDate, 'payment', gross));
  }
  if (inv.status === 'CANCELLED') {
    const date = inv.cancelledDate ?? inv.invoiceDate;
    const { paid, discount } = settledOf(inv);
    const rest = dec(inv.totalGross).minus(paid).minus(discount);
    if (rest.gt(0)) {
      const value = formatAmount(rest);
      out.push(
        credit
          ? { date, documentNumber: inv.number, type: 'adjustment', debit: value }
          : { date, documentNumber: inv.number, type: 'adjustment', credit: value },
      );
    }
  }
  out.push(...reminderMovementsOf(inv));
  return out;
}

const TYPE_ORDER: Record<MovementType, number> = {
  invoice: 0,
  credit_note: 1,
  refund: 2,
  payment: 3,
  discount: 4,
  adjustment: 5,
  reminder_fee: 6,
  interest: 7,
};

/** Stable booking order: by date, documents before their settlements, then by document number. */
export function compareMovements(a: Movement, b: Movement): number {
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  if (TYPE_ORDER[a.type] !== TYPE_ORDER[b.type]) return TYPE_ORDER[a.type] - TYPE_ORDER[b.type];
  return a.documentNumber < b.documentNumber ? -1 : a.documentNumber > b.documentNumber ? 1 : 0;
}

const signed = (m: Movement) => toDecimal(m.debit ?? '0').minus(toDecimal(m.credit ?? '0'));

/** Account statement for [from, to] (inclusive): balance before `from`, each booking with running balance, closing balance. */
export function statementOf(invoices: readonly LedgerInvoice[], from: string, to: string): Statement {
  const movements = invoices.flatMap(movementsOf).sort(compareMovements);
  let balance = new Dec(0);
  for (const m of movements) if (m.date < from) balance = balance.plus(signed(m));
  const openingBalance = formatAmount(balance);
  const entries: StatementEntry[] = [];
  for (const m of movements) {
    if (m.date < from || m.date > to) continue;
    balance = balance.plus(signed(m));
    entries.push({ ...m, balance: formatAmount(balance) });
  }
  return { from, to, openingBalance, entries, closingBalance: formatAmount(balance) };
}

export interface Bucket {
  total: string;
  count: number;
}
export interface FinancialOverview {
  outstanding: Bucket;
  overdue: Bucket;
  paid: Bucket;
  creditNotes: Bucket;
  /** Debits minus credits of every booking up to and including `today`. */
  balance: string;
}

/**
 * Outstanding (what finalized invoices still owe after payments and Skonto, partial payments counted; open invoice
 * amounts only, without reminder fees and interest, which count in `balance`), the overdue part of it, paid (the money received on invoices, with the number of invoices that received any) and credit notes.
 */
export function overviewOf(invoices: readonly LedgerInvoice[], today: string): FinancialOverview {
  const sum = (values: readonly Dec[]): Bucket => ({
    total: formatAmount(values.reduce((s, v) => s.plus(v), new Dec(0))),
    count: values.length,
  });
  const invoicesOnly = invoices.filter((i) => i.typeCode === '380');
  const outstanding = invoicesOnly.map((i) => ({ i, open: openAmountOf(i) })).filter((x) => x.open.gt(0));
  const paid = invoicesOnly.map((i) => settledOf(i).paid).filter((p) => p.gt(0));
  const balance = invoices
    .flatMap(movementsOf)
    .filter((m) => m.date <= today)
    .reduce((s, m) => s.plus(signed(m)), new Dec(0));
  return {
    outstanding: sum(outstanding.map((x) => x.open)),
    overdue: sum(outstanding.filter((x) => x.i.dueDate !== undefined && x.i.dueDate < today).map((x) => x.open)),
    paid: sum(paid),
    creditNotes: sum(invoices.filter((i) => i.typeCode === '381' && i.status !== 'CANCELLED').map((i) => dec(i.totalGross))),
    balance: formatAmount(balance),
  };
}
