import fc from 'fast-check';
import { Dec, toDecimal } from '@inv/money';
import {
  movementsOf,
  nextLedgerStatus,
  openAmountOf,
  overviewOf,
  statementOf,
  reminderMovementsOf,
  withIssuedReminder,
  withRecordedPayment,
  withReversedPayment,
  type LedgerInvoice,
  type LedgerPayment,
  type LedgerReminder,
  type LedgerStatus,
} from './ledger-rules';

const inv = (over: Partial<LedgerInvoice>): LedgerInvoice => ({
  invoiceId: 1,
  number: 'RE-2026-00001',
  typeCode: '380',
  invoiceDate: '2026-03-01',
  dueDate: '2026-03-15',
  totalGross: '119.00',
  status: 'OPEN',
  ...over,
});

describe('nextLedgerStatus', () => {
  it('moves forward only, PAID and CANCELLED are final', () => {
    expect(nextLedgerStatus(undefined, 'SENT')).toBe('SENT');
    expect(nextLedgerStatus('OPEN', 'SENT')).toBe('SENT');
    expect(nextLedgerStatus('SENT', 'OPEN')).toBe('SENT');
    expect(nextLedgerStatus('PAID', 'SENT')).toBe('PAID');
    expect(nextLedgerStatus('PAID', 'CANCELLED')).toBe('PAID');
    expect(nextLedgerStatus('OPEN', 'PAID')).toBe('PAID');
    expect(nextLedgerStatus('CANCELLED', 'PAID')).toBe('CANCELLED');
  });

  it('ends in the same status whatever order the events arrive in', () => {
    const status = fc.constantFrom<LedgerStatus>('OPEN', 'SENT', 'PAID');
    fc.assert(
      fc.property(fc.array(status, { minLength: 1, maxLength: 6 }), (events) => {
        const apply = (list: LedgerStatus[]) => list.reduce<LedgerStatus | undefined>((s, e) => nextLedgerStatus(s, e), undefined);
        expect(apply(events)).toBe(apply([...events].reverse()));
        // Applying an event twice (redelivery) changes nothing.
        expect(apply([...events, ...events])).toBe(apply(events));
      }),
    );
  });
});

describe('movementsOf', () => {
  it('books an invoice as a debit and its payment as a credit on the paid date', () => {
    expect(movementsOf(inv({ status: 'PAID', paidDate: '2026-03-10' }))).toEqual([
      { date: '2026-03-01', documentNumber: 'RE-2026-00001', type: 'invoice', debit: '119.00' },
      { date: '2026-03-10', documentNumber: 'RE-2026-00001', type: 'payment', credit: '119.00' },
    ]);
  });
  it('books a credit note as a credit whatever the sign of its total, a paid one as a refund', () => {
    expect(movementsOf(inv({ typeCode: '381', number: 'GS-1', totalGross: '-50', status: 'OPEN' }))).toEqual([
      { date: '2026-03-01', documentNumber: 'GS-1', type: 'credit_note', credit: '50.00' },
    ]);
    expect(movementsOf(inv({ typeCode: '381', number: 'GS-1', totalGross: '50', status: 'PAID', paidDate: '2026-04-01' }))[1]).toEqual({
      date: '2026-04-01',
      documentNumber: 'GS-1',
      type: 'refund',
      debit: '50.00',
    });
  });
  it('reverses a cancelled invoice with an adjustment', () => {
    expect(movementsOf(inv({ status: 'CANCELLED', cancelledDate: '2026-03-05' }))[1]).toEqual({
      date: '2026-03-05',
      documentNumber: 'RE-2026-00001',
      type: 'adjustment',
      credit: '119.00',
    });
  });
});

describe('statementOf', () => {
  const invoices = [
    inv({ invoiceId: 1, number: 'RE-1', invoiceDate: '2026-01-10', totalGross: '100.00', status: 'PAID', paidDate: '2026-02-05' }),
    inv({ invoiceId: 2, number: 'RE-2', invoiceDate: '2026-02-01', totalGross: '0.10', status: 'SENT' }),
    inv({ invoiceId: 3, number: 'RE-3', invoiceDate: '2026-02-20', totalGross: '0.20', status: 'OPEN' }),
    inv({ invoiceId: 4, number: 'GS-1', typeCode: '381', invoiceDate: '2026-02-21', totalGross: '0.05', status: 'OPEN' }),
    inv({ invoiceId: 5, number: 'RE-5', invoiceDate: '2026-04-01', totalGross: '9.99', status: 'OPEN' }),
  ];

  it('carries the balance before the period as opening balance and runs it through the entries (no float drift)', () => {
    const s = statementOf(invoices, '2026-02-01', '2026-03-31');
    expect(s.openingBalance).toBe('100.00');
    expect(s.entries.map((e) => [e.date, e.documentNumber, e.type, e.debit ?? null, e.credit ?? null, e.balance])).toEqual([
      ['2026-02-01', 'RE-2', 'invoice', '0.10', null, '100.10'],
      ['2026-02-05', 'RE-1', 'payment', null, '100.00', '0.10'],
      ['2026-02-20', 'RE-3', 'invoice', '0.20', null, '0.30'],
      ['2026-02-21', 'GS-1', 'credit_note', null, '0.05', '0.25'],
    ]);
    expect(s.closingBalance).toBe('0.25');
  });

  it('has an empty period when nothing was booked in it', () => {
    const s = statementOf(invoices, '2026-03-01', '2026-03-31');
    expect(s.entries).toEqual([]);
    expect(s.openingBalance).toBe(s.closingBalance);
  });

  const amount = fc.integer({ min: 0, max: 10_000_000 }).map((cents) => new Dec(cents).div(100).toFixed(2));
  const date = fc.integer({ min: 1, max: 28 }).map((d) => `2026-05-${String(d).padStart(2, '0')}`);
  const ledgerInvoice = fc.record({
    invoiceId: fc.nat(),
    number: fc.string({ minLength: 1, maxLength: 6 }),
    typeCode: fc.constantFrom<'380' | '381'>('380', '381'),
    invoiceDate: date,
    totalGross: amount,
    status: fc.constantFrom<LedgerStatus>('OPEN', 'SENT', 'PAID', 'CANCELLED'),
    paidDate: date,
    cancelledDate: date,
  });

  it('closing = opening + debits - credits, and each running balance follows from the previous one', () => {
    fc.assert(
      fc.property(fc.array(ledgerInvoice, { maxLength: 20 }), date, date, (list, a, b) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const s = statementOf(list, from, to);
        let running = toDecimal(s.openingBalance);
        for (const e of s.entries) {
          running = running.plus(e.debit ?? 0).minus(e.credit ?? 0);
          expect(e.balance).toBe(running.toFixed(2));
          expect(e.date >= from && e.date <= to).toBe(true);
        }
        expect(s.closingBalance).toBe(running.toFixed(2).replace(/^-0\.00$/, '0.00'));
      }),
    );
  });

  it('splitting a period in two chains: closing of the first = opening of the second', () => {
    fc.assert(
      fc.property(fc.array(ledgerInvoice, { maxLength: 20 }), (list) => {
        const first = statementOf(list, '2026-05-01', '2026-05-14');
        const second = statementOf(list, '2026-05-15', '2026-05-31');
        const whole = statementOf(list, '2026-05-01', '2026-05-31');
        expect(second.openingBalance).toBe(first.closingBalance);
        expect(second.closingBalance).toBe(whole.closingBalance);
        expect(first.entries.length + second.entries.length).toBe(whole.entries.length);
      }),
    );
  });
});

describe('overviewOf', () => {
  it('sums outstanding, overdue and paid invoices with counts, credit notes apart', () => {
    const o = overviewOf(
      [
        inv({ invoiceId: 1, totalGross: '0.10', status: 'OPEN', dueDate: '2026-03-01' }),
        inv({ invoiceId: 2, totalGross: '0.20', status: 'SENT', dueDate: '2026-04-01' }),
        inv({ invoiceId: 3, totalGross: '100.00', status: 'PAID', paidDate: '2026-03-02' }),
        inv({ invoiceId: 4, totalGross: '5.00', status: 'CANCELLED', cancelledDate: '2026-03-03' }),
        inv({ invoiceId: 5, typeCode: '381', totalGross: '0.05', status: 'OPEN' }),
      ],
      '2026-03-15',
    );
    expect(o.outstanding).toEqual({ total: '0.30', count: 2 });
    expect(o.overdue).toEqual({ total: '0.10', count: 1 });
    expect(o.paid).toEqual({ total: '100.00', count: 1 });
    expect(o.creditNotes).toEqual({ total: '0.05', count: 1 });
    expect(o.balance).toBe('0.25');
  });

  it('is all zeros without invoices', () => {
    expect(overviewOf([], '2026-01-01')).toEqual({
      outstanding: { total: '0.00', count: 0 },
      overdue: { total: '0.00', count: 0 },
      paid: { total: '0.00', count: 0 },
      creditNotes: { total: '0.00', count: 0 },
      balance: '0.00',
    });
  });
});

describe('payments in the ledger', () => {
  const p1 = { paymentId: 1, amount: '50.00', date: '2026-03-05' };
  const p2 = { paymentId: 2, amount: '66.62', discount: '2.38', date: '2026-03-09' };

  it('books each payment on its date and its Skonto as a discount movement of its own', () => {
    const i = inv({ status: 'PAID', paidDate: '2026-03-09', payments: withRecordedPayment(withRecordedPayment([], p1), p2) });
    expect(movementsOf(i)).toEqual([
      { date: '2026-03-01', documentNumber: 'RE-2026-00001', type: 'invoice', debit: '119.00' },
      { date: '2026-03-05', documentNumber: 'RE-2026-00001', type: 'payment', credit: '50.00' },
      { date: '2026-03-09', documentNumber: 'RE-2026-00001', type: 'payment', credit: '66.62' },
      { date: '2026-03-09', documentNumber: 'RE-2026-00001', type: 'discount', credit: '2.38' },
    ]);
    expect(statementOf([i], '2026-03-01', '2026-03-31').closingBalance).toBe('0.00');
    expect(openAmountOf(i).toFixed(2)).toBe('0.00');
  });

  it('a partial payment leaves the rest outstanding; the overview counts the money received', () => {
    const i = inv({ status: 'SENT', dueDate: '2026-03-10', payments: withRecordedPayment([], p1) });
    const o = overviewOf([i], '2026-03-15');
    expect(o.outstanding).toEqual({ total: '69.00', count: 1 });
    expect(o.overdue).toEqual({ total: '69.00', count: 1 });
    expect(o.paid).toEqual({ total: '50.00', count: 1 });
    expect(o.balance).toBe('69.00');
  });

  it('payment events are the truth over a PAID status: a reversed payment leaves the invoice open', () => {
    const i = inv({ status: 'PAID', paidDate: '2026-03-05', payments: withReversedPayment(withRecordedPayment([], p1), p1) });
    expect(movementsOf(i).map((m) => m.type)).toEqual(['invoice']);
    expect(overviewOf([i], '2026-03-15').outstanding).toEqual({ total: '119.00', count: 1 });
    expect(overviewOf([i], '2026-03-15').paid).toEqual({ total: '0.00', count: 0 });
  });

  it('PAID without any payment event stays one payment of the gross (older data)', () => {
    const o = overviewOf([inv({ status: 'PAID', paidDate: '2026-03-05' })], '2026-03-15');
    expect(o.paid).toEqual({ total: '119.00', count: 1 });
    expect(o.outstanding).toEqual({ total: '0.00', count: 0 });
  });

  it('ends the same whatever order recordings, reversals and redeliveries arrive in', () => {
    type Ev = { kind: 'rec' | 'rev'; p: Omit<LedgerPayment, 'reversed'> };
    const events: Ev[] = [
      { kind: 'rec', p: p1 },
      { kind: 'rec', p: p2 },
      { kind: 'rev', p: p1 },
    ];
    const apply = (list: Ev[]) =>
      list.reduce<LedgerPayment[]>((acc, e) => (e.kind === 'rec' ? withRecordedPayment(acc, e.p) : withReversedPayment(acc, e.p)), []);
    const expected = movementsOf(inv({ payments: apply(events) }));
    fc.assert(
      fc.property(fc.shuffledSubarray([...events, ...events], { minLength: 6, maxLength: 6 }), (order) => {
        expect(movementsOf(inv({ payments: apply(order) }))).toEqual(expected);
      }),
    );
    expect(expected.map((m) => [m.type, m.credit ?? m.debit])).toEqual([
      ['invoice', '119.00'],
      ['payment', '66.62'],
      ['discount', '2.38'],
    ]);
  });

  it('a cancelled invoice with a partial payment books only the rest as an adjustment', () => {
    const i = inv({ status: 'CANCELLED', cancelledDate: '2026-03-20', payments: withRecordedPayment([], p1) });
    expect(movementsOf(i).at(-1)).toEqual({ date: '2026-03-20', documentNumber: 'RE-2026-00001', type: 'adjustment', credit: '69.00' });
  });
});

describe('reminders in the ledger', () => {
  const r1: LedgerReminder = { reminderId: 11, level: 1, date: '2026-03-25', fee: '0.00', interest: '0.00' };
  const r2: LedgerReminder = { reminderId: 12, level: 2, date: '2026-04-08', fee: '5.00', interest: '0.80', flatFee: '40.00' };
  const r3: LedgerReminder = { reminderId: 13, level: 3, date: '2026-04-22', fee: '10.00', interest: '1.35' };
  const issued = (list: LedgerReminder[]) => list.reduce<LedgerReminder[]>((acc, r) => withIssuedReminder(acc, r), []);

  it('a level-1 reminder with fee 0 and no interest adds no movement', () => {
    expect(reminderMovementsOf(inv({ reminders: issued([r1]) }))).toEqual([]);
    expect(movementsOf(inv({ reminders: issued([{ ...r1, flatFee: '0.00' }]) })).map((m) => m.type)).toEqual(['invoice']);
  });

  it('books fee, flat fee and the interest increase as debits on the reminder date with the invoice number', () => {
    const i = inv({ status: 'SENT', reminders: issued([r1, r2, r3]) });
    expect(reminderMovementsOf(i)).toEqual([
      { date: '2026-04-08', documentNumber: 'RE-2026-00001', type: 'reminder_fee', debit: '5.00' },
      { date: '2026-04-08', documentNumber: 'RE-2026-00001', type: 'reminder_fee', debit: '40.00' },
      { date: '2026-04-08', documentNumber: 'RE-2026-00001', type: 'interest', debit: '0.80' },
      { date: '2026-04-22', documentNumber: 'RE-2026-00001', type: 'reminder_fee', debit: '10.00' },
      // 1.35 is the interest up to the third reminder; 0.80 of it was booked with the second
      { date: '2026-04-22', documentNumber: 'RE-2026-00001', type: 'interest', debit: '0.55' },
    ]);
    const s = statementOf([i], '2026-03-01', '2026-04-30');
    // 119.00 + 5 + 40 + 10 fees + 1.35 interest in all
    expect(s.closingBalance).toBe('175.35');
    expect(s.entries.at(-1)).toMatchObject({ type: 'interest', balance: '175.35' });
  });

  it('fees and interest raise the balance but not outstanding (open invoice amounts only)', () => {
    const o = overviewOf([inv({ status: 'SENT', reminders: issued([r2]) })], '2026-04-30');
    expect(o.outstanding).toEqual({ total: '119.00', count: 1 });
    expect(o.overdue).toEqual({ total: '119.00', count: 1 });
    expect(o.balance).toBe('164.80');
    // not yet on the balance before the reminder's day
    expect(overviewOf([inv({ status: 'SENT', reminders: issued([r2]) })], '2026-04-01').balance).toBe('119.00');
  });

  it('interest that drops on a later reminder books nothing (never a credit); a later rise books only what exceeds the highest', () => {
    const lower = { ...r3, interest: '0.50' };
    const r4: LedgerReminder = { reminderId: 14, level: 3, date: '2026-05-06', fee: '0.00', interest: '1.00' };
    const interest = reminderMovementsOf(inv({ reminders: issued([r2, lower, r4]) })).filter((m) => m.type === 'interest');
    expect(interest.map((m) => [m.date, m.debit])).toEqual([
      ['2026-04-08', '0.80'],
      ['2026-05-06', '0.20'],
    ]);
  });

  it('a redelivered reminder changes nothing, and the order of arrival does not matter', () => {
    const expected = movementsOf(inv({ reminders: issued([r1, r2, r3]) }));
    fc.assert(
      fc.property(fc.shuffledSubarray([r1, r2, r3, r1, r2, r3], { minLength: 6, maxLength: 6 }), (order) => {
        const list = issued(order);
        expect(list).toHaveLength(3);
        expect(movementsOf(inv({ reminders: list }))).toEqual(expected);
      }),
    );
  });

  it('a payment on the reminder day comes before the reminder fee', () => {
    const i = inv({ reminders: issued([r2]), payments: withRecordedPayment([], { paymentId: 1, amount: '119.00', date: '2026-04-08' }) });
    expect(statementOf([i], '2026-03-01', '2026-04-30').entries.map((e) => [e.type, e.balance])).toEqual([
      ['invoice', '119.00'],
      ['payment', '0.00'],
      ['reminder_fee', '5.00'],
      ['reminder_fee', '45.00'],
      ['interest', '45.80'],
    ]);
  });
});

describe('documents settled by a credit note (settledByCredit)', () => {
  const invoice = (over: Partial<LedgerInvoice> = {}) => inv({ status: 'PAID', paidDate: '2026-03-10', settledByCredit: true, ...over });
  const note = (over: Partial<LedgerInvoice> = {}) =>
    inv({
      invoiceId: 2,
      number: 'GS-2026-00001',
      typeCode: '381',
      invoiceDate: '2026-03-10',
      dueDate: undefined,
      status: 'PAID',
      paidDate: '2026-03-10',
      settledByCredit: true,
      ...over,
    });
  const types = (docs: LedgerInvoice[]) => docs.flatMap(movementsOf).map((m) => m.type);

  it('books no made-up payment or refund: invoice debit, credit note credit, balance 0', () => {
    const docs = [invoice(), note()];
    expect(types(docs)).toEqual(['invoice', 'credit_note']);
    const s = statementOf(docs, '2026-03-01', '2026-03-31');
    expect(s.entries.map((e) => [e.type, e.debit ?? `-${e.credit}`, e.balance])).toEqual([
      ['invoice', '119.00', '119.00'],
      ['credit_note', '-119.00', '0.00'],
    ]);
    expect(s.closingBalance).toBe('0.00');
    expect(openAmountOf(docs[0])).toEqual(new Dec(0));
    expect(overviewOf(docs, '2026-04-01')).toEqual({
      outstanding: { total: '0.00', count: 0 },
      overdue: { total: '0.00', count: 0 },
      paid: { total: '0.00', count: 0 },
      creditNotes: { total: '119.00', count: 1 },
      balance: '0.00',
    });
  });

  it('a partly paid invoice: the payment counts, the credit closes the rest, the refund of the excess is booked', () => {
    const payments: LedgerPayment[] = [{ paymentId: 1, amount: '100.00', date: '2026-03-05', reversed: false }];
    const refund: LedgerPayment[] = [{ paymentId: 2, amount: '50.00', date: '2026-03-12', reversed: false }];
    const paidInvoice = invoice({ payments });
    // credit note 69.00: 19.00 applied, 50.00 refunded (a payment on it, so an ordinary PAID)
    const refunded = note({ totalGross: '69.00', settledByCredit: undefined, paidDate: '2026-03-12', payments: refund });
    expect(openAmountOf(paidInvoice)).toEqual(new Dec(0));
    expect(types([paidInvoice, refunded])).toEqual(['invoice', 'payment', 'credit_note', 'refund']);
    expect(statementOf([paidInvoice, refunded], '2026-03-01', '2026-03-31').closingBalance).toBe('0.00');
    // before the refund: the credit note is open, we owe the customer 50.00
    const owed = note({ totalGross: '69.00', status: 'OPEN', settledByCredit: undefined, paidDate: undefined });
    expect(statementOf([paidInvoice, owed], '2026-03-01', '2026-03-31').closingBalance).toBe('-50.00');
  });

  it('without the flag a PAID without payment events is still one payment of the gross (older data)', () => {
    expect(types([invoice({ settledByCredit: undefined })])).toEqual(['invoice', 'payment']);
    expect(types([note({ settledByCredit: false })])).toEqual(['credit_note', 'refund']);
  });
});
