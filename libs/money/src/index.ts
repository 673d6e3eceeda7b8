export {
  Dec,
  type DecimalInput,
  toDecimal,
  roundAmount,
  formatAmount,
  formatDecimal,
  toStorageString,
  toJsonNumber,
  sumDecimals,
} from './decimal';
export {
  computeTotals,
  totalsToJson,
  type DiscountType,
  type LineDiscountInput,
  type TotalsLineInput,
  type TotalsInput,
  type LineTotals,
  type VatBreakdownEntry,
  type InvoiceTotals,
  type InvoiceTotalsJson,
} from './totals';
