import { z } from 'zod';
import {
  CustomerCreate,
  InvoiceCreate,
  LocaleQuery,
  PositionCreateInput,
  ProductInput,
  ReminderCreate,
  StatementPdfQuery,
  StatusUpdate,
  WebhookEndpointCreate,
} from '@inv/contracts';
import { AppError, type FieldError } from './errors';
import { dateText } from './issue-text';
import { parseInput, parseQuery } from './parse';
import { toProblem } from './problem';

/** The field errors a body answers (or [] when it parses). */
function errorsOf(parse: () => unknown): FieldError[] {
  try {
    parse();
    return [];
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    const { problem } = toProblem(e);
    expect(problem.status).toBe(400);
    return problem.errors ?? [];
  }
}
const one = (parse: () => unknown, path: string) => {
  const found = errorsOf(parse).filter((e) => e.path === path);
  expect(found).toHaveLength(1);
  return found[0]!;
};
const position = { title: 'Consulting', quantity: 2, unit_id: 'HUR', unit_net_amount: 100 };

describe('field errors say what is expected and what was probably meant', () => {
  it('a missing customer_id is "required", a wrong one names the type and the value', () => {
    expect(one(() => parseInput(InvoiceCreate, {}), 'customer_id')).toEqual({ path: 'customer_id', message: 'required' });
    expect(one(() => parseInput(InvoiceCreate, { customer_id: null }), 'customer_id').message).toBe('required');
    expect(one(() => parseInput(InvoiceCreate, { customer_id: 'abc' }), 'customer_id').message).toBe('must be a number, not "abc"');
  });

  it.each([
    ['Stunde', 'HUR'],
    ['Std', 'HUR'],
    ['h', 'HUR'],
    ['hour', 'HUR'],
    ['Tag', 'DAY'],
    ['days', 'DAY'],
    ['Stück', 'C62'],
    ['Stk', 'C62'],
    ['piece', 'C62'],
    ['Monat', 'MON'],
    ['month', 'MON'],
    ['kg', 'KGM'],
    ['km', 'KMT'],
    ['Liter', 'LTR'],
    ['m', 'MTR'],
    ['pauschal', 'LS'],
  ])('unit_id %j names UN/ECE Recommendation 20 and suggests %s (positions and products)', (word, code) => {
    for (const e of [
      one(() => parseInput(PositionCreateInput, { ...position, unit_id: word }), 'unit_id'),
      one(() => parseInput(ProductInput, { name: 'x', unit_id: word, unit_net_amount: 1 }), 'unit_id'),
    ]) {
      expect(e.message).toContain('UN/ECE Recommendation 20');
      expect(e.message).toContain(`"${code}"`);
      expect(e.message).toContain(JSON.stringify(word));
      expect(e.suggestion).toBe(code);
    }
  });

  it('unit codes in any case are taken; an unknown long word lists examples; integers and short codes stay accepted on positions', () => {
    expect(parseInput(PositionCreateInput, { ...position, unit_id: 'hur' }).unit_id).toBe('hur');
    expect(parseInput(ProductInput, { name: 'x', unit_id: 'day', unit_net_amount: 1 }).unit_id).toBe('DAY');
    expect(parseInput(ProductInput, { name: 'x', unit_id: 'STK', unit_net_amount: 1 }).unit_id).toBe('STK');
    expect(parseInput(PositionCreateInput, { ...position, unit_id: 1 }).unit_id).toBe('1');
    const e = one(() => parseInput(PositionCreateInput, { ...position, unit_id: 'Gebinde' }), 'unit_id');
    expect(e.message).toMatch(/UN\/ECE Recommendation 20 .*HUR hour/);
    expect(e.suggestion).toBeUndefined();
  });

  it.each([
    ['29.11.2026', '2026-11-29'],
    ['1.2.2026', '2026-02-01'],
    ['29/11/2026', '2026-11-29'],
    ['11/29/2026', '2026-11-29'],
    ['2026/11/29', '2026-11-29'],
    ['20261129', '2026-11-29'],
    ['2026-11-29T10:15:00Z', '2026-11-29'],
  ])('a date %j names YYYY-MM-DD and suggests %s', (input, iso) => {
    const e = one(() => parseInput(InvoiceCreate, { customer_id: 1, benefit_period_start: input }), 'benefit_period_start');
    expect(e.message).toContain('YYYY-MM-DD');
    expect(e.message).toContain(iso);
    expect(e.suggestion).toBe(iso);
  });

  it('a date that is none, or ambiguous, is named without a guess', () => {
    expect(dateText('2026-02-30')).toEqual({ message: '"2026-02-30" is not a calendar date (no such day in that month)' });
    expect(dateText('31.02.2026').suggestion).toBeUndefined();
    const ambiguous = dateText('05/06/2026');
    expect(ambiguous.suggestion).toBeUndefined();
    expect(ambiguous.message).toMatch(/YYYY-MM-DD.*ambiguous: 2026-06-05 or 2026-05-06/);
    expect(dateText('tomorrow').message).toMatch(/YYYY-MM-DD.*not "tomorrow"/);
  });

  it.each([
    [19, 0.19],
    [7, 0.07],
    [5.5, 0.055],
    ['16', 0.16],
  ])('tax_rate %j says rates are fractions and suggests %s', (rate, fraction) => {
    for (const e of [
      one(() => parseInput(PositionCreateInput, { ...position, tax_rate: rate }), 'tax_rate'),
      one(() => parseInput(ProductInput, { name: 'x', unit_id: 'HUR', unit_net_amount: 1, tax_rate: rate }), 'tax_rate'),
    ]) {
      expect(e.message).toMatch(/decimal fraction/);
      expect(e.message).toContain(String(fraction));
      expect(e.suggestion).toBe(fraction);
    }
    expect(one(() => parseInput(PositionCreateInput, { ...position, tax_rate: 1900 }), 'tax_rate').message).toMatch(
      /fraction below 1 \(0.19 = 19 %\)/,
    );
  });

  it('an unknown webhook event type lists the valid ones', () => {
    const e = one(
      () => parseInput(WebhookEndpointCreate, { url: 'https://hooks.example', event_types: ['invoice.paid'] }),
      'event_types.0',
    );
    expect(e.message).toMatch(/^must be one of "invoice\.created", "invoice\.finalized", .*"ping", "\*", not "invoice\.paid"$/);
    const close = one(
      () => parseInput(WebhookEndpointCreate, { url: 'https://hooks.example', event_types: ['invoice.finalised'] }),
      'event_types.0',
    );
    expect(close.suggestion).toBe('invoice.finalized');
  });

  it('enums list their values and name the close one; a missing discriminator is required', () => {
    const s = one(() => parseInput(CustomerCreate, { organization_name: 'X', salutation: 'mr' }), 'salutation');
    expect(s).toEqual(
      expect.objectContaining({
        suggestion: 'MR',
        message: expect.stringMatching(/one of "MR", "MRS", "MS", "OTHER", not "mr"; did you mean "MR"\?/),
      }),
    );
    expect(one(() => parseInput(StatusUpdate, {}), 'status').message).toBe('required: one of "SENT", "PAID"');
    expect(one(() => parseInput(StatusUpdate, { status: 'PAYED' }), 'status').message).toMatch(/one of "SENT", "PAID", not "PAYED"/);
  });

  it("a contract's own message is kept", () => {
    expect(one(() => parseInput(CustomerCreate, {}), 'organization_name').message).toBe('required for B2B customers');
  });

  it('bounds are said in words', () => {
    const S = z.object({ name: z.string().min(1).max(3), n: z.number().int().positive(), list: z.array(z.string()).max(1) });
    const errors = errorsOf(() => parseInput(S, { name: 'long', n: 0, list: ['a', 'b'] }));
    expect(errors.map((e) => e.message)).toEqual(['must have at most 3 characters', 'must be positive', 'must have at most 1 entry']);
    expect(errorsOf(() => parseInput(S, { name: '', n: 1, list: [] }))[0]!.message).toBe('must not be empty');
  });
});

describe('one way to name a language', () => {
  it.each(['de', 'DE', 'German', 'german', 'GERMAN', ' Deutsch '])('%j is German everywhere: customers answer German, the rest de', (v) => {
    expect(parseInput(CustomerCreate, { organization_name: 'X', language: v }).language).toBe('German');
    expect(parseInput(ReminderCreate, { language: v }).language).toBe('de');
    expect(parseQuery(StatementPdfQuery, { language: v }).language).toBe('de');
    expect(parseQuery(LocaleQuery, { locale: v }).locale).toBe('de');
  });

  it('English too, and another language is refused naming both spellings', () => {
    expect(parseInput(CustomerCreate, { organization_name: 'X', language: 'en' }).language).toBe('English');
    expect(parseInput(ReminderCreate, { language: 'English' }).language).toBe('en');
    const e = one(() => parseInput(CustomerCreate, { organization_name: 'X', language: 'fr' }), 'language');
    expect(e.message).toBe('must be "de" or "en" (also "German" or "English", in any case), not "fr"');
  });
});

describe('query parameters', () => {
  it('an unknown query parameter is a 400 naming it, with the close one', () => {
    const e = (() => {
      try {
        parseQuery(StatementPdfQuery, { lang: 'de' });
      } catch (err) {
        return toProblem(err).problem;
      }
      throw new Error('accepted');
    })();
    expect(e.error_code).toBe('UNKNOWN_FIELD');
    expect(e.errors).toEqual([{ path: 'lang', in: 'query', message: 'unknown query parameter; did you mean language?' }]);
  });

  it('a bad query value names the parameter and the suggestion', () => {
    expect(one(() => parseQuery(StatementPdfQuery, { from: '1.11.2026' }), 'from')).toEqual({
      path: 'from',
      in: 'query',
      message: expect.stringContaining('YYYY-MM-DD'),
      suggestion: '2026-11-01',
    });
  });
});
