import { VIES_FAULTS } from '@inv/contracts';

/** Which VIES faults (VIES_FAULTS in libs/contracts, shared with the simulator) say something about the VAT ID, and which do not. */
const TRANSIENT = new Set<string>([
  VIES_FAULTS.SERVICE_UNAVAILABLE,
  VIES_FAULTS.MS_UNAVAILABLE,
  VIES_FAULTS.TIMEOUT,
  VIES_FAULTS.GLOBAL_MAX_CONCURRENT_REQ,
  VIES_FAULTS.GLOBAL_MAX_CONCURRENT_REQ_TIME,
  VIES_FAULTS.MS_MAX_CONCURRENT_REQ,
  VIES_FAULTS.MS_MAX_CONCURRENT_REQ_TIME,
  VIES_FAULTS.SERVER_BUSY,
  VIES_FAULTS.CLIENT_TIMEOUT,
  VIES_FAULTS.NETWORK_ERROR,
  VIES_FAULTS.BAD_RESPONSE,
]);

/** A transient fault says nothing about the VAT ID: the same question may succeed later. */
export function isTransientViesFault(fault: string): boolean {
  return TRANSIENT.has(fault);
}

/** INVALID_INPUT is VIES telling us the number itself is malformed: the only fault that means "invalid". */
export function faultMeansInvalidVatId(fault: string): boolean {
  return fault === VIES_FAULTS.INVALID_INPUT;
}
