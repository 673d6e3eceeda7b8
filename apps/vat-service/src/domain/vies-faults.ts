/**
 * VIES fault strings (the SOAP faultstring of the EU service, see the WSDL documentation and
 * https://ec.europa.eu/taxation_customs/vies/#/technical-information) plus the faults our client
 * reports for failures that never reached a VIES answer.
 */
export const VIES_FAULTS = {
  INVALID_INPUT: 'INVALID_INPUT',
  INVALID_REQUESTER_INFO: 'INVALID_REQUESTER_INFO',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  MS_UNAVAILABLE: 'MS_UNAVAILABLE',
  TIMEOUT: 'TIMEOUT',
  VAT_BLOCKED: 'VAT_BLOCKED',
  IP_BLOCKED: 'IP_BLOCKED',
  GLOBAL_MAX_CONCURRENT_REQ: 'GLOBAL_MAX_CONCURRENT_REQ',
  GLOBAL_MAX_CONCURRENT_REQ_TIME: 'GLOBAL_MAX_CONCURRENT_REQ_TIME',
  MS_MAX_CONCURRENT_REQ: 'MS_MAX_CONCURRENT_REQ',
  MS_MAX_CONCURRENT_REQ_TIME: 'MS_MAX_CONCURRENT_REQ_TIME',
  /** Older VIES versions answered this instead of the *_MAX_CONCURRENT_REQ faults. */
  SERVER_BUSY: 'SERVER_BUSY',
  /** Client side: no answer within the client's timeout. */
  CLIENT_TIMEOUT: 'CLIENT_TIMEOUT',
  /** Client side: connection refused/reset, DNS failure, ... */
  NETWORK_ERROR: 'NETWORK_ERROR',
  /** Client side: an HTTP answer that is neither a checkVat response nor a SOAP fault (e.g. a proxy's 502 page). */
  BAD_RESPONSE: 'BAD_RESPONSE',
} as const;

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
