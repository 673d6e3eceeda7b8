import type { Envelope } from '@inv/bus';
import type { AuditDeps } from '../usecases/audit-deps';
import { recordAuditEvent } from '../usecases/record-audit-event';

/** Every audited event (domain/audit-events.ts) becomes one entry of the company's audit log. */
export const onAuditedEvent = (deps: AuditDeps, msg: Envelope<Record<string, unknown>>) => recordAuditEvent(deps, msg);
