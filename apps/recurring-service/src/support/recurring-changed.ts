import type { CompanyId } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';

/**
 * A user's change of a recurring invoice, announced in the transaction of the change (recurring-invoice.changed.v1,
 * for the audit log: the API field names given, never their values).
 */
export const recurringChanged = (
  companyId: CompanyId,
  recurringId: number,
  action: 'created' | 'updated' | 'paused' | 'resumed' | 'deleted',
  fields: string[],
) => eventMessage('recurring-invoice.changed.v1', companyId, { recurringId, action, fields });
