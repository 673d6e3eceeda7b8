import { checkedTestCompanyPrefix, testCompanyFilesPrefix } from './test-company-prefix';

describe('checkedTestCompanyPrefix (removal by prefix: a test twin folder only)', () => {
  it.each(['test~cmp_a/', 'test~cmp_demo_1/', 'test~cmp_a/invoices/', 'test~cmp_a/inbound/12/attachments/'])('accepts %s', (p) => {
    expect(checkedTestCompanyPrefix(p)).toBe(p);
  });

  it.each([
    ['empty', ''],
    ['not a string', undefined],
    ['the root', '/'],
    ['a live company', 'cmp_a/'],
    ['a live company without the slash', 'cmp_a'],
    ['the twin marker alone', 'test~'],
    ['the twin marker as a folder', 'test~/'],
    ['every twin', 'test~cmp'],
    ['a twin id without the closing slash (would match test~cmp_ab/)', 'test~cmp_a'],
    ['a leading slash', '/test~cmp_a/'],
    ['a parent segment', 'test~cmp_a/../cmp_a/'],
    ['a parent segment at the end', 'test~cmp_a/..'],
    ['a parent segment as a folder', 'test~cmp_a/../'],
    ['a dot segment', 'test~cmp_a/./'],
    ['an empty segment', 'test~cmp_a//'],
    ['a backslash', 'test~cmp_a\\..\\cmp_b/'],
    ['a backslash in the company', 'test~cmp_a\\/'],
    ['a live company behind a twin-looking segment', 'test~cmp_a/../../cmp_b/'],
    ['upper case (no live id has it)', 'test~CMP_A/'],
    ['a twin of a twin', 'test~test~cmp_a/'],
    ['a NUL byte', 'test~cmp_a\u0000/'],
    ['a newline', 'test~cmp_a/\n/'],
    ['a wildcard', 'test~cmp_*/'],
    ['a regex', 'test~cmp_.+/'],
    ['a space', 'test~cmp_a /'],
    ['non-ASCII', 'test~cmp_ä/'],
    ['encoded dots', 'test~cmp_a/%2e%2e/'],
    ['too long', `test~cmp_a/${'x/'.repeat(600)}`],
  ])('refuses %s', (_name, p) => {
    expect(() => checkedTestCompanyPrefix(p)).toThrow(/refusing/);
  });

  it('builds a twin folder and refuses a live company id', () => {
    expect(testCompanyFilesPrefix('test~cmp_a')).toBe('test~cmp_a/');
    expect(() => testCompanyFilesPrefix('cmp_a')).toThrow(/only a test twin/);
    expect(() => testCompanyFilesPrefix('')).toThrow(/refusing/);
    expect(() => testCompanyFilesPrefix('test~cmp_a/..')).toThrow(/refusing/);
  });

  it('a twin folder is not a prefix of another twin id', () => {
    expect('test~cmp_ab/x.pdf'.startsWith(testCompanyFilesPrefix('test~cmp_a'))).toBe(false);
  });
});
