import { metricsRouteOf, suggestedPath } from './routes-table';

describe('metric route label of proxied requests', () => {
  const table = [{ prefix: '/invoice/tax-treatments' }, { prefix: '/invoice' }, { prefix: '/customer' }];
  it('is the owning prefix, never the raw path', () => {
    expect(metricsRouteOf(table, '/api/v1/invoice/123/job?wait=5')).toBe('/api/v1/invoice/*');
    expect(metricsRouteOf(table, '/api/v1/invoice/tax-treatments')).toBe('/api/v1/invoice/tax-treatments/*');
    expect(metricsRouteOf(table, '/api/v1/customer')).toBe('/api/v1/customer/*');
  });
  it('is undefined for paths no service owns (labelled unmatched or other by service-kit)', () => {
    expect(metricsRouteOf(table, '/api/v1/invoices-are-not-this')).toBeUndefined();
    expect(metricsRouteOf(table, '/metrics')).toBeUndefined();
    expect(metricsRouteOf(table, '/api/v1/%2e%2e/secret')).toBeUndefined();
  });
});

describe('the path a client probably meant', () => {
  const table = [{ prefix: '/invoice/tax-treatments' }, { prefix: '/invoice' }, { prefix: '/customer' }, { prefix: '/products' }];
  it.each([
    ['/invoices/', '/invoice/'],
    ['/invoices', '/invoice'],
    ['/customers/5/addresses', '/customer/5/addresses'],
    ['/Invoices/', '/invoice/'],
    ['/product/3', '/products/3'],
  ])('%s -> %s', (path, meant) => {
    expect(suggestedPath(table, path)).toBe(meant);
  });
  it("counts the gateway's own paths: /request-logs -> /request-log", () => {
    expect(suggestedPath(table, '/request-logs')).toBe('/request-log');
    expect(suggestedPath(table, '/Request-Logs/')).toBe('/request-log/');
  });
  it('is undefined for paths that resemble nothing', () => {
    expect(suggestedPath(table, '/internal/auth/verify')).toBeUndefined();
    expect(suggestedPath(table, '/')).toBeUndefined();
  });
});
