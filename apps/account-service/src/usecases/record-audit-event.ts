import { setTimeout as sleep } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import { Types, type ClientSession } from 'mongoose';
import type { Envelope } from '@inv/bus';
import { entryHash, GENESIS_HASH, type AuditActor, type AuditRecord } from '../domain/audit';
import { AUDITED } from '../domain/audit-events';
import type { AuditEntryDoc } from '../db/audit-log';
import type { AuditDeps } from './audit-deps';

type Msg = Envelope<Record<string, unknown>>;
interface Waiting {
  msg: Msg;
  done: (err?: unknown) => void;
}
interface Chain {
  waiting: Waiting[];
  appending: boolean;
}

/** At most this many events become entries in one transaction (the consumer's prefetch bounds it anyway). */
const MAX_BATCH = 50;
/**
 * While events keep coming (an append ended less than BUSY_MS ago), an append first waits LINGER_MS for more
 * to join it: the consumer's prefetch lets up to 10 wait, and an audit entry is not on any request's path, so
 * 50 ms more for it buys far fewer transactions under load. An event after a quiet spell is appended at once.
 */
const LINGER_MS = 50;
const BUSY_MS = 200;
let lastAppendEnded = 0;
const chains = new Map<string, Chain>();

/**
 * Appends the entry an audited event stands for to the company's hash chain: once per event (the envelope id
 * is recorded with the entry), each entry carrying the previous entry's hash. Resolves when the entry is
 * committed, so the bus acknowledges the event only then.
 *
 * Group commit: one append per company runs at a time in this process (concurrent appends to one chain would
 * only conflict on its head and retry each other; another replica's append still conflicts safely and is
 * retried). The events that arrive while one runs (or lingers, see LINGER_MS) are appended together by the
 * next, in one transaction: 5 MongoDB round trips for the batch instead of 5 per event, which under load was the largest part of
 * account-service's work per invoice (issue 16).
 */
export function recordAuditEvent(deps: AuditDeps, msg: Msg): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let chain = chains.get(msg.companyId);
    if (!chain) chains.set(msg.companyId, (chain = { waiting: [], appending: false }));
    chain.waiting.push({ msg, done: (err) => (err === undefined ? resolve() : reject(err)) });
    if (!chain.appending) void appendWaiting(deps, msg.companyId, chain);
  });
}

async function appendWaiting(deps: AuditDeps, companyId: string, chain: Chain): Promise<void> {
  chain.appending = true;
  try {
    while (chain.waiting.length) {
      if (Date.now() - lastAppendEnded < BUSY_MS) await sleep(LINGER_MS);
      const batch = chain.waiting.splice(0, MAX_BATCH);
      try {
        await appendBatch(deps, companyId, batch);
      } catch (err) {
        for (const w of batch) w.done(err); // each event is retried by the bus on its own
      }
      lastAppendEnded = Date.now();
    }
  } finally {
    chain.appending = false;
    if (chains.get(companyId) === chain && chain.waiting.length === 0) chains.delete(companyId);
  }
}

async function appendBatch(deps: AuditDeps, companyId: string, batch: Waiting[]): Promise<void> {
  const described: Array<{ w: Waiting; record: AuditRecord }> = [];
  for (const w of batch) {
    const record = await recordOf(deps, w.msg);
    if (record) described.push({ w, record });
    else w.done(); // not an audited type: nothing to record
  }
  if (described.length === 0) return;
  // the inbox is keyed by message id per service: the audit log records its own id, so it never takes the
  // place of another consumer of the same event here (company.plan-changed.v1 is applied by apply-plan-change too)
  const inboxIds = (d: typeof described) => d.map(({ w }) => ({ ...w.msg, id: `audit:${w.msg.id}` }));
  const append = (d: typeof described) => async (session: ClientSession) => {
    let head = (await deps.audit.head(companyId, session)) ?? { seq: 0, hash: GENESIS_HASH };
    const entries: AuditEntryDoc[] = [];
    for (const { w, record } of d) {
      const seq = head.seq + 1;
      const hash = entryHash(seq, head.hash, record);
      entries.push({ _id: `${companyId}:${seq}`, ...record, seq, prevHash: head.hash, hash, eventId: w.msg.id });
      head = { seq, hash };
    }
    await deps.audit.append(entries, session);
  };
  if (described.length === 1 || !(await deps.commitAllOnce(inboxIds(described), append(described)))) {
    // one event, or a batch holding a redelivered one (nothing of it was written): one at a time, so the
    // redelivery is skipped and the others are appended
    for (const one of described) {
      try {
        await deps.commitOnce(inboxIds([one])[0]!, append([one]));
        one.w.done();
      } catch (err) {
        one.w.done(err);
      }
    }
    return;
  }
  for (const { w } of described) w.done();
}

/** The entry an event stands for, before it takes its place in the chain (undefined: not an audited type). */
async function recordOf(deps: AuditDeps, msg: Msg): Promise<AuditRecord | undefined> {
  const describe = AUDITED[msg.type];
  if (!describe) return undefined;
  const a = msg.actor ?? {};
  const actor: AuditActor = { ...a };
  if (a.keyId && Types.ObjectId.isValid(a.keyId)) {
    const keyName = await keyNameOf(deps, msg.companyId, a.keyId);
    if (keyName !== undefined) actor.keyName = keyName;
  }
  return { companyId: msg.companyId, at: msg.occurredAt, ...describe(msg.data, msg.companyId), actor };
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
