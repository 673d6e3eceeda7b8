import { createHash } from 'node:crypto';

/** prev_hash of a company's first entry. */
export const GENESIS_HASH = '0'.repeat(64);

export interface AuditActor {
  keyId?: string;
  keyName?: string;
  memberId?: string;
  role?: string;
  requestId?: string;
  clientIp?: string;
}

/** What an entry says; the chain fields (seq, prevHash, hash) are added when it is appended. */
export interface AuditRecord {
  companyId: string;
  at: string;
  action: string;
  resourceType: string;
  resourceId?: string;
  fields: string[];
  actor: AuditActor;
}

/**
 * The hash of an entry: SHA-256 over the previous entry's hash and a canonical encoding of everything the
 * entry says (fixed key order), so changing any of it, or removing or reordering entries, breaks the chain.
 */
export function entryHash(seq: number, prevHash: string, r: AuditRecord): string {
  const a = r.actor ?? {}; // stored without an actor when nobody caused it (an operator command, a job)
  const canonical = JSON.stringify([
    seq,
    r.companyId,
    r.at,
    r.action,
    r.resourceType,
    r.resourceId ?? null,
    r.fields ?? [],
    [a.keyId ?? null, a.keyName ?? null, a.memberId ?? null, a.role ?? null, a.requestId ?? null, a.clientIp ?? null],
  ]);
  return createHash('sha256').update(prevHash).update('\n').update(canonical).digest('hex');
}

export interface ChainEntry extends AuditRecord {
  seq: number;
  prevHash: string;
  hash: string;
}

/** Checks entries in seq order (continuing from `expectedPrev`); answers the first entry that does not match. */
export function verifyChain(
  entries: Iterable<ChainEntry>,
  start: { seq: number; hash: string } = { seq: 0, hash: GENESIS_HASH },
): { ok: true; last: { seq: number; hash: string } } | { ok: false; seq: number; reason: string } {
  let prev = start;
  for (const e of entries) {
    if (e.seq !== prev.seq + 1) return { ok: false, seq: prev.seq + 1, reason: `entry ${prev.seq + 1} is missing` };
    if (e.prevHash !== prev.hash) return { ok: false, seq: e.seq, reason: 'prev_hash does not match the hash of the entry before' };
    if (entryHash(e.seq, e.prevHash, e) !== e.hash)
      return { ok: false, seq: e.seq, reason: 'the entry was changed after it was written (hash mismatch)' };
    prev = { seq: e.seq, hash: e.hash };
  }
  return { ok: true, last: prev };
}
