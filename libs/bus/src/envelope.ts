import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { MessageValidationError, type ValidationIssue } from './errors';
import type { Actor, Envelope } from './types';

const envelopeShape = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  occurredAt: z.string().min(1),
  companyId: z.string().min(1),
  data: z.unknown(),
  actor: z
    .object({
      keyId: z.string().max(200),
      memberId: z.string().max(200),
      role: z.string().max(50),
      requestId: z.string().max(200),
      clientIp: z.string().max(100),
    })
    .partial()
    .optional()
    .catch(undefined),
});

export function makeEnvelope<T>(type: string, companyId: string, data: T, id?: string, occurredAt?: string, actor?: Actor): Envelope<T> {
  if (!companyId) throw new MessageValidationError(type, [{ path: 'companyId', message: 'companyId is required' }]);
  if (occurredAt !== undefined && Number.isNaN(Date.parse(occurredAt))) {
    throw new MessageValidationError(type, [{ path: 'occurredAt', message: 'occurredAt must be an ISO date-time' }]);
  }
  return { id: id ?? randomUUID(), type, occurredAt: occurredAt ?? new Date().toISOString(), companyId, data, ...(actor ? { actor } : {}) };
}

export function encodeEnvelope(envelope: Envelope): Buffer {
  return Buffer.from(JSON.stringify(envelope), 'utf8');
}

export type Decoded = { ok: true; envelope: Envelope } | { ok: false; error: string };

/** Body -> envelope, without looking at `data` (that is the contract's job). */
export function decodeEnvelope(content: Buffer): Decoded {
  let json: unknown;
  try {
    json = JSON.parse(content.toString('utf8'));
  } catch (err) {
    return { ok: false, error: `body is not JSON: ${(err as Error).message}` };
  }
  const parsed = envelopeShape.safeParse(json);
  if (!parsed.success) return { ok: false, error: `not an envelope: ${formatIssues(toIssues(parsed.error))}` };
  return { ok: true, envelope: parsed.data as Envelope };
}

export function toIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

export function formatIssues(issues: ValidationIssue[]): string {
  return issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ');
}

/** Parse `data` with its contract or throw MessageValidationError. */
export function parseData(schema: z.ZodType, type: string, data: unknown): unknown {
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new MessageValidationError(type, toIssues(parsed.error));
  return parsed.data;
}
