import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import type { SupplierInput } from '@inv/contracts';
import { invalidData, type FieldError } from '@inv/service-kit';

/** The IBANs of a register entry in electronic form, each checked (country, length, check digits), without repeats. */
export function checkedIbans(input: SupplierInput): string[] {
  const errors: FieldError[] = [];
  const out: string[] = [];
  input.ibans.forEach((raw, i) => {
    const iban = electronicFormatIBAN(raw) ?? '';
    if (!isValidIBAN(iban))
      errors.push({ path: `ibans.${i}`, message: `"${raw.slice(0, 42)}" is not a valid IBAN (country, length or check digits)` });
    else if (!out.includes(iban)) out.push(iban);
  });
  if (errors.length) throw invalidData(`invalid IBAN${errors.length > 1 ? 's' : ''}`, errors);
  return out;
}
