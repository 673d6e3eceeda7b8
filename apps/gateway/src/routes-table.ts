import type { GatewayConfig } from './config';

/** Which service owns which public path prefix (below /api/v1). */
export function routeTable(config: GatewayConfig): { prefix: string; target: string }[] {
  return [
    { prefix: '/customer', target: config.CUSTOMER_URL },
    { prefix: '/invoice/tax-treatments', target: config.DOCUMENT_URL },
    { prefix: '/invoice', target: config.INVOICE_URL },
    { prefix: '/numbering', target: config.INVOICE_URL },
    { prefix: '/bank-statements', target: config.INVOICE_URL },
    { prefix: '/products', target: config.INVOICE_URL },
    { prefix: '/template', target: config.DOCUMENT_URL },
    { prefix: '/exports', target: config.EXPORT_URL },
    { prefix: '/acctexp', target: config.EXPORT_URL },
    { prefix: '/datev', target: config.EXPORT_URL },
    { prefix: '/downloads', target: config.EXPORT_URL },
    { prefix: '/company', target: config.ACCOUNT_URL },
    { prefix: '/auth', target: config.ACCOUNT_URL },
    { prefix: '/members', target: config.ACCOUNT_URL },
    { prefix: '/audit-log', target: config.ACCOUNT_URL },
    { prefix: '/test-data', target: config.ACCOUNT_URL },
    { prefix: '/test-mails', target: config.INVOICE_URL },
    { prefix: '/quota', target: config.QUOTA_URL },
    { prefix: '/inbound', target: config.INBOUND_URL },
    { prefix: '/suppliers', target: config.INBOUND_URL },
    { prefix: '/webhook-endpoints', target: config.WEBHOOK_URL },
    { prefix: '/recurring-invoices', target: config.RECURRING_URL },
  ];
}

/** Paths below /api/v1 the gateway answers itself (never proxied): the request log (request-log/). */
export const GATEWAY_PATHS: { prefix: string }[] = [{ prefix: '/request-log' }];
/** Whether the gateway answers `path` itself (GATEWAY_PATHS). */
export const isGatewayPath = (path: string) => GATEWAY_PATHS.some((r) => path === r.prefix || path.startsWith(`${r.prefix}/`));

/**
 * Upstream timeout per route: most answers are quick reads and writes (`UPSTREAM_TIMEOUT_MS`); routes
 * that render a PDF inline or stream an export get `UPSTREAM_TIMEOUT_SLOW_MS`. A service that does not
 * answer in time gets the client a 504 problem.
 */
export function upstreamTimeoutOf(config: Pick<GatewayConfig, 'UPSTREAM_TIMEOUT_MS' | 'UPSTREAM_TIMEOUT_SLOW_MS'>) {
  // a camt.053 upload of 50,000 lines is read, matched and stored in a few seconds; 30 s would cut a slow link's 20 MiB
  const slow = [/^\/invoice\/[^/]+\/preview$/, /^\/customer\/[^/]+\/statement\/pdf$/, /^\/downloads(\/|$)/, /^\/bank-statements\/?$/];
  return (path: string) => (slow.some((re) => re.test(path)) ? config.UPSTREAM_TIMEOUT_SLOW_MS : config.UPSTREAM_TIMEOUT_MS);
}

/** Metric route label of a proxied request: `/api/v1<prefix>/*` of the owning table entry (bounded). */
export function metricsRouteOf(table: { prefix: string }[], originalUrl: string): string | undefined {
  const path = originalUrl.split('?')[0] ?? '';
  if (!path.startsWith('/api/v1/')) return undefined;
  const rest = path.slice('/api/v1'.length);
  const entry = table.find((r) => rest === r.prefix || rest.startsWith(`${r.prefix}/`));
  return entry ? `/api/v1${entry.prefix}/*` : undefined;
}

/**
 * For a path no service owns, the path the client probably meant: the plural or singular of a known first
 * segment (`/invoices/` → `/invoice/`, `/customers/5` → `/customer/5`, `/product/` → `/products/`, `/request-logs` →
 * `/request-log`; the gateway's own paths count), else undefined.
 */
export function suggestedPath(table: { prefix: string }[], path: string): string | undefined {
  const [, first = '', ...rest] = path.split('/');
  const known = new Set([...table, ...GATEWAY_PATHS].map((r) => r.prefix.split('/')[1]!));
  const lower = first.toLowerCase();
  const match = [...known].find((k) => k === lower.replace(/s$/, '') || k === `${lower}s`);
  return match && match !== first ? ['', match, ...rest].join('/') : undefined;
}
