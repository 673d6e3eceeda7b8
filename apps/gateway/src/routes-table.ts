import type { GatewayConfig } from './config';

/** Which service owns which public path prefix (below /api/v1). */
export function routeTable(config: GatewayConfig): { prefix: string; target: string }[] {
  return [
    { prefix: '/customer', target: config.CUSTOMER_URL },
    { prefix: '/invoice/tax-treatments', target: config.DOCUMENT_URL },
    { prefix: '/invoice', target: config.INVOICE_URL },
    { prefix: '/numbering', target: config.INVOICE_URL },
    { prefix: '/products', target: config.INVOICE_URL },
    { prefix: '/template', target: config.DOCUMENT_URL },
    { prefix: '/exports', target: config.EXPORT_URL },
    { prefix: '/acctexp', target: config.EXPORT_URL },
    { prefix: '/datev', target: config.EXPORT_URL },
    { prefix: '/downloads', target: config.EXPORT_URL },
    { prefix: '/company', target: config.ACCOUNT_URL },
    { prefix: '/members', target: config.ACCOUNT_URL },
    { prefix: '/audit-log', target: config.ACCOUNT_URL },
    { prefix: '/quota', target: config.QUOTA_URL },
  ];
}
