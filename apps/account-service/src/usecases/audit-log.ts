import { Types } from 'mongoose';
import type { Envelope } from '@inv/bus';
import type { AuditLogQuery } from '@inv/contracts';
import type { Changes } from '@inv/outbox';
import type { ApiKeysRepo } from '../db/api-keys';
import type { AuditEntryDoc, AuditLogRepo } from '../db/audit-log';
import { entryHash, GENESIS_HASH, verifyChain, type AuditActor } from '../domain/audit';
import { AUDITED } from '../domain/audit-events';

export interface AuditDeps {
  commitOnce: Changes['commitOnce'];
  audit: AuditLogRepo;
  apiKeys: ApiKeysRepo;
}

/**
 * Appends the entry an audited event stands for to the company's hash chain: once per event (commitOnce
 * records the envelope id with the entry), each entry carrying the previous entry's hash.
 */
export function recordAuditEvent(deps: AuditDeps, msg: Envelope<Record<string, unknown>>): Promise<void> {
  // One append per company at a time in this process: concurrent appends to one chain would only conflict
  // on its head and retry each other (another replica's append still conflicts safely and is retried).
  const before = appending.get(msg.companyId) ?? Promise.resolve();
  const mine = before.then(() => appendEntry(deps, msg));
  const settled = mine.catch(() => undefined);
  appending.set(msg.companyId, settled);
  void settled.then(() => {
    if (appending.get(msg.companyId) === settled) appending.delete(msg.companyId);
  });
  return mine;
}
const appending = new Map<string, Promise<unknown>>();

async function appendEntry(deps: AuditDeps, msg: Envelope<Record<string, unknown>>) {
  const describe = AUDITED[msg.type];
  if (!describe) return;
  const described = describe(msg.data, msg.companyId);
  const a = msg.actor ?? {};
  const actor: AuditActor = { ...a };
  if (a.keyId && Types.ObjectId.isValid(a.keyId)) {
    const key = await deps.apiKeys.byId(msg.companyId, new Types.ObjectId(a.keyId));
    if (key) actor.keyName = key.name;
  }
  // the inbox is keyed by message id per service: the audit log records its own id, so it never takes the
  // place of another consumer of the same event here (company.plan-changed.v1 is applied by apply-plan-change too)
  await deps.commitOnce({ ...msg, id: `audit:${msg.id}` }, async (session) => {
    const head = (await deps.audit.head(msg.companyId, session)) ?? { seq: 0, hash: GENESIS_HASH };
    const record = { companyId: msg.companyId, at: msg.occurredAt, ...described, actor };
    const seq = head.seq + 1;
    await deps.audit.append(
      { _id: `${msg.companyId}:${seq}`, ...record, seq, prevHash: head.hash, hash: entryHash(seq, head.hash, record), eventId: msg.id },
      session,
    );
  });
}

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
export async function listAuditLog(deps: Pick<AuditDeps, 'audit'>, companyId: string, q: AuditLogQuery) {
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

/** Recomputes the company's chain from the first entry and checks it ends at the recorded head. */
export async function verifyAuditLog(deps: Pick<AuditDeps, 'audit'>, companyId: string) {
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
