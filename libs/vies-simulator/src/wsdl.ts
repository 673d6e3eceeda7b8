/** The Commission's WSDL lives with the VIES vocabulary in libs/contracts: vat-service's client reads it, the simulator serves it. */
export { VIES_WSDL_PATH } from '@inv/contracts';
