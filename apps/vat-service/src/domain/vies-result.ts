/** What one VIES call answered (or how it failed), independent of SOAP. */
export type ViesAnswer = {
  kind: 'valid' | 'invalid';
  countryCode: string;
  vatNumber: string;
  /** The request date VIES stated, YYYY-MM-DD. */
  requestDate: string;
  name?: string;
  address?: string;
  /** VIES requestIdentifier; only given by checkVatApprox called with the requester's VAT ID. */
  consultationNumber?: string;
};

export type ViesFault = {
  kind: 'fault';
  /** VIES faultstring (SERVICE_UNAVAILABLE, MS_UNAVAILABLE, INVALID_INPUT, ...) or a client-side fault, see VIES_FAULTS. */
  fault: string;
  transient: boolean;
};

export type ViesResult = ViesAnswer | ViesFault;

/** The requester's own VAT ID, sent so that VIES issues a consultation number. */
export type ViesRequester = { countryCode: string; vatNumber: string };
