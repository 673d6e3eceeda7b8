import type { CompanyId, AuditLogQuery } from '@inv/contracts';
import type { AuditEntryDoc } from '../db/audit-log';
import type { AuditDeps } from '../support/audit-deps';

const present = (e: AuditEntryDoc) => ({
  seq: e.seq,
  at: e.at,
  action: e.action,
  resource_type: e.resourceType,
  resource_id: e.resourceId ?? null,
  fields: e.fields,
  actor: {
    key_id: e.actor?.keyId ?? null,
    key_name: e.actor?.keyName ?? null,
    member_id: e.actor?.memberId ?? null,
    role: e.actor?.role ?? null,
    request_id: e.actor?.requestId ?? null,
    client_ip: e.actor?.clientIp ?? null,
  },
  prev_hash: e.prevHash,
  hash: e.hash,
});

/** Newest first, filtered; `next_cursor` continues below the last entry of the page. */
export async function listAuditLog(deps: Pick<AuditDeps, 'audit'>, companyId: CompanyId, q: AuditLogQuery) {
  const found = await deps.audit.page(
    companyId,
    {
      resourceType: q.resource_type,
      resourceId: q.resource_id,
      actor: q.actor,
      action: q.action,
      from: q.from && new Date(q.from).toISOString(),
      to: q.to && new Date(q.to).toISOString(),
      beforeSeq: q.cursor ? Number(q.cursor) : undefined,
    },
    q.limit + 1,
  );
  const page = found.slice(0, q.limit);
  return { entries: page.map(present), next_cursor: found.length > q.limit ? String(page[page.length - 1]!.seq) : null };
}
