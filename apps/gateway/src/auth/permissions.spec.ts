import { canonicalPaths, missingPermission, roleAllows } from '@inv/contracts';
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
    // the request log holds no secrets: every role reads it
    ['GET', '/request-log/', 'read'],
    ['GET', '/webhook-endpoints/', 'webhooks:manage'],
    ['POST', '/webhook-endpoints/we_1/rotate-secret', 'webhooks:manage'],
    ['GET', '/downloads/4', 'export'],
    ['POST', '/exports/job', 'export'],
    ['PUT', '/invoice/email-texts', 'company:write'],
    ['DELETE', '/invoice/email-texts', 'company:write'],
    ['PUT', '/invoice/reminder-settings', 'company:write'],
    ['GET', '/invoice/reminder-settings', 'read'],
    ['POST', '/invoice/7/reminders', 'invoices:write'],
    ['GET', '/invoice/reminder-proposals', 'read'],
    ['GET', '/invoice/reminders', 'read'],
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

  it.each([
    ['/company/API-KEYS', ['/company/api-keys']],
    ['/company//api-keys/', ['/company/api-keys']],
    ['/Company/%61pi-keys', ['/company/%61pi-keys', '/company/api-keys']],
    ['/company/%E0%A4%A', ['/company/%e0%a4%a']],
    ['/', ['/']],
  ])('reads %s as %j', (path, expected) => {
    expect(canonicalPaths(path)).toEqual(expected);
  });

  it('judges every spelling: the strictest permission wins', () => {
    expect(missingPermission('viewer', 'GET', '/company/API-KEYS')).toBe('keys:manage');
    expect(missingPermission('viewer', 'GET', '/company//api-keys')).toBe('keys:manage');
    expect(missingPermission('viewer', 'GET', '/company/%61pi-keys')).toBe('keys:manage');
    expect(missingPermission('member', 'PUT', '/invoice/Email-Texts')).toBe('company:write');
    expect(missingPermission('admin', 'GET', '/company/api-keys')).toBeUndefined();
  });
});
