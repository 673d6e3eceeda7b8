import type { CompanyId } from './company-id';

/**
 * Test mode (docs/test-mode.md). A test key (`ak_test_…`) works on the **test twin** of its company: a tenant of its
 * own whose id is the live company's id behind `test~`. The gateway derives the id from the key (a client never
 * chooses its company id), and every service already confines every read and write to the identity's company, so
 * test data and live data cannot meet. The prefix cannot be produced by the operator command (company ids are `cmp_…`,
 * `[a-z0-9_]`), so no live company can ever carry a twin's id, and `~` is unreserved in URLs and object keys.
 *
 * Plain functions without zod: also exported from `@inv/contracts/tables` for code that must stay light.
 */
export const TEST_TWIN_PREFIX = 'test~';

export type ApiKeyMode = 'live' | 'test';

/** The id of the test twin of a live company (the twin of a twin is itself). */
export const testTwinOf = (live: CompanyId): CompanyId => (isTestCompany(live) ? live : `${TEST_TWIN_PREFIX}${live}`) as CompanyId;

/** Whether the id is a test twin's. */
export const isTestCompany = (id: string): boolean => id.startsWith(TEST_TWIN_PREFIX);

/** The live company a twin belongs to; a live id is answered unchanged. */
export const liveCompanyOf = (id: CompanyId): CompanyId => (isTestCompany(id) ? id.slice(TEST_TWIN_PREFIX.length) : id) as CompanyId;

/** The mode of a company id: `test` for a twin. */
export const modeOfCompany = (id: string): ApiKeyMode => (isTestCompany(id) ? 'test' : 'live');

/** The company id requests of a key in this mode work on. */
export const companyOfMode = (live: CompanyId, mode: ApiKeyMode): CompanyId => (mode === 'test' ? testTwinOf(live) : liveCompanyOf(live));
