import { createClientAsync, type Client } from 'soap';
import { VIES_FAULTS, VIES_WSDL_PATH } from '@inv/contracts';
import { isTransientViesFault } from '../domain/vies-faults';
import type { ViesRequester, ViesResult } from '../domain/vies-result';

export type { ViesAnswer, ViesFault, ViesRequester, ViesResult } from '../domain/vies-result';

export type ViesClientOptions = {
  /** checkVatService endpoint, e.g. https://ec.europa.eu/taxation_customs/vies/services/checkVatService */
  url: string;
  /** Per call; an answer later than this is a transient CLIENT_TIMEOUT fault. */
  timeoutMs: number;
  wsdlPath?: string;
};

export type ViesClient = {
  /**
   * Asks VIES about one VAT number (`vatNumber` without the country prefix). With `requester`
   * it calls checkVatApprox, the only operation that returns a consultation number. Never throws
   * for VIES or network trouble: those come back as `{ kind: 'fault' }`.
   */
  checkVat(countryCode: string, vatNumber: string, requester?: ViesRequester): Promise<ViesResult>;
};

/** checkVat / checkVatApprox response fields as node-soap parses them (xsd:date kept as text). */
type CheckVatResponse = {
  countryCode?: string;
  vatNumber?: string;
  requestDate?: string;
  valid?: boolean;
  name?: string | null;
  address?: string | null;
  traderName?: string | null;
  traderAddress?: string | null;
  requestIdentifier?: string;
};

type SoapOperation = (args: object, options: object) => Promise<[CheckVatResponse, ...unknown[]]>;

export function createViesClient(options: ViesClientOptions): ViesClient {
  let soapClient: Promise<Client> | undefined;
  const getSoapClient = (): Promise<Client> => {
    soapClient ??= createClientAsync(options.wsdlPath ?? VIES_WSDL_PATH, {
      // Keep xsd:date as VIES wrote it ("2026-01-02+01:00"); node-soap's Date() would shift or reject it.
      customDeserializer: { date: (text: string) => text },
    }).then((client) => {
      client.setEndpoint(options.url);
      return client;
    });
    // A WSDL that cannot be read is a deployment error: let it throw, and try again next call.
    soapClient.catch(() => (soapClient = undefined));
    return soapClient;
  };

  return {
    async checkVat(countryCode, vatNumber, requester) {
      const client = await getSoapClient();
      const callOptions = { timeout: options.timeoutMs };
      try {
        const [response] = requester
          ? await operation(client, 'checkVatApproxAsync')(
              { countryCode, vatNumber, requesterCountryCode: requester.countryCode, requesterVatNumber: requester.vatNumber },
              callOptions,
            )
          : await operation(client, 'checkVatAsync')({ countryCode, vatNumber }, callOptions);
        return toResult(response, countryCode, vatNumber);
      } catch (error) {
        return toFault(error);
      }
    },
  };
}

function operation(client: Client, name: 'checkVatAsync' | 'checkVatApproxAsync'): SoapOperation {
  // node-soap adds one method per WSDL operation at runtime; they are not in its types.
  return (client as unknown as Record<typeof name, SoapOperation>)[name].bind(client);
}

function toResult(response: CheckVatResponse | null | undefined, countryCode: string, vatNumber: string): ViesResult {
  if (!response || typeof response.valid !== 'boolean') {
    return fault(VIES_FAULTS.BAD_RESPONSE);
  }
  return {
    kind: response.valid ? 'valid' : 'invalid',
    countryCode: response.countryCode ?? countryCode,
    vatNumber: response.vatNumber ?? vatNumber,
    requestDate: (response.requestDate ?? '').slice(0, 10),
    name: meaningful(response.name ?? response.traderName),
    address: meaningful(response.address ?? response.traderAddress),
    consultationNumber: meaningful(response.requestIdentifier),
  };
}

/** VIES answers "---" (or nothing) where a member state does not disclose name or address. */
function meaningful(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed && trimmed !== '---' ? trimmed : undefined;
}

type SoapError = Error & {
  code?: string;
  root?: { Envelope?: { Body?: { Fault?: { faultstring?: unknown } } } };
  response?: unknown;
};

function toFault(error: unknown): ViesResult {
  const err = error as SoapError;
  const faultString = err?.root?.Envelope?.Body?.Fault?.faultstring;
  if (typeof faultString === 'string' && faultString.trim() !== '') {
    return fault(faultString.trim());
  }
  // axios reports its own timeout as ECONNABORTED (or ETIMEDOUT with transitional options).
  if (err?.code === 'ECONNABORTED' || err?.code === 'ETIMEDOUT') return fault(VIES_FAULTS.CLIENT_TIMEOUT);
  if (err?.code && !err.response) return fault(VIES_FAULTS.NETWORK_ERROR);
  return fault(VIES_FAULTS.BAD_RESPONSE);
}

function fault(code: string): ViesResult {
  return { kind: 'fault', fault: code, transient: isTransientViesFault(code) };
}
