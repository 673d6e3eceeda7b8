import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { listen } from 'soap';
import { checkVatIdSyntax, VIES_TEST_NUMBERS } from '@inv/contracts';
import { VIES_FAULTS } from './vies-faults';
import { VIES_WSDL_PATH } from './wsdl';

/**
 * A local stand-in for the EU VIES checkVatService: a real SOAP server (node-soap) built from the
 * same WSDL, answering like the EU test service (numbers 100, 200, 201, ... per
 * https://ec.europa.eu/taxation_customs/vies/#/technical-information). Unlike the EU test
 * service, any other number that passes the EU syntax check answers valid with a made-up trader,
 * other numbers answer invalid; 999 answers slowly. A local run using it never has a real answer.
 */

export type SimulatedAnswer =
  | { kind: 'valid'; name?: string; address?: string }
  | { kind: 'invalid' }
  | { kind: 'fault'; fault: string }
  | { kind: 'slow'; delayMs?: number; then?: Exclude<SimulatedAnswer, { kind: 'slow' }> };

/** vatNumber (without country prefix) -> answer, for every country. */
export type SimulatorTable = Readonly<Record<string, SimulatedAnswer>>;

export const VIES_SIMULATOR_PATH = '/taxation_customs/vies/services/checkVatService';
export const SLOW_VAT_NUMBER = '999';

/** The EU test service's table (https://ec.europa.eu/taxation_customs/vies/#/technical-information, VIES_TEST_NUMBERS), plus 999 = slow. */
export const EU_TEST_TABLE: SimulatorTable = {
  ...VIES_TEST_NUMBERS,
  [SLOW_VAT_NUMBER]: { kind: 'slow' },
};

/**
 * The EU test numbers (100, 200, 301, ...) fail our syntax check, so a check through the API never
 * reaches VIES with them. Numbers of the form 99999<test number><digit> answer like the test
 * number; these German VAT IDs have valid check digits, for end-to-end tests through the API.
 */
export const SIMULATOR_SCENARIO_VAT_IDS = {
  valid: 'DE999991005',
  invalid: 'DE999992008',
  INVALID_INPUT: 'DE999992016',
  INVALID_REQUESTER_INFO: 'DE999992024',
  SERVICE_UNAVAILABLE: 'DE999993003',
  MS_UNAVAILABLE: 'DE999993011',
  TIMEOUT: 'DE999993020',
  VAT_BLOCKED: 'DE999994006',
  IP_BLOCKED: 'DE999994014',
  GLOBAL_MAX_CONCURRENT_REQ: 'DE999995009',
  GLOBAL_MAX_CONCURRENT_REQ_TIME: 'DE999995017',
  MS_MAX_CONCURRENT_REQ: 'DE999996001',
  MS_MAX_CONCURRENT_REQ_TIME: 'DE999996010',
  slow: 'DE999999995',
} as const;

export type ViesSimulatorOptions = {
  /** 0 or absent: any free port. */
  port?: number;
  /** Merged over EU_TEST_TABLE. */
  table?: SimulatorTable;
  /** How long `slow` answers take unless the entry says otherwise (default 10 s). */
  slowMs?: number;
  /** Defaults to VIES_WSDL_PATH (libs/contracts/assets, the WSDL vat-service's client is built from). */
  wsdlPath?: string;
};

export type ViesSimulator = {
  /** The checkVatService endpoint to use as VIES_URL. */
  url: string;
  stop(): Promise<void>;
  /** While down, every question about that member state answers MS_UNAVAILABLE. */
  setMemberStateDown(countryCode: string, down: boolean): void;
  /** Number of checkVat/checkVatApprox requests received (for tests). */
  requestCount(): number;
};

type CheckVatArgs = {
  countryCode?: string;
  vatNumber?: string;
  requesterCountryCode?: string;
  requesterVatNumber?: string;
};

/** A SOAP 1.1 fault as VIES sends it: HTTP 500, faultcode soap:Server, faultstring = the code. */
class ViesSoapFault {
  readonly Fault: { faultcode: string; faultstring: string; statusCode: number };
  constructor(code: string) {
    this.Fault = { faultcode: 'soap:Server', faultstring: code, statusCode: 500 };
  }
}

export async function startViesSimulator(options: ViesSimulatorOptions = {}): Promise<ViesSimulator> {
  const table: SimulatorTable = { ...EU_TEST_TABLE, ...options.table };
  const slowMs = options.slowMs ?? 10_000;
  const downStates = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  let requests = 0;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const answer = async (args: CheckVatArgs, approx: boolean) => {
    requests += 1;
    const countryCode = (args.countryCode ?? '').trim().toUpperCase();
    const vatNumber = (args.vatNumber ?? '').trim();
    // Real VIES: INVALID_INPUT for a malformed country code or an empty/over-long number.
    if (!/^[A-Z]{2}$/.test(countryCode) || !/^[0-9A-Za-z+*.]{2,12}$/.test(vatNumber)) {
      throw new ViesSoapFault(VIES_FAULTS.INVALID_INPUT);
    }
    if (downStates.has(countryCode)) throw new ViesSoapFault(VIES_FAULTS.MS_UNAVAILABLE);

    let entry = table[vatNumber] ?? scenarioAlias(table, vatNumber) ?? syntaxAnswer(countryCode, vatNumber);
    if (entry.kind === 'slow') {
      await sleep(entry.delayMs ?? slowMs);
      entry = entry.then ?? { kind: 'valid' };
    }
    if (entry.kind === 'fault') throw new ViesSoapFault(entry.fault);

    const requester = approx ? checkRequester(args) : undefined;
    const valid = entry.kind === 'valid';
    const name = entry.kind === 'valid' ? (entry.name ?? madeUpName(countryCode, vatNumber)) : '---';
    const address = entry.kind === 'valid' ? (entry.address ?? madeUpAddress(vatNumber)) : '---';
    const requestDate = `${new Date().toISOString().slice(0, 10)}Z`;
    if (!approx) return { countryCode, vatNumber, requestDate, valid, name, address };
    return {
      countryCode,
      vatNumber,
      requestDate,
      valid,
      traderName: name,
      traderAddress: address,
      // VIES only issues a consultation number when the requester identified itself.
      requestIdentifier: requester ? `WAPIAAAA${randomBytes(6).toString('hex').toUpperCase()}` : '',
    };
  };

  const service = {
    checkVatService: {
      checkVatPort: {
        checkVat: (args: CheckVatArgs) => answer(args, false),
        checkVatApprox: (args: CheckVatArgs) => answer(args, true),
      },
    },
  };

  const server = http.createServer((_req, res) => {
    // node-soap handles its own path; everything else is not part of the simulator.
    res.statusCode = 404;
    res.end();
  });
  listen(server, VIES_SIMULATOR_PATH, service, readFileSync(options.wsdlPath ?? VIES_WSDL_PATH, 'utf8'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${VIES_SIMULATOR_PATH}`,
    setMemberStateDown(countryCode, down) {
      if (down) downStates.add(countryCode.toUpperCase());
      else downStates.delete(countryCode.toUpperCase());
    },
    requestCount: () => requests,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close((err) => (err ? reject(err) : resolve()));
        // Slow answers still hold their sockets open; close them so stop() does not wait for them.
        server.closeAllConnections();
      }),
  };
}

function scenarioAlias(table: SimulatorTable, vatNumber: string): SimulatedAnswer | undefined {
  const match = /^99999(\d{3})\d$/.exec(vatNumber);
  return match ? table[match[1]!] : undefined;
}

function syntaxAnswer(countryCode: string, vatNumber: string): SimulatedAnswer {
  return checkVatIdSyntax(`${countryCode}${vatNumber}`).ok ? { kind: 'valid' } : { kind: 'invalid' };
}

function checkRequester(args: CheckVatArgs): boolean {
  if (!args.requesterCountryCode && !args.requesterVatNumber) return false;
  const requesterId = `${args.requesterCountryCode ?? ''}${args.requesterVatNumber ?? ''}`;
  if (!checkVatIdSyntax(requesterId).ok) throw new ViesSoapFault(VIES_FAULTS.INVALID_REQUESTER_INFO);
  return true;
}

function madeUpName(countryCode: string, vatNumber: string): string {
  return `SIMULATED TRADER ${countryCode}${vatNumber} (NOT A REAL VIES ANSWER)`;
}

function madeUpAddress(vatNumber: string): string {
  return `SIMULATION STREET ${Number.parseInt(vatNumber.replace(/\D/g, '').slice(-3) || '1', 10) || 1}\n12345 NOWHERE`;
}
