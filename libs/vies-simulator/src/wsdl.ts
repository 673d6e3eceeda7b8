import path from 'node:path';

/**
 * The EU checkVatService WSDL as the Commission publishes it: the simulator serves it and vat-service's
 * client is built from it (the client points it at VIES_URL with setEndpoint). Resolved relative to
 * this file, so it is found wherever the sources run (tsx, jest, the container image, which copies libs/).
 */
export const VIES_WSDL_PATH = path.resolve(__dirname, '../assets/checkVatService.wsdl');
