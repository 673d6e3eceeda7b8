import { z } from 'zod';

/** Roles of members and API keys (a key carries the permission set of the role chosen at its creation). */
export const Role = z
  .enum(['owner', 'admin', 'member', 'viewer'])
  .meta({ id: 'Role', description: 'owner, admin, member or viewer (see the permission table)' });
export type Role = z.output<typeof Role>;

/** What a request may need; every public route needs exactly one (apps/gateway/src/auth/permissions.ts). */
export const PERMISSIONS = [
  'read',
  'invoices:write',
  'export',
  'company:write',
  'keys:manage',
  'members:manage',
  'webhooks:manage',
] as const;
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
 * | webhooks:manage  | webhook endpoints, their secrets, deliveries and replays (reads too)  | yes   | yes   | no     | no     |
 *
 * Only an owner may make someone an owner or change or remove an owner (account-service support/member-rules.ts).
 */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS,
  member: ['read', 'invoices:write', 'export'],
  viewer: ['read'],
};

export const roleAllows = (role: string | undefined, permission: Permission): boolean =>
  (ROLE_PERMISSIONS[(role ?? '') as Role] ?? []).includes(permission);

export const MemberInvite = z
  .object({
    email: z
      .string()
      .trim()
      .toLowerCase()
      .email()
      .max(254)
      .meta({ description: 'where the invitation goes (a single-use link, valid 7 days)' }),
    role: Role.default('member'),
  })
  .meta({ id: 'MemberInvite' });
export type MemberInvite = z.output<typeof MemberInvite>;

export const MemberUpdate = z.object({ role: Role }).meta({ id: 'MemberUpdate' });
export type MemberUpdate = z.output<typeof MemberUpdate>;

export const Member = z
  .object({
    id: z.string(),
    email: z.string(),
    role: Role,
    status: z.enum(['invited', 'active']).meta({ description: 'invited until the invitation is accepted' }),
    created_at: z.string(),
    invitation_expires_at: z.string().nullable(),
  })
  .meta({ id: 'Member' });

/** GET /audit-log/: filters and the cursor (newest first). */
export const AuditLogQuery = z
  .object({
    resource_type: z
      .string()
      .trim()
      .min(1)
      .max(50)
      .optional()
      .meta({ description: 'e.g. invoice, customer, company, api_key, member, product, numbering, export, mapping' }),
    resource_id: z.string().trim().min(1).max(100).optional(),
    actor: z.string().trim().min(1).max(200).optional().meta({ description: 'an API key id or a member id' }),
    action: z.string().trim().min(1).max(100).optional().meta({ description: 'e.g. invoice.finalized, api_key.revoked' }),
    from: z.iso.datetime({ offset: true }).optional().meta({ description: 'entries at or after this time' }),
    to: z.iso.datetime({ offset: true }).optional().meta({ description: 'entries before this time' }),
    cursor: z
      .string()
      .regex(/^\d{1,15}$/)
      .optional()
      .meta({ description: 'next_cursor of the previous page', example: '1016' }),
    limit: z.coerce.number().int().min(1).max(100).default(25),
  })
  .meta({ id: 'AuditLogQuery' });
export type AuditLogQuery = z.output<typeof AuditLogQuery>;

export const AuditEntry = z
  .object({
    seq: z.number().int().meta({ description: "position in the company's chain (1, 2, ...)" }),
    at: z.string().meta({ description: 'when the change happened' }),
    action: z.string(),
    resource_type: z.string(),
    resource_id: z.string().nullable(),
    fields: z.array(z.string()).meta({ description: 'names of the changed fields (never their values)' }),
    actor: z.object({
      key_id: z.string().nullable(),
      key_name: z.string().nullable(),
      member_id: z.string().nullable(),
      role: z.string().nullable(),
      request_id: z.string().nullable(),
      client_ip: z.string().nullable(),
    }),
    prev_hash: z.string(),
    hash: z.string().meta({ description: 'SHA-256 over the entry and prev_hash' }),
  })
  .meta({ id: 'AuditEntry' });

export const AuditLogPage = z.object({ entries: z.array(AuditEntry), next_cursor: z.string().nullable() }).meta({ id: 'AuditLogPage' });
export const AuditVerification = z
  .object({
    valid: z.boolean(),
    entries: z.number().int().meta({ description: 'entries checked' }),
    first_invalid_seq: z.number().int().nullable().meta({ description: 'the first entry whose hash or link does not match' }),
    reason: z.string().nullable(),
  })
  .meta({ id: 'AuditVerification' });
