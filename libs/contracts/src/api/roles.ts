import { z } from 'zod';

/** Roles of members and API keys (a key carries the permission set of the role chosen at its creation). */
export const Role = z.enum(['owner', 'admin', 'member', 'viewer']).meta({ id: 'Role', description: 'owner, admin, member or viewer (see the permission table)' });
export type Role = z.output<typeof Role>;

/** What a request may need; every public route needs exactly one (apps/gateway/src/auth/permissions.ts). */
export const PERMISSIONS = ['read', 'invoices:write', 'export', 'company:write', 'keys:manage', 'members:manage'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * The permission table (documented in the README and the OpenAPI description):
 *
 * | permission       | what                                                                 | owner | admin | member | viewer |
 * |------------------|----------------------------------------------------------------------|-------|-------|--------|--------|
 * | read             | every GET except keys, members and the audit log                     | yes   | yes   | yes    | yes    |
 * | invoices:write   | create/change/finalize/send invoices, customers, products, positions  | yes   | yes   | yes    | no     |
 * | export           | accounting exports, their configuration and downloads                | yes   | yes   | yes    | no     |
 * | company:write    | company profile, logo, bank accounts, payment terms, numbering, templates | yes | yes  | no     | no     |
 * | keys:manage      | list, create, revoke API keys                                        | yes   | yes   | no     | no     |
 * | members:manage   | list, invite, change and remove members; read the audit log          | yes   | yes   | no     | no     |
 *
 * Only an owner may make someone an owner or change or remove an owner (usecases/members.ts).
 */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS,
  member: ['read', 'invoices:write', 'export'],
  viewer: ['read'],
};

export const roleAllows = (role: string | undefined, permission: Permission): boolean =>
  (ROLE_PERMISSIONS[(role ?? '') as Role] ?? []).includes(permission);
