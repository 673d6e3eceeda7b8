import { dashboardPathOf } from './web.routes';

describe('the page a mode switch returns to', () => {
  it("is the Referer's dashboard path, without its query", () => {
    expect(dashboardPathOf('http://127.0.0.1:8080/app/invoices/42?lang=de')).toBe('/app/invoices/42');
  });
  it('is nothing for a malformed Referer, one outside the dashboard, or none', () => {
    expect(dashboardPathOf('::not a url')).toBeUndefined();
    expect(dashboardPathOf('http://127.0.0.1:8080/api/v1/invoice/')).toBeUndefined();
    expect(dashboardPathOf('javascript:alert(1)')).toBeUndefined();
    expect(dashboardPathOf(undefined)).toBeUndefined();
  });
});
