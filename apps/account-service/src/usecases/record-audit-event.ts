import type { CompanyId } from '@inv/contracts';
import { LRUCache } from 'lru-cache';
import { Types } from 'mongoose';
import { groupCommit } from '@inv/outbox';
import { entryHash, GENESIS_HASH, type AuditActor, type AuditRecord } from '../domain/audit';
import { describeAudited, type AuditedEvent } from '../domain/audit-events';
import type { AuditEntryDoc } from '../db/audit-log';
import type { AuditDeps } from '../support/audit-deps';

type Msg = AuditedEvent;

/**
 * Records audited events: each becomes the entry it stands for, appended to the company's hash chain once per
 * event (the envelope id is recorded with the entry), each entry carrying the previous entry's hash. The returned
 * function resolves when the entry is committed, so the bus acknowledges the event only then.
 *
 * Group commit (libs/outbox groupCommit): one append per company runs at a time in this process (concurrent
 * appends to one chain would only conflict on its head and retry each other; another replica's append still
 * conflicts safely and is retried); the events that arrive meanwhile are appended together by the next, in one
 * transaction: 5 MongoDB round trips for the batch instead of 5 per event, which under load was the largest part
 * of account-service's work per invoice.
 */
export function auditRecorder(deps: AuditDeps): (msg: Msg) => Promise<void> {
  const append = groupCommit<{ msg: Msg; record: AuditRecord }>(deps, {
    key: ({ msg }) => msg.companyId,
    // the inbox is keyed by message id per service: the audit log records its own id, so it never takes the
    // place of another consumer of the same event here (company.plan-changed.v1 is applied by apply-plan-change too)
    inbox: ({ msg }) => ({ id: `audit:${msg.id}`, companyId: msg.companyId, type: msg.type }),
    async apply(batch, session) {
      const companyId = batch[0]!.msg.companyId;
      let head = (await deps.audit.head(companyId, session)) ?? { seq: 0, hash: GENESIS_HASH };
      const entries: AuditEntryDoc[] = [];
      for (const { msg, record } of batch) {
        const seq = head.seq + 1;
        const hash = entryHash(seq, head.hash, record);
        entries.push({ _id: `${companyId}:${seq}`, ...record, seq, prevHash: head.hash, hash, eventId: msg.id });
        head = { seq, hash };
      }
      await deps.audit.append(entries, session);
    },
  });
  return async (msg) => {
    const record = await recordOf(deps, msg);
    if (record) await append({ msg, record });
  };
}

/** The entry an event stands for, before it takes its place in the chain (undefined: not an audited type). */
async function recordOf(deps: AuditDeps, msg: Msg): Promise<AuditRecord | undefined> {
  const described = describeAudited(msg);
  if (!described) return undefined;
  const a = msg.actor ?? {};
  const actor: AuditActor = { ...a };
  if (a.keyId && Types.ObjectId.isValid(a.keyId)) {
    const keyName = await keyNameOf(deps, msg.companyId, a.keyId);
    if (keyName !== undefined) actor.keyName = keyName;
  }
  return { companyId: msg.companyId, at: msg.occurredAt, ...described, actor };
}

// A key's name never changes (keys are created and revoked, not renamed), so once read it is kept: most audited
// events carry a key, and reading it for each was one of the six MongoDB round trips per entry.
const keyNames = new LRUCache<string, string>({ max: 10_000 });

async function keyNameOf(deps: AuditDeps, companyId: CompanyId, keyId: string): Promise<string | undefined> {
  const cacheKey = `${companyId}:${keyId}`;
  const known = keyNames.get(cacheKey);
  if (known !== undefined) return known;
  const key = await deps.apiKeys.byId(companyId, new Types.ObjectId(keyId));
  if (key) keyNames.set(cacheKey, key.name);
  return key?.name;
}
