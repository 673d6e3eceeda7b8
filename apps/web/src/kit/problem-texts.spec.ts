import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ERROR_CODES, WARNING_CODES } from '@inv/contracts';
import { texts } from './i18n';
import { FIELD_TEXTS, FORM_FIELD_TEXTS, PROBLEM_DATA_TEXTS, PROBLEM_TEXTS, fieldText } from './problem-texts';
import { RULE_TEXTS } from './problem-texts.rules';
import { KNOWN_PROBLEM_CODES, problemMessage } from './problems';

const ROOT = resolve(__dirname, '../../../..');
/** A code as the services write it: upper case words joined by _, at least 4 characters. */
const CODE = "'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)'";
/** Projects that answer no problem documents (test doubles, test databases, the message bus's own RPC errors). */
const NOT_SERVICES = ['embedded-mongo', 'vies-simulator', 'bus'];

/** The text inside the parentheses that open at `open` (strings are not parsed: the services' code needs no more). */
function insideParens(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return text.slice(open + 1);
}

/**
 * Every problem code the services' sources produce, with the first file producing it. The ways a code is made
 * (libs/service-kit errors.ts and problem.ts, and the services' own helpers):
 * - `code: 'X'` / `error_code: 'X'` / `busyCode: 'X'` in AppError options and problem bodies, and `code = 'X'` as a
 *   parameter default (conflict(message, code = 'CONFLICT'));
 * - `problem(409, 'X', …)`;
 * - a helper that takes a `code` parameter (refuse, invalid, tooLarge, conflict, …) called with 'X';
 * - `new AppError('kind', …)` without a code, which answers the upper-cased kind (AppError.code).
 */
function producedProblemCodes(root = ROOT): Map<string, string> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) {
        if (!['node_modules', 'fixtures', 'testing'].includes(name)) walk(full);
      } else if (full.endsWith('.ts') && !full.endsWith('.spec.ts')) files.push(full);
    }
  };
  for (const top of ['apps', 'libs'])
    for (const project of readdirSync(join(root, top))) {
      const src = join(root, top, project, 'src');
      if (!NOT_SERVICES.includes(project) && statSync(src, { throwIfNoEntry: false })?.isDirectory()) walk(src);
    }
  const sources = files.map((file) => ({ file: relative(root, file), text: readFileSync(file, 'utf8') }));
  const found = new Map<string, string>();
  const add = (code: string, file: string) => {
    if (code.length >= 4 && !found.has(code)) found.set(code, file);
  };
  // functions and arrow functions with a parameter named `code`
  const helpers = new Set<string>();
  for (const { text } of sources)
    for (const m of text.matchAll(/(?:function\s+(\w+)\s*\(|(?:const|let)\s+(\w+)\s*=\s*(?:async\s*)?\()([^)]*)\)/g))
      if (/(?:^|[\s,(])code\s*[:?=,]|(?:^|[\s,(])code\s*$/.test(m[3]!)) helpers.add((m[1] ?? m[2])!);
  for (const { file, text } of sources) {
    for (const m of text.matchAll(new RegExp(`\\b(?:code|error_code|\\w+Code)\\s*:\\s*${CODE}`, 'g'))) add(m[1]!, file);
    for (const m of text.matchAll(new RegExp(`[(,]\\s*code\\s*=\\s*${CODE}`, 'g'))) add(m[1]!, file);
    for (const m of text.matchAll(new RegExp(`\\bproblem\\(\\s*\\d{3},\\s*${CODE}`, 'g'))) add(m[1]!, file);
    for (const m of text.matchAll(/\b(\w+)\(/g)) {
      if (!helpers.has(m[1]!) || /\b(?:function|const|let)\s+$/.test(text.slice(Math.max(0, m.index - 12), m.index))) continue;
      // the code literals among the arguments, not the values compared there (status === 'PAID' ? 'A' : 'B')
      for (const a of insideParens(text, m.index + m[0].length - 1).matchAll(new RegExp(`(?<![=!]==\\s*)${CODE}`, 'g'))) add(a[1]!, file);
    }
    for (const m of text.matchAll(/new AppError\(/g)) {
      const args = insideParens(text, m.index + m[0].length - 1);
      const kind = /^\s*'([a-z_]+)'/.exec(args);
      // options with a code (or spread from elsewhere) outside the texts of the message
      const options = args.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");
      if (kind && !/\bcode\b|\.\.\./.test(options)) add(kind[1]!.toUpperCase(), file);
    }
  }
  const warnings: readonly string[] = WARNING_CODES; // codes of successful answers' warnings, not refusals
  for (const w of warnings) found.delete(w);
  return found;
}

/** The arguments of a call, split at its top-level commas (strings, brackets and braces kept whole). */
function topLevelArguments(args: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  let quote: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const c = args[i]!;
    current += c;
    if (quote) {
      if (c === '\\') current += args[++i] ?? '';
      else if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      out.push(current.slice(0, -1).trim());
      current = '';
    }
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/**
 * Every rule an invoice check can name (the `rule` of its findings), with the file naming it: `rule: 'X'` and
 * `X_RULE = 'X'` in the invoice service and libs/einvoice, and the rule argument of libs/einvoice requirements.ts's
 * need(cond, field, rule, message) and partyRequirements(need, role, party, nameRule, addressRule, countryRule).
 */
function producedRules(root = ROOT): Map<string, string> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) {
        if (!['node_modules', 'fixtures', 'testing'].includes(name)) walk(full);
      } else if (full.endsWith('.ts') && !full.endsWith('.spec.ts')) files.push(full);
    }
  };
  for (const dir of ['libs/einvoice/src', 'apps/invoice-service/src', 'apps/recurring-service/src']) walk(join(root, dir));
  const found = new Map<string, string>();
  const literal = (arg: string | undefined) => /^'([^']+)'$/.exec(arg ?? '')?.[1];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const at = relative(root, file);
    const add = (rule: string | undefined) => rule !== undefined && !found.has(rule) && found.set(rule, at);
    for (const m of text.matchAll(/\brule:\s*([^,}\n]+)/g)) for (const r of m[1]!.matchAll(/'([^']+)'/g)) add(r[1]);
    for (const m of text.matchAll(/_RULE\s*=\s*'([^']+)'/g)) add(m[1]);
    for (const m of text.matchAll(/\b(need|partyRequirements)\(/g)) {
      const args = topLevelArguments(insideParens(text, m.index + m[0].length - 1));
      if (m[1] === 'need') add(literal(args[2]));
      else args.slice(3).forEach((a) => add(literal(a)));
    }
  }
  return found;
}

describe('the problem texts cover every code the platform answers', () => {
  const produced = producedProblemCodes();

  it('finds the codes the services produce the ways libs/service-kit makes them', () => {
    // one of each way: an option, a parameter default, problem(), a helper with a code parameter, a bare kind
    for (const code of ['LAST_OWNER', 'LOGO_BUSY', 'CONFLICT', 'MALFORMED_JSON', 'XML_DTD_FORBIDDEN', 'NOT_CAMT053', 'INVALID_DATA'])
      expect(produced.has(code)).toBe(true);
    // and not what only looks like one: an invoice status, an errno, a warning code
    for (const code of ['PAID', 'EADDRNOTALLOWED', 'DERIVED_VALUE_REPLACED']) expect(produced.has(code)).toBe(false);
    expect(produced.size).toBeGreaterThan(90);
  });

  it('has a German and an English sentence for every code a service produces and every code the API lists', () => {
    const codes = [...new Set([...produced.keys(), ...Object.keys(ERROR_CODES)])].sort();
    const missing = codes.flatMap((code) =>
      (['de', 'en'] as const)
        .filter((lang) => !Object.hasOwn(PROBLEM_TEXTS[lang], code))
        .map((lang) => `${code} (${lang}, from ${produced.get(code) ?? 'libs/contracts ERROR_CODES'})`),
    );
    expect(missing).toEqual([]);
    // and no sentence for a code nobody answers any more
    expect(Object.keys(PROBLEM_TEXTS.en).filter((c) => !codes.includes(c))).toEqual([]);
  });

  it('has the same codes in both languages, no empty sentence, and no sentence left untranslated by accident', () => {
    expect(Object.keys(PROBLEM_TEXTS.de).sort()).toEqual(Object.keys(PROBLEM_TEXTS.en).sort());
    for (const lang of ['de', 'en'] as const)
      for (const [code, sentence] of Object.entries(PROBLEM_TEXTS[lang])) {
        expect([code, sentence.trim().length > 10]).toEqual([code, true]);
        expect([code, /[.!?)]$/.test(sentence)]).toEqual([code, true]);
        expect([code, /\{\w+\}/.test(sentence)]).toEqual([code, false]); // no placeholder left to fill
      }
    // codes whose sentence may read the same in both languages (none so far: add one here only on purpose)
    const IDENTICAL_SENTENCES = new Set<string>([]);
    const same = Object.keys(PROBLEM_TEXTS.en).filter(
      (c) => PROBLEM_TEXTS.de[c as never] === PROBLEM_TEXTS.en[c as never] && !IDENTICAL_SENTENCES.has(c),
    );
    expect(same).toEqual([]);
    // German sentences are German: the accounting words, the polite form
    const de = Object.values(PROBLEM_TEXTS.de).join(' ');
    for (const word of ['Rechnung', 'Gutschrift', 'Zahlung', 'Mahnung', 'Kontingent', 'Nummernkreis', 'USt-IdNr.', 'festgeschrieben'])
      expect(de).toContain(word);
    expect(de).not.toMatch(/\b(the|please|invoice|payment)\b/i);
    // the 403 sentence is the page's own
    expect(PROBLEM_TEXTS.de.FORBIDDEN).toBe(texts.de.forbidden);
    expect(PROBLEM_TEXTS.en.FORBIDDEN).toBe(texts.en.forbidden);
  });

  it('has the same form fields in both languages, each with a label and what it expects, translated where words differ', () => {
    const IDENTICAL_LABELS = new Set(['Name', 'URL', 'IBAN', 'BIC', 'Bank', 'Cc', 'Bcc', 'Website', 'Codice fiscale', 'Partita IVA']);
    const IDENTICAL_EXPECTED = new Set(['SKR03 or SKR04']);
    expect(Object.keys(FIELD_TEXTS.de).sort()).toEqual(Object.keys(FIELD_TEXTS.en).sort());
    for (const form of Object.keys(FORM_FIELD_TEXTS.en) as (keyof typeof FORM_FIELD_TEXTS.en)[])
      expect(Object.keys(FORM_FIELD_TEXTS.de[form]).sort()).toEqual(Object.keys(FORM_FIELD_TEXTS.en[form]).sort());
    const untranslated: string[] = [];
    for (const [key, en] of Object.entries(FIELD_TEXTS.en)) {
      const de = FIELD_TEXTS.de[key]!;
      for (const f of [en, de]) expect([key, f.label.trim() !== '' && f.expected.trim() !== '']).toEqual([key, true]);
      if (de.label === en.label && !IDENTICAL_LABELS.has(en.label)) untranslated.push(`${key}.label`);
      if (de.expected === en.expected && !IDENTICAL_EXPECTED.has(en.expected)) untranslated.push(`${key}.expected`);
    }
    expect(untranslated).toEqual([]);
  });

  it('knows the fields of the dashboard’s forms as the contracts name them', () => {
    const fields = [
      // invoice and positions
      'customer_id',
      'positions',
      'positions.0.quantity',
      'positions.1.unit_net_amount',
      'positions.0.tax_rate',
      'positions.0.unit_id',
      'positions.0.description',
      'invoice_number',
      'buyer_reference',
      'due_date',
      // payment
      'amount',
      'date',
      'method',
      // customer and address
      'organization_name',
      'first_name',
      'last_name',
      'address_line_1',
      'address_line_2',
      'postal_code',
      'city',
      'country_code',
      'vat_id',
      'email',
      // company profile
      'legal_name',
      'address.line1',
      'address.postal_code',
      'tax_number',
      'registration_id',
      // bank account
      'iban',
      'bic',
      'account_holder',
      // payment term
      'days',
      'discount.percent',
      'discount.days',
      // numbering, DATEV
      'pattern',
      'next_value',
      'consultant_number',
      'client_number',
      'fiscal_year_start_month',
      // recurring
      'template.positions.0.quantity',
      'schedule.start_date',
    ];
    expect(fields.filter((path) => !fieldText('de', path) || !fieldText('en', path))).toEqual([]);
    expect(fieldText('de', 'positions.3.quantity')!.label).toBe('Menge');
    expect(fieldText('de', 'address.line1')!.label).toBe('Straße und Hausnummer');
    expect(fieldText('de', 'discount.days')!.label).toBe('Skontofrist (Tage)');
    expect(fieldText('en', 'positions.0.description')!.expected).toBe('at most 2,000 characters');
    expect(fieldText('en', 'template.positions.0.description')!.expected).toBe('at most 2,000 characters');
    expect(fieldText('en', 'description')!.expected).toBe('at most 500 characters');
    expect(fieldText('en', 'constructor')).toBeUndefined();
    expect(fieldText('en', '__proto__.x')).toBeUndefined();
    expect(fieldText('en', '0.1')).toBeUndefined();
  });

  it('says a field error of the invoice, customer and settings forms in the page language', () => {
    const invalid = (errors: unknown[]) => ({ code: 'VALIDATION_ERROR', detail: 'invalid request', errors });
    expect(problemMessage('de', 400, invalid([{ path: 'positions.0.tax_rate', message: 'not a percentage', suggestion: 0.19 }]))).toBe(
      'Bitte prüfen Sie das Feld „USt-Satz“. Erwartet: ein Satz unter 100 %, z. B. 19 % oder 7 %. Meinten Sie „0.19“?',
    );
    expect(problemMessage('en', 400, invalid([{ path: 'iban', message: 'checksum' }]))).toBe(
      'Please check the field “IBAN”. Expected: a valid IBAN, e.g. DE89 3704 0044 0532 0130 00.',
    );
    expect(problemMessage('de', 400, invalid([{ path: 'consultant_number', message: 'too small' }]))).toContain('„DATEV-Beraternummer“');
    // a form whose name means something else than an API key's
    expect(problemMessage('de', 400, invalid([{ path: 'name', message: 'required' }]), 'paymentTerm')).toBe(
      'Bitte prüfen Sie das Feld „Name“. Erwartet: 1 bis 100 Zeichen, z. B. 14 Tage netto.',
    );
    expect(problemMessage('en', 400, invalid([{ path: 'name', message: 'required' }]))).toContain('what the key is for');
    expect(problemMessage('de', 400, invalid([{ path: 'phone', message: 'too long' }]), 'companyProfile')).toContain(
      'höchstens 40 Zeichen',
    );
    expect(problemMessage('de', 400, invalid([{ path: 'phone', message: 'too long' }]))).toContain('höchstens 50 Zeichen');
  });

  it('names the amounts, dates and counts an answer carries, in the page language, and otherwise says the plain sentence', () => {
    // both languages: the same codes, and per sentence the same conditions and the same members
    expect(Object.keys(PROBLEM_DATA_TEXTS.de).sort()).toEqual(Object.keys(PROBLEM_DATA_TEXTS.en).sort());
    const shape = (text: string) => [...text.matchAll(/\{(\w+):(\w+)\}/g)].map((m) => m[0]).sort();
    for (const [code, en] of Object.entries(PROBLEM_DATA_TEXTS.en)) {
      const de = PROBLEM_DATA_TEXTS.de[code as never] as typeof en;
      expect([code, de.length]).toEqual([code, en.length]);
      en.forEach((e, i) => {
        expect([code, de[i]!.when, shape(de[i]!.text)]).toEqual([code, e.when, shape(e.text)]);
        expect([code, shape(e.text).every((p) => /:(int|money|date|currency)\}$/.test(p))]).toEqual([code, true]);
        expect(de[i]!.text).not.toBe(e.text);
      });
    }
    const quota = {
      code: 'INVOICE_LIMIT_REACHED',
      detail: 'monthly invoice limit of 3 reached',
      used: 3,
      limit: 3,
      reset_date: '2026-12-01',
    };
    expect(problemMessage('de', 402, quota)).toBe(
      'Das Kontingent Ihres Tarifs von 3 festgeschriebenen Rechnungen ist für diesen Monat ausgeschöpft. Entwürfe können Sie weiter anlegen; schreiben Sie sie ab dem 1. Dezember 2026 fest, wenn das Kontingent zurückgesetzt wird, oder nach einem Tarifwechsel.',
    );
    expect(problemMessage('en', 402, quota)).toContain('finalize them from 1 December 2026, when the quota resets');
    const open = { code: 'PAYMENT_EXCEEDS_OPEN_AMOUNT', detail: 'x', invoice_id: 4, open_amount: 1190.5 };
    expect(problemMessage('de', 409, open)).toMatch(/offene Betrag von 1\.190,50\s€\. Prüfen Sie den Betrag\.$/);
    expect(problemMessage('en', 409, open)).toContain('open amount of €1,190.50.');
    expect(problemMessage('de', 409, { code: 'CREDIT_EXCEEDS_INVOICE', remaining_gross: 0 })).toMatch(/höchstens 0,00\s€ gutgeschrieben/);
    expect(problemMessage('de', 409, { code: 'PAYMENT_TERM_IN_USE', customers: 0, is_default: true })).toContain(
      'Standard-Zahlungsbedingung',
    );
    expect(problemMessage('de', 409, { code: 'PAYMENT_TERM_IN_USE', customers: 1 })).toContain('noch einem Kunden zugeordnet');
    expect(problemMessage('en', 409, { code: 'PAYMENT_TERM_IN_USE', customers: 12 })).toContain('assigned to 12 customers');
    expect(problemMessage('de', 429, { code: 'EMAIL_LIMIT_EXCEEDED', scope: 'invoice', limit: 5 })).toContain('bereits 5-mal gesendet');
    expect(problemMessage('en', 429, { code: 'EMAIL_LIMIT_EXCEEDED', scope: 'company', limit: 1000 })).toContain(
      'sent 1,000 e-mails today',
    );
    expect(problemMessage('de', 422, { code: 'LOGO_DIMENSIONS_TOO_LARGE', width: 10000, height: 6000 })).toContain('10.000 × 6.000 Pixel');
    expect(problemMessage('de', 409, { code: 'BANK_ENTRY_CURRENCY_MISMATCH', currency: 'CHF' })).toContain('in CHF, nicht in Euro');
    // missing or odd members: the plain sentence
    for (const body of [
      { code: 'INVOICE_LIMIT_REACHED', limit: 3 },
      { code: 'INVOICE_LIMIT_REACHED', limit: 3, reset_date: '2026-02-30' },
      { code: 'INVOICE_LIMIT_REACHED', limit: '3', reset_date: '2026-12-01' },
      { code: 'PAYMENT_EXCEEDS_OPEN_AMOUNT', open_amount: Number.NaN },
      { code: 'PAYMENT_EXCEEDS_OPEN_AMOUNT', open_amount: '<b>119</b>' },
      { code: 'PAYMENT_TERM_IN_USE', customers: -1 },
      { code: 'EMAIL_LIMIT_EXCEEDED', scope: 'toString', limit: 5 },
      { code: 'BANK_ENTRY_CURRENCY_MISMATCH', currency: 'x'.repeat(5000) },
    ])
      for (const lang of ['de', 'en'] as const) expect(problemMessage(lang, 409, body)).toBe(PROBLEM_TEXTS[lang][body.code as never]);
  });

  it('has a German and an English sentence for every rule an invoice check names', () => {
    const rules = producedRules();
    for (const rule of ['CUSTOMER_EXISTS', 'VAT_RATE_NOT_IN_FORCE', 'BR-DE-15', 'BR-CO-26', 'BR-09', 'amounts', 'FatturaPA:CAP'])
      expect([rule, rules.has(rule)]).toEqual([rule, true]);
    expect(rules.size).toBeGreaterThan(50);
    const missing = [...rules].flatMap(([rule, file]) =>
      (['de', 'en'] as const).filter((lang) => !Object.hasOwn(RULE_TEXTS[lang], rule)).map((lang) => `${rule} (${lang}, from ${file})`),
    );
    expect(missing).toEqual([]);
    expect(Object.keys(RULE_TEXTS.en).filter((r) => !rules.has(r))).toEqual([]);
    expect(Object.keys(RULE_TEXTS.de).sort()).toEqual(Object.keys(RULE_TEXTS.en).sort());
    for (const [rule, en] of Object.entries(RULE_TEXTS.en)) {
      const de = RULE_TEXTS.de[rule as never] as string;
      expect([rule, de !== en, /[.]$/.test(de) && /[.]$/.test(en), de.length > 10]).toEqual([rule, true, true, true]);
    }
    const de = Object.values(RULE_TEXTS.de).join(' ');
    expect(de).not.toMatch(/\b(the|company|customer|needs)\b/i);
  });

  it('says what an invoice that cannot be finalized lacks, each finding once, then how many more the check names', () => {
    const finding = (rule: string, path = 'x') => ({ path, field: path, rule, message: 'english' });
    const refused = {
      code: 'INVOICE_NOT_VALID',
      detail: 'the invoice cannot be finalized: english',
      errors: [finding('BR-DE-15', 'buyerReference'), finding('BR-DE-05'), finding('BR-DE-05'), finding('BR-SOMETHING-NEW')],
    };
    expect(problemMessage('de', 422, refused)).toBe(
      [
        PROBLEM_TEXTS.de.INVOICE_NOT_VALID,
        RULE_TEXTS.de['BR-DE-15'],
        RULE_TEXTS.de['BR-DE-05'],
        'Weitere Befunde in der Prüfung der Rechnung: 1.',
      ].join(' '),
    );
    expect(problemMessage('en', 422, refused)).toContain('The buyer reference (the Leitweg-ID for public-sector customers) is missing.');
    expect(problemMessage('en', 422, refused)).not.toContain('english');
    const many = {
      code: 'RECURRING_TEMPLATE_NOT_VALID',
      errors: ['BR-02', 'BR-03', 'BR-22', 'BR-23', 'BR-25', 'BR-26', 'BR-27'].map((r) => finding(r)),
      errors_total: 30,
    };
    const text = problemMessage('de', 422, many);
    expect(text.startsWith(PROBLEM_TEXTS.de.RECURRING_TEMPLATE_NOT_VALID)).toBe(true);
    expect(text).toContain(RULE_TEXTS.de['BR-25']);
    expect(text).not.toContain(RULE_TEXTS.de['BR-26']);
    expect(text.endsWith('Weitere Befunde in der Prüfung der Rechnung: 25.')).toBe(true); // 2 not said + 23 not listed
    // no findings, or odd ones: the code's sentence
    expect(problemMessage('de', 422, { code: 'INVOICE_NOT_VALID' })).toBe(PROBLEM_TEXTS.de.INVOICE_NOT_VALID);
    expect(problemMessage('de', 422, { code: 'INVOICE_NOT_VALID', errors: [null, { rule: '__proto__' }], errors_total: 'x' })).toBe(
      `${PROBLEM_TEXTS.de.INVOICE_NOT_VALID} Weitere Befunde in der Prüfung der Rechnung: 2.`,
    );
  });

  it('answers each code in its own sentence, not the service’s English', () => {
    for (const code of KNOWN_PROBLEM_CODES)
      for (const lang of ['de', 'en'] as const)
        expect(problemMessage(lang, 409, { code, detail: 'english detail' })).toBe(PROBLEM_TEXTS[lang][code as never]);
    expect(problemMessage('de', 402, { error_code: 'INVOICE_LIMIT_REACHED', message: 'monthly invoice limit of 3 reached' })).toContain(
      'Kontingent',
    );
    expect(problemMessage('de', 409, { code: 'CREDIT_EXCEEDS_INVOICE', detail: 'x' })).toContain('Gutschriften');
    expect(problemMessage('de', 422, { code: 'VAT_OVERRIDE_REQUIRED', detail: 'x', errors: [{ path: 'customer.vat_id' }] })).toContain(
      'USt-IdNr. des Kunden',
    );
    // a field error the form cannot name keeps the service's detail, which names the field
    expect(problemMessage('en', 400, { code: 'INVALID_DATA', detail: 'company id: cmp_ followed by …' })).toBe(
      'Please check your entries. The service says: company id: cmp_ followed by …',
    );
  });
});
