import type { Envelope } from '@inv/bus';
import { recordAuditEvent, type AuditDeps } from '../usecases/audit-log';

/** Every audited event (domain/audit-events.ts) becomes one entry of the company's audit log. */
export const onAuditedEvent = (deps: AuditDeps, msg: Envelope<Record<string, unknown>>) => recordAuditEvent(deps, msg);
