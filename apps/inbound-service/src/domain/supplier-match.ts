import type { InboundContent } from '@inv/contracts';

export interface SupplierIds {
  id: number;
  vatId?: string;
  peppolId?: string;
  ibans: string[];
}

/** IBANs compared in electronic form: no blanks, upper case. */
export const normalIban = (iban: string) => iban.replace(/\s+/g, '').toUpperCase();
export const normalVatId = (vatId: string) => vatId.replace(/\s+/g, '').toUpperCase();

/** The sender's identifiers as the register stores them. */
export function senderIds(c: InboundContent): { vatId?: string; peppolId?: string; ibans: string[] } {
  const address = c.seller.electronic_address;
  return {
    vatId: c.seller.vat_id ? normalVatId(c.seller.vat_id) : undefined,
    peppolId: address?.scheme ? `${address.scheme}:${address.value}` : undefined,
    ibans: c.payment_means.flatMap((p) => (p.iban ? [normalIban(p.iban)] : [])),
  };
}

/**
 * The register entry the sender is: by VAT ID first (the legal identity), then the Peppol id (the address the
 * document came from), then an IBAN (weakest: accounts can be shared or taken over). The lowest id wins a tie.
 */
export function matchSupplier<S extends SupplierIds>(candidates: S[], c: InboundContent): S | undefined {
  const ids = senderIds(c);
  const byId = [...candidates].sort((a, b) => a.id - b.id);
  return (
    (ids.vatId && byId.find((s) => s.vatId === ids.vatId)) ||
    (ids.peppolId && byId.find((s) => s.peppolId === ids.peppolId)) ||
    byId.find((s) => s.ibans.some((i) => ids.ibans.includes(i))) ||
    undefined
  );
}

/** A payment to an account the supplier's entry does not list: the classic invoice-redirection fraud. */
export function ibanDiffers(supplier: SupplierIds | undefined, c: InboundContent): boolean {
  if (!supplier || supplier.ibans.length === 0) return false;
  return senderIds(c).ibans.some((i) => !supplier.ibans.includes(i));
}
