import { VIES_FAULTS } from './vies';

/**
 * The EU VIES test service's documented numbers (https://ec.europa.eu/taxation_customs/vies/#/technical-information):
 * the same answer for every member state. The development simulator (libs/vies-simulator) answers them, and
 * vat-service answers a test twin's checks from them without asking VIES (docs/test-mode.md). Numbers of the form
 * `99999<test number><digit>` (German VAT IDs with valid check digits, so they pass the syntax check through the
 * API, e.g. DE999991005) answer like the test number.
 */
export type ViesTestAnswer = { kind: 'valid'; name: string; address: string } | { kind: 'invalid' } | { kind: 'fault'; fault: string };

export const VIES_TEST_NUMBERS: Readonly<Record<string, ViesTestAnswer>> = {
  '100': { kind: 'valid', name: 'VIES TEST TRADER', address: 'TEST STREET 1, 1000 TEST CITY' },
  '200': { kind: 'invalid' },
  '201': { kind: 'fault', fault: VIES_FAULTS.INVALID_INPUT },
  '202': { kind: 'fault', fault: VIES_FAULTS.INVALID_REQUESTER_INFO },
  '300': { kind: 'fault', fault: VIES_FAULTS.SERVICE_UNAVAILABLE },
  '301': { kind: 'fault', fault: VIES_FAULTS.MS_UNAVAILABLE },
  '302': { kind: 'fault', fault: VIES_FAULTS.TIMEOUT },
  '400': { kind: 'fault', fault: VIES_FAULTS.VAT_BLOCKED },
  '401': { kind: 'fault', fault: VIES_FAULTS.IP_BLOCKED },
  '500': { kind: 'fault', fault: VIES_FAULTS.GLOBAL_MAX_CONCURRENT_REQ },
  '501': { kind: 'fault', fault: VIES_FAULTS.GLOBAL_MAX_CONCURRENT_REQ_TIME },
  '600': { kind: 'fault', fault: VIES_FAULTS.MS_MAX_CONCURRENT_REQ },
  '601': { kind: 'fault', fault: VIES_FAULTS.MS_MAX_CONCURRENT_REQ_TIME },
};

/** The test answer for a VAT number (without country prefix): its test number's, a scenario number's, or none. */
export function viesTestAnswerOf(vatNumber: string): ViesTestAnswer | undefined {
  const scenario = /^99999(\d{3})\d$/.exec(vatNumber);
  return VIES_TEST_NUMBERS[vatNumber] ?? (scenario ? VIES_TEST_NUMBERS[scenario[1]!] : undefined);
}
