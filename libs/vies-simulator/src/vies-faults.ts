/** The VIES vocabulary is an external contract (libs/contracts): vat-service reads it without importing this dev tool. */
export { VIES_FAULTS, type ViesFaultCode } from '@inv/contracts';
