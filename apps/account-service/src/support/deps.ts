import type { CompanyId } from '@inv/contracts';
import type { Changes } from '@inv/outbox';
import type { CompaniesRepo } from '../db/companies';

export interface CompanyDeps {
  companies: CompaniesRepo;
  /** Checks default_template_id with document-service; absent in tests that do not need it. */
  templateExists?: (companyId: CompanyId, templateId: number) => Promise<boolean>;
  /** Writes a change and its announcements (audit log, services keeping copies) together through the outbox. */
  commit: Changes['commit'];
  now: () => Date;
}
