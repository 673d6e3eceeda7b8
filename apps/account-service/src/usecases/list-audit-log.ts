import type { CompanyId, AuditLogQuery } from '@inv/contracts';
import { presentAuditEntry } from '../http/presenters';
import type { AuditDeps } from '../support/audit-deps';

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
  return { entries: page.map(presentAuditEntry), next_cursor: found.length > q.limit ? String(page[page.length - 1]!.seq) : null };
}
