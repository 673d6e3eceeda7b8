import { roleAllows } from '@inv/contracts';
import { permissionOf } from './permissions';

describe('route permissions', () => {
  it.each([
    ['GET', '/invoice/', 'read'],
    ['POST', '/invoice/', 'invoices:write'],
    ['POST', '/customer/5/addresses', 'invoices:write'],
    ['PUT', '/customer/payment-terms/3', 'company:write'],
    ['PUT', '/company/', 'company:write'],
    ['PUT', '/numbering/invoice', 'company:write'],
    ['GET', '/company/api-keys', 'keys:manage'],
    ['DELETE', '/company/api-keys/abc', 'keys:manage'],
    ['GET', '/members/', 'read'],
    ['POST', '/members/', 'members:manage'],
    ['GET', '/audit-log/', 'members:manage'],
    ['GET', '/downloads/4', 'export'],
    ['POST', '/exports/job', 'export'],
  ])('%s %s needs %s', (method, path, permission) => {
    expect(permissionOf(method, path)).toBe(permission);
  });

  it('grants the roles their documented permissions', () => {
    expect(roleAllows('viewer', 'read')).toBe(true);
    expect(roleAllows('viewer', 'invoices:write')).toBe(false);
    expect(roleAllows('member', 'invoices:write')).toBe(true);
    expect(roleAllows('member', 'keys:manage')).toBe(false);
    expect(roleAllows('admin', 'members:manage')).toBe(true);
    expect(roleAllows(undefined, 'read')).toBe(false);
    expect(roleAllows('root', 'read')).toBe(false);
  });
});
