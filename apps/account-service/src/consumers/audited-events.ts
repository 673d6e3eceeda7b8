import type { Envelope } from '@inv/bus';

/** Every audited event (domain/audit-events.ts) becomes one entry of the company's audit log (usecases/record-audit-event.ts). */
export const onAuditedEvent = (record: (msg: Envelope<Record<string, unknown>>) => Promise<void>, msg: Envelope<Record<string, unknown>>) =>
  record(msg);
