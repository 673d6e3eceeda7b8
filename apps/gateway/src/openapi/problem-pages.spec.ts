import { ERROR_CODES, type ErrorCode } from '@inv/contracts';
import { PROBLEM_ADVICE } from './problem-advice';
import { adviceOf, renderProblemPage } from './problem-pages';

const codes = Object.keys(ERROR_CODES) as ErrorCode[];
const whatToDo = (code: ErrorCode) => /<h2>What to do<\/h2>\n<p>([\s\S]*?)<\/p>/.exec(renderProblemPage(code))?.[1];

describe('each problem page\'s "what to do" is specific to its code', () => {
  it('every error code has advice of its own', () => {
    expect(codes.filter((c) => !PROBLEM_ADVICE[c])).toEqual([]);
    expect(Object.keys(PROBLEM_ADVICE).filter((c) => !(c in ERROR_CODES))).toEqual([]);
  });

  it('no two codes share the same advice, on the rendered pages either', () => {
    const byText = new Map<string, ErrorCode[]>();
    for (const code of codes) {
      const text = whatToDo(code);
      expect(text).toBe(adviceOf(code));
      byText.set(text!, [...(byText.get(text!) ?? []), code]);
    }
    expect([...byText.values()].filter((shared) => shared.length > 1)).toEqual([]);
  });

  it('the advice of the common mistakes says what to send', () => {
    expect(whatToDo('VALIDATION_ERROR')).toMatch(/<code>suggestion<\/code>.*<code>HUR<\/code>.*<code>0\.19<\/code>.*YYYY-MM-DD/);
    expect(whatToDo('UNKNOWN_FIELD')).toMatch(/did you mean/);
    expect(whatToDo('MALFORMED_REQUEST')).toMatch(/<code>%C3%BC<\/code>/);
    expect(whatToDo('VAT_OVERRIDE_REQUIRED')).toMatch(/<code>vat_override_confirmed: true<\/code>/);
    expect(whatToDo('INVOICE_LIMIT_REACHED')).toMatch(/<code>reset_date<\/code>/);
  });

  it('advice is escaped HTML (code spans only)', () => {
    for (const code of codes) expect(whatToDo(code)!.replace(/<\/?code>/g, '')).not.toMatch(/[<>]/);
  });
});
