import type { CompanyId } from '@inv/contracts';
import type { AuditEntryDoc } from '../db/audit-log';
import { GENESIS_HASH, verifyChain } from '../domain/audit';
import type { AuditDeps } from '../support/audit-deps';

/** Recomputes the company's chain from the first entry and checks it ends at the recorded head. */
export async function verifyAuditLog(deps: Pick<AuditDeps, 'audit'>, companyId: CompanyId) {
  const entries: AuditEntryDoc[] = [];
  let checked = 0;
  let start = { seq: 0, hash: GENESIS_HASH };
  const flush = () => {
    const result = verifyChain(entries, start);
    entries.length = 0;
    return result;
  };
  for await (const e of deps.audit.chain(companyId)) {
    entries.push(e);
    checked++;
    if (entries.length === 500) {
      const r = flush();
      if (!r.ok) return { valid: false, entries: checked, first_invalid_seq: r.seq, reason: r.reason };
      start = r.last;
    }
  }
  const r = flush();
  if (!r.ok) return { valid: false, entries: checked, first_invalid_seq: r.seq, reason: r.reason };
  const head = await deps.audit.lastHead(companyId);
  if (head && (head.seq !== r.last.seq || head.hash !== r.last.hash)) {
    return {
      valid: false,
      entries: checked,
      first_invalid_seq: r.last.seq + 1,
      reason: `entries after ${r.last.seq} are missing (the chain was cut)`,
    };
  }
  return { valid: true, entries: checked, first_invalid_seq: null, reason: null };
}
