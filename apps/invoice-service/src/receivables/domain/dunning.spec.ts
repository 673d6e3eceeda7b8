import { baseRateOn } from './base-rates';
import {
  DEFAULT_DUNNING_SETTINGS,
  DEFAULT_REMINDER_TEXTS,
  dueLevel,
  interestOf,
  interestStart,
  isBusiness,
  LEVEL_NAMES,
  nextLevel,
  reminderFigures,
  reminderTexts,
  unknownReminderPlaceholders,
} from './dunning';

describe('default interest (§ 288 BGB), against a table worked by hand', () => {
  // Every case: open amount x (base rate + points) / 100 x days / 365 per period, summed, rounded half up once.
  // Interest days: from the first day of interest to the reminder date, both included.
  const table: [string, { amount: string; due: string; date: string; b2b: boolean; letter?: string }, string, [number, string][]][] = [
    [
      // B2B from 2025-05-16. 2025-05-16..06-30: 16 + 30 = 46 days at 2.27 + 9 = 11.27 %: 1000 x 0.1127 x 46 / 365 = 14.203288
      // 2025-07-01..08-14: 31 + 14 = 45 days at 1.27 + 9 = 10.27 %: 1000 x 0.1027 x 45 / 365 = 12.661644
      // sum 26.864932 -> 26.86
      '1,000.00 B2B over the change of 1 July 2025',
      { amount: '1000.00', due: '2025-05-15', date: '2025-08-14', b2b: true },
      '26.86',
      [
        [46, '11.27'],
        [45, '10.27'],
      ],
    ],
    [
      // B2C: default 30 days after the due date (2025-06-14), interest from 2025-06-15.
      // 06-15..06-30: 16 days at 2.27 + 5 = 7.27 %: 1000 x 0.0727 x 16 / 365 = 3.186849
      // 07-01..08-14: 45 days at 1.27 + 5 = 6.27 %: 1000 x 0.0627 x 45 / 365 = 7.730137
      // sum 10.916986 -> 10.92
      '1,000.00 B2C: from 30 days after the due date',
      { amount: '1000.00', due: '2025-05-15', date: '2025-08-14', b2b: false },
      '10.92',
      [
        [16, '7.27'],
        [45, '6.27'],
      ],
    ],
    [
      // B2B 2026-01-11..02-09: 21 + 9 = 30 days at 1.27 + 9 = 10.27 %: 2500 x 0.1027 x 30 / 365 = 21.102740 -> 21.10
      '2,500.00 B2B within one half-year',
      { amount: '2500.00', due: '2026-01-10', date: '2026-02-09', b2b: true },
      '21.10',
      [[30, '10.27']],
    ],
    [
      // B2B, three periods: 2024-06-21..06-30 10 days at 3.62 + 9 = 12.62 %: 10000 x 0.1262 x 10 / 365 = 34.575342
      // 2024-07-01..12-31: 184 days at 3.37 + 9 = 12.37 %: 10000 x 0.1237 x 184 / 365 = 623.583562
      // 2025-01-01..01-10: 10 days at 2.27 + 9 = 11.27 %: 10000 x 0.1127 x 10 / 365 = 30.876712
      // sum 689.035616 -> 689.04
      '10,000.00 B2B over two changes',
      { amount: '10000.00', due: '2024-06-20', date: '2025-01-10', b2b: true },
      '689.04',
      [
        [10, '12.62'],
        [184, '12.37'],
        [10, '11.27'],
      ],
    ],
    [
      // leap year, still / 365: 2024-02-16..03-15: 14 + 15 = 29 days at 3.62 + 9 = 12.62 %: 1000 x 0.1262 x 29 / 365 = 10.026849 -> 10.03
      '1,000.00 B2B over 29 February 2024 (ACT/365)',
      { amount: '1000.00', due: '2024-02-15', date: '2024-03-15', b2b: true },
      '10.03',
      [[29, '12.62']],
    ],
    [
      // B2C with a first dunning letter on 2025-09-20 (before 30 days passed): interest from 09-21 to 10-10:
      // 10 + 10 = 20 days at 1.27 + 5 = 6.27 %: 500 x 0.0627 x 20 / 365 = 1.717808 -> 1.72
      '500.00 B2C from the first dunning letter',
      { amount: '500.00', due: '2025-09-01', date: '2025-10-10', b2b: false, letter: '2025-09-20' },
      '1.72',
      [[20, '6.27']],
    ],
    [
      // 2025-07-01..2026-06-30 = 184 + 181 = 365 days at 10.27 % (the base rate stayed 1.27 on 1 January 2026, still a
      // period of its own): 150 x 0.1027 x 365 / 365 = 15.405 exactly -> half up 15.41 (half even would give 15.40)
      '150.00 B2B, a year: rounded half up',
      { amount: '150.00', due: '2025-06-30', date: '2026-06-30', b2b: true },
      '15.41',
      [
        [184, '10.27'],
        [181, '10.27'],
      ],
    ],
    [
      // B2C, a payment reminder 7 days after the due date: not in default yet -> 0.00
      'B2C before default: nothing',
      { amount: '500.00', due: '2025-09-01', date: '2025-09-08', b2b: false },
      '0.00',
      [],
    ],
  ];

  it.each(table)('%s', (_name, c, expected, periods) => {
    const from = interestStart(c.due, c.b2b, c.letter);
    const result = interestOf(c.amount, from, c.date, c.b2b);
    expect(result.amount).toBe(expected);
    expect(result.periods.map((p) => [p.days, p.ratePercent])).toEqual(periods);
  });

  it('splits periods exactly at the change and knows the rates of the table', () => {
    expect(baseRateOn('2025-06-30')).toBe('2.27');
    expect(baseRateOn('2025-07-01')).toBe('1.27');
    expect(baseRateOn('2030-01-01')).toBe('1.27'); // past the table: its last rate (the table must be extended)
    const r = interestOf('100', '2025-06-30', '2025-07-01', true);
    expect(r.periods.map((p) => [p.from, p.to])).toEqual([
      ['2025-06-30', '2025-06-30'],
      ['2025-07-01', '2025-07-01'],
    ]);
  });
});

describe('levels and fees', () => {
  const settings = DEFAULT_DUNNING_SETTINGS;

  it('goes 1, 2, 3 and then stops', () => {
    expect(nextLevel([])).toBe(1);
    expect(nextLevel([{ level: 1, date: '2025-01-01', fee: '0' }])).toBe(2);
    expect(nextLevel([{ level: 3, date: '2025-01-01', fee: '0' }])).toBeUndefined();
  });

  it('is due after the intervals (7 days after the due date, then 14 after the last reminder)', () => {
    expect(dueLevel('2025-05-15', [], '2025-05-21', settings.intervalDays)).toBeUndefined();
    expect(dueLevel('2025-05-15', [], '2025-05-22', settings.intervalDays)).toBe(1);
    const one = [{ level: 1, date: '2025-05-22', fee: '0.00' }];
    expect(dueLevel('2025-05-15', one, '2025-06-04', settings.intervalDays)).toBeUndefined();
    expect(dueLevel('2025-05-15', one, '2025-06-05', settings.intervalDays)).toBe(2);
  });

  it('adds the fees of earlier reminders, the flat fee once (B2B, when chosen) and the interest', () => {
    const issued = [{ level: 1, date: '2025-05-22', fee: '0.00' }];
    const f = reminderFigures({
      level: 2,
      date: '2025-08-14',
      dueDate: '2025-05-15',
      openAmount: '1000.00',
      b2b: true,
      issued,
      settings: { ...settings, flatFeeB2B: true },
    });
    // 1000.00 + fees 0.00 + 5.00 + flat fee 40.00 + interest 26.86 (table above)
    expect(f).toMatchObject({ fee: '5.00', fees: '5.00', flatFee: '40.00', interest: '26.86', total: '1071.86', payBy: '2025-08-21' });
    const third = reminderFigures({
      level: 3,
      date: '2025-08-14',
      dueDate: '2025-05-15',
      openAmount: '1000.00',
      b2b: true,
      issued: [...issued, { level: 2, date: '2025-06-05', fee: '5.00', flatFee: '40.00' }],
      settings: { ...settings, flatFeeB2B: true },
    });
    expect(third).toMatchObject({ fee: '10.00', fees: '15.00', flatFee: '0.00', total: '1041.86' });
    const b2c = reminderFigures({
      level: 1,
      date: '2025-05-22',
      dueDate: '2025-05-15',
      openAmount: '1000',
      b2b: false,
      issued: [],
      settings,
    });
    expect(b2c).toMatchObject({ fee: '0.00', flatFee: '0.00', interest: '0.00', total: '1000.00' });
  });

  it('tells business customers by VAT ID or type', () => {
    expect(isBusiness({ vatId: 'DE123456789' })).toBe(true);
    expect(isBusiness({}, 'B2B')).toBe(true);
    expect(isBusiness({}, 'B2C')).toBe(false);
    expect(isBusiness({})).toBe(false);
  });

  it('fills the texts and knows its placeholders', () => {
    const f = reminderFigures({ level: 2, date: '2025-08-14', dueDate: '2025-05-15', openAmount: '1000', b2b: true, issued: [], settings });
    const t = reminderTexts(DEFAULT_REMINDER_TEXTS.de[2], f, {
      language: 'de',
      number: 'RE-1',
      invoiceDate: '2025-05-01',
      dueDate: '2025-05-15',
      seller: 'Seller GmbH',
      customer: 'Buyer AG',
    });
    expect(t.subject).toBe('1. Mahnung zur Rechnung RE-1');
    expect(t.text).toContain('Verzugszinsen von 26,86');
    expect(t.text).toContain('bis zum 21.08.2025');
    expect(unknownReminderPlaceholders('{total} {amount}')).toEqual(['amount']);
  });

  it.each([1, 2, 3] as const)('writes English level %i as a British accountant would: one date format, sentence case', (level) => {
    const f = reminderFigures({ level, date: '2025-08-14', dueDate: '2025-05-15', openAmount: '1000', b2b: true, issued: [], settings });
    const t = reminderTexts(DEFAULT_REMINDER_TEXTS.en[level], f, {
      language: 'en',
      number: 'RE-1',
      invoiceDate: '2025-05-01',
      dueDate: '2025-05-15',
      seller: 'Seller GmbH',
      customer: 'Buyer Ltd',
    });
    expect(t.subject).toBe(`${LEVEL_NAMES[level].en}: invoice RE-1`);
    // the same date format as the PDF (4 Dec 2026), never 01/05/2025
    expect(t.text).toContain('our invoice RE-1 dated 1 May 2025, which was due for payment on 15 May 2025');
    expect(t.text).toContain('by 21 Aug 2025');
    expect(t.text).not.toMatch(/\d{2}\/\d{2}\/\d{4}/);
    // the sentence after the salutation starts with a capital letter, and so does every paragraph
    expect(t.text.startsWith('Dear Sir or Madam,\n\n')).toBe(true);
    for (const paragraph of t.text.split(/\n{2,}/)) expect(paragraph).toMatch(/^[A-Z]/);
    expect(t.text).toContain('Yours faithfully\nSeller GmbH');
    for (const calque of ['dunning', 'is still open', 'Default interest', 'reserve further steps']) expect(t.text).not.toContain(calque);
  });

  it('names the levels idiomatically in English', () => {
    expect([1, 2, 3].map((l) => LEVEL_NAMES[l as 1 | 2 | 3].en)).toEqual(['Payment reminder', 'Overdue notice', 'Final reminder']);
  });
});
