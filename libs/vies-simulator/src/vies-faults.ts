/**
 * VIES fault strings (the SOAP faultstring of the EU service, see the WSDL documentation and
 * https://ec.europa.eu/taxation_customs/vies/#/technical-information) plus the faults a client
 * reports for failures that never reached a VIES answer. Shared vocabulary of the simulator (which
 * sends the first group) and vat-service's client (which reads them and adds the client-side ones).
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

export type ViesFaultCode = (typeof VIES_FAULTS)[keyof typeof VIES_FAULTS];
