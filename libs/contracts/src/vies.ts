/**
 * VIES fault strings (the SOAP faultstring of the EU service, see the WSDL documentation and
 * https://ec.europa.eu/taxation_customs/vies/#/technical-information) plus the faults a client
 * reports for failures that never reached a VIES answer. The vocabulary of an external contract, shared by
 * vat-service's client (which reads them and adds the client-side ones) and the development simulator
 * (which sends the first group); it lives here so that production code never imports the simulator.
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

/**
 * The EU checkVatService WSDL as the Commission publishes it: vat-service's client is built from it (pointed
 * at VIES_URL with setEndpoint) and the development simulator serves it. Resolved relative to this file, so
 * it is found wherever the sources run (tsx, jest, the container image, which copies libs/).
 */
export const VIES_WSDL_PATH = `${__dirname}/../assets/checkVatService.wsdl`;
