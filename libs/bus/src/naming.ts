/** Names of every exchange and queue the bus declares. Pure, so the naming scheme is unit-tested. */

export interface Names {
  eventsExchange: string;
  commandsExchange: string;
  eventQueue(purpose: string): string;
  commandQueue(type: string): string;
  rpcQueue(type: string): string;
  retryQueue(workQueue: string, delayMs: number): string;
  parkingQueue(workQueue: string): string;
  /** Work queue of a name given to parkedMessages/replayParked: full queue name, command type or event queue purpose. */
  resolveWorkQueue(name: string, commandTypes: readonly string[]): string;
}

const NAME_PART = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function assertNamePart(what: string, value: string): void {
  if (!NAME_PART.test(value)) {
    throw new Error(`bus: ${what} must match ${NAME_PART} (got ${JSON.stringify(value)})`);
  }
}

export function createNames(prefix: string, service: string): Names {
  assertNamePart('prefix', prefix);
  assertNamePart('service', service);
  const eventQueue = (purpose: string): string => {
    assertNamePart('queue purpose', purpose);
    return `${prefix}.${service}.${purpose}`;
  };
  const commandQueue = (type: string): string => `${prefix}.cmd.${type}`;
  return {
    eventsExchange: `${prefix}.events`,
    commandsExchange: `${prefix}.commands`,
    eventQueue,
    commandQueue,
    rpcQueue: (type) => `${prefix}.rpc.${type}`,
    retryQueue: (workQueue, delayMs) => {
      if (!Number.isInteger(delayMs) || delayMs <= 0) throw new Error(`bus: retry delay must be a positive integer of ms (got ${delayMs})`);
      return `${workQueue}.retry.${delayMs}`;
    },
    parkingQueue: (workQueue) => `${workQueue}.parking`,
    resolveWorkQueue: (name, commandTypes) => {
      if (name.startsWith(`${prefix}.`)) return name;
      if (commandTypes.includes(name)) return commandQueue(name);
      return eventQueue(name);
    },
  };
}
