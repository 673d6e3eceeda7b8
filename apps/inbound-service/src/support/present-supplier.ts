import type { Supplier } from '@inv/contracts';
import type { SupplierDoc } from '../db/suppliers';

export const toSupplier = (s: SupplierDoc): Supplier => ({
  id: s.id,
  name: s.name,
  ...(s.vatId ? { vat_id: s.vatId } : {}),
  ...(s.peppolId ? { peppol_id: s.peppolId } : {}),
  ibans: s.ibans,
  created_at: s.createdAt.toISOString(),
  updated_at: s.updatedAt.toISOString(),
});
