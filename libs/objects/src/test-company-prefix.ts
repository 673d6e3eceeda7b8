import { isTestCompany, TEST_TWIN_PREFIX } from '@inv/contracts/tables';

/** Longest prefix accepted for a removal (S3 keys are at most 1024 bytes). */
const MAX_PREFIX_BYTES = 1024;
/** A twin's id: `test~` and a live id (`cmp_…`, `[a-z0-9_]`, docs/test-mode.md); `~` appears nowhere else. */
const TWIN_SEGMENT = new RegExp(`^${TEST_TWIN_PREFIX}[a-z0-9_]{1,200}$`);
/** A further folder of the prefix: no dot segment, no separator of another system, no control character. */
const SEGMENT = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]*$/;

/**
 * Checks a prefix handed to `removePrefix` and answers it unchanged: removal by prefix exists only for a test
 * twin's stored files (DELETE /test-data, docs/test-mode.md), whose keys start `<twin id>/`. Refused: an empty
 * prefix (the whole bucket), one that is not a twin's folder (a live company's id, `test~` alone, a twin id without
 * the closing `/`, which would match `test~cmp_ab/` for `test~cmp_a`), one that leaves its folder or the bucket's
 * root (`..`, `.`, a leading `/`, `\`, an empty segment) and any control or non-ASCII character.
 */
export function checkedTestCompanyPrefix(prefix: unknown): string {
  if (typeof prefix !== 'string' || prefix.length === 0) throw new Error('refusing to remove by an empty prefix');
  if (Buffer.byteLength(prefix) > MAX_PREFIX_BYTES) throw new Error('refusing to remove by a prefix over 1024 bytes');
  const quoted = JSON.stringify(prefix.slice(0, 80));
  if (!prefix.endsWith('/')) throw new Error(`refusing to remove by ${quoted}: a prefix ends with "/" (a whole folder)`);
  const [company, ...rest] = prefix.slice(0, -1).split('/');
  if (!isTestCompany(company!) || !TWIN_SEGMENT.test(company!))
    throw new Error(`refusing to remove by ${quoted}: only a test twin's files (test~<company>/) are removed by prefix`);
  for (const segment of rest)
    if (!SEGMENT.test(segment)) throw new Error(`refusing to remove by ${quoted}: a segment is empty, a dot segment or unsafe`);
  return prefix;
}

/** The folder of a test twin's stored files, `<twin id>/`; refuses a live company's id. */
export function testCompanyFilesPrefix(companyId: string): string {
  return checkedTestCompanyPrefix(`${companyId}/`);
}
