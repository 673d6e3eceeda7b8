import type { Changes } from '@inv/outbox';
import type { ApiKeysRepo } from '../db/api-keys';
import type { AuditLogRepo } from '../db/audit-log';

export interface AuditDeps {
  commitOnce: Changes['commitOnce'];
  commitAllOnce: Changes['commitAllOnce'];
  audit: AuditLogRepo;
  apiKeys: ApiKeysRepo;
}
