import { isTestCompany, liveCompanyOf } from '@inv/contracts/tables';

/**
 * Whether the company may render with the logo stored under `key`: its own, or for a test twin the live company's
 * (docs/test-mode.md: the twin's documents carry the live letterhead; the logo is read, never written).
 */
export const mayUseLogo = (companyId: string, key: string): boolean =>
  key.startsWith(`${companyId}/`) || (isTestCompany(companyId) && key.startsWith(`${liveCompanyOf(companyId as never)}/company/`));

/** Whether documents of the company are rendered in test mode (a test twin's). */
export const rendersInTestMode = (companyId: string): boolean => isTestCompany(companyId);
