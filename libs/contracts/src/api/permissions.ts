import { roleAllows, type Permission } from './roles';

/**
 * Which permission a public route needs: the one place that says it, read by the gateway (before forwarding)
 * and by every service (from the signed identity, service-kit requireIdentity), so neither a spelling of the
 * path nor a caller other than the API (the web app) gets around it.
 */
const under = (...prefixes: string[]) => new RegExp(`^/(${prefixes.join('|')})(/|$)`);
const KEYS = under('company/api-keys');
const MEMBERS = under('members');
const AUDIT = under('audit-log');
/** Resetting the test data (docs/test-mode.md): owners and admins, as for the audit log. */
const TEST_DATA = under('test-data');
const WEBHOOKS = under('webhook-endpoints');
const EXPORT = under('exports', 'acctexp', 'datev', 'downloads');
const COMPANY_DATA = under(
  'company',
  'numbering',
  'template',
  'customer/payment-terms',
  'invoice/email-texts',
  'invoice/reminder-settings',
);
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Keys, members and webhook endpoints need their own permission, exports theirs, other reads `read`, writes of company-wide data
 * `company:write` (profile, numbering, templates, payment terms, e-mail texts), every other write `invoices:write`.
 * `path` is matched as given: see `canonicalPaths` for the spellings a request may use.
 */
export function permissionOf(method: string, path: string): Permission {
  if (KEYS.test(path)) return 'keys:manage';
  if (AUDIT.test(path) || TEST_DATA.test(path)) return 'members:manage';
  // reads too: the delivery log shows what was sent to which URL
  if (WEBHOOKS.test(path)) return 'webhooks:manage';
  if (MEMBERS.test(path)) return READ_METHODS.has(method.toUpperCase()) ? 'read' : 'members:manage';
  if (EXPORT.test(path)) return 'export';
  if (READ_METHODS.has(method.toUpperCase())) return 'read';
  if (COMPANY_DATA.test(path)) return 'company:write';
  return 'invoices:write';
}

/**
 * The spellings under which a router may take `path` for another: the routers here match case-insensitively and
 * ignore a trailing slash, and a proxy or router may collapse repeated slashes or decode percent-escapes. Each
 * spelling is lower-cased, its slashes collapsed and trailing slash dropped, once as sent and once decoded.
 */
export function canonicalPaths(path: string): string[] {
  const tidy = (p: string) => {
    const collapsed = p.replace(/\/{2,}/g, '/').toLowerCase();
    return collapsed.length > 1 ? collapsed.replace(/\/$/, '') : collapsed;
  };
  const raw = tidy(path);
  let decoded = raw;
  try {
    decoded = tidy(decodeURIComponent(path));
  } catch {
    // malformed escapes: the raw spelling only (the services answer 400 MALFORMED_PATH)
  }
  return decoded === raw ? [raw] : [raw, decoded];
}

/** The permissions a request needs: that of every spelling of its path (usually one). */
export function permissionsOf(method: string, path: string): Permission[] {
  return [...new Set(canonicalPaths(path).map((p) => permissionOf(method, p)))];
}

/** The first permission `role` lacks for this request, or undefined when it may go ahead. */
export function missingPermission(role: string | undefined, method: string, path: string): Permission | undefined {
  return permissionsOf(method, path).find((p) => !roleAllows(role, p));
}
