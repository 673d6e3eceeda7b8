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
}

export type MovementType = 'invoice' | 'credit_note' | 'payment' | 'refund' | 'adjustment';
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

/** The bookings an invoice causes on the customer account: the document itself, then its payment or cancellation. */
export function movementsOf(inv: LedgerInvoice): Movement[] {
  const gross = amount(inv.totalGross);
  const credit = inv.typeCode === '381';
  const out: Movement[] = [
    credit
      ? { date: inv.invoiceDate, documentNumber: inv.number, type: 'credit_note', credit: gross }
      : { date: inv.invoiceDate, documentNumber: inv.number, type: 'invoice', debit: gross },
  ];
  if (inv.status === 'PAID') {
    const date = inv.paidDate ?? inv.invoiceDate;
    // A paid credit note is money we paid out to the customer: a refund, booked as a debit.
    out.push(
      credit
        ? { date, documentNumber: inv.number, type: 'refund', debit: gross }
        : { date, documentNumber: inv.number, type: 'payment', credit: gross },
    );
  } else if (inv.status === 'CANCELLED') {
    const date = inv.cancelledDate ?? inv.invoiceDate;
    out.push(
      credit
        ? { date, documentNumber: inv.number, type: 'adjustment', debit: gross }
        : { date, documentNumber: inv.number, type: 'adjustment', credit: gross },
    );
  }
  return out;
}

const TYPE_ORDER: Record<MovementType, number> = { invoice: 0, credit_note: 1, refund: 2, payment: 3, adjustment: 4 };

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

/** Outstanding (finalized, unpaid invoices), the overdue part of them, paid invoices and credit notes. */
export function overviewOf(invoices: readonly LedgerInvoice[], today: string): FinancialOverview {
  const bucket = (list: readonly LedgerInvoice[]): Bucket => ({
    total: formatAmount(list.reduce((sum, i) => sum.plus(toDecimal(i.totalGross).abs()), new Dec(0))),
    count: list.length,
  });
  const invoicesOnly = invoices.filter((i) => i.typeCode === '380');
  const outstanding = invoicesOnly.filter((i) => i.status === 'OPEN' || i.status === 'SENT');
  const balance = invoices
    .flatMap(movementsOf)
    .filter((m) => m.date <= today)
    .reduce((sum, m) => sum.plus(signed(m)), new Dec(0));
  return {
    outstanding: bucket(outstanding),
    overdue: bucket(outstanding.filter((i) => i.dueDate !== undefined && i.dueDate < today)),
    paid: bucket(invoicesOnly.filter((i) => i.status === 'PAID')),
    creditNotes: bucket(invoices.filter((i) => i.typeCode === '381' && i.status !== 'CANCELLED')),
    balance: formatAmount(balance),
  };
}
