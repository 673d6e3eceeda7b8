import type { AuditedEvent } from '../domain/audit-events';

/** Every audited event (domain/audit-events.ts) becomes one entry of the company's audit log (usecases/record-audit-event.ts). */
export const onAuditedEvent = (record: (msg: AuditedEvent) => Promise<void>, msg: AuditedEvent) => record(msg);
