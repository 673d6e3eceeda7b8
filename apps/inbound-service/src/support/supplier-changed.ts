import type { CompanyId } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';

/**
 * A change of the supplier register, announced in the transaction of the change (supplier.changed.v1, for the audit
 * log: the API field names given, never their values).
 */
export const supplierChanged = (companyId: CompanyId, supplierId: number, action: 'created' | 'updated' | 'deleted', fields: string[]) =>
  eventMessage('supplier.changed.v1', companyId, { supplierId, action, fields });
