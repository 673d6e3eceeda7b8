import { LRUCache } from 'lru-cache';
import { Types } from 'mongoose';
import type { Envelope } from '@inv/bus';
import { entryHash, GENESIS_HASH, type AuditActor } from '../domain/audit';
import { AUDITED } from '../domain/audit-events';
import type { AuditDeps } from './audit-deps';

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
    const keyName = await keyNameOf(deps, msg.companyId, a.keyId);
    if (keyName !== undefined) actor.keyName = keyName;
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

// A key's name never changes (keys are created and revoked, not renamed), so once read it is kept: most audited
// events carry a key, and reading it for each was one of the six MongoDB round trips per entry.
const keyNames = new LRUCache<string, string>({ max: 10_000 });

async function keyNameOf(deps: AuditDeps, companyId: string, keyId: string): Promise<string | undefined> {
  const cacheKey = `${companyId}:${keyId}`;
  const known = keyNames.get(cacheKey);
  if (known !== undefined) return known;
  const key = await deps.apiKeys.byId(companyId, new Types.ObjectId(keyId));
  if (key) keyNames.set(cacheKey, key.name);
  return key?.name;
}
