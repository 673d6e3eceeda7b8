import { ObjectId, type Document } from 'bson';
import type { CommandContext, CommandHandler } from './context';

/** Wire version of MongoDB 7.0: inside the driver's 9..24 window, below the new bulkWrite command (25). */
export const MAX_WIRE_VERSION = 21;
const ELECTION_ID = new ObjectId('7fffffff0000000000000001');

function hello(legacy: boolean): CommandHandler {
  return (cmd: Document, ctx: CommandContext) => {
    const me = ctx.server.address;
    const reply: Document = {
      ...(cmd.helloOk ? { helloOk: true } : {}),
      ...(legacy ? { ismaster: true } : { isWritablePrimary: true }),
      secondary: false,
      setName: ctx.server.setName,
      setVersion: 1,
      hosts: [me],
      me,
      primary: me,
      electionId: ELECTION_ID,
      // No topologyVersion: without it the driver polls with plain hello instead of
      // streaming (awaitable hello with exhaust), which this server does not implement.
      maxBsonObjectSize: 16 * 1024 * 1024,
      maxMessageSizeBytes: 48_000_000,
      maxWriteBatchSize: 100_000,
      localTime: new Date(),
      logicalSessionTimeoutMinutes: 30,
      connectionId: ctx.server.connectionId,
      minWireVersion: 0,
      maxWireVersion: MAX_WIRE_VERSION,
      readOnly: false,
      ok: 1,
    };
    return reply;
  };
}

const ok: CommandHandler = () => ({ ok: 1 });

export const handshakeCommands: Record<string, CommandHandler> = {
  hello: hello(false),
  isMaster: hello(true),
  ismaster: hello(true),
  ping: ok,
  buildInfo: () => ({
    version: '7.0.0',
    gitVersion: 'embedded-mongo',
    versionArray: [7, 0, 0, 0],
    bits: 64,
    debug: false,
    maxBsonObjectSize: 16 * 1024 * 1024,
    storageEngines: ['embedded-memory'],
    ok: 1,
  }),
  getParameter: (cmd) => {
    const reply: Document = { ok: 1 };
    if (cmd.featureCompatibilityVersion || cmd.getParameter === '*') reply.featureCompatibilityVersion = { version: '7.0' };
    return reply;
  },
  getCmdLineOpts: () => ({ argv: ['embedded-mongo'], parsed: {}, ok: 1 }),
  getLog: () => ({ totalLinesWritten: 0, log: [], ok: 1 }),
  hostInfo: () => ({ system: { hostname: 'embedded-mongo' }, os: {}, extra: {}, ok: 1 }),
  whatsmyuri: () => ({ you: '127.0.0.1', ok: 1 }),
  connectionStatus: () => ({ authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] }, ok: 1 }),
  serverStatus: (_cmd, ctx) => ({
    host: ctx.server.address,
    version: '7.0.0',
    process: 'embedded-mongo',
    uptime: Math.floor(process.uptime()),
    localTime: new Date(),
    ok: 1,
  }),
  endSessions: (cmd, ctx) => {
    ctx.transactions.endSessions(Array.isArray(cmd.endSessions) ? cmd.endSessions : []);
    return { ok: 1 };
  },
  killSessions: (cmd, ctx) => {
    ctx.transactions.endSessions(Array.isArray(cmd.killSessions) ? cmd.killSessions : []);
    return { ok: 1 };
  },
  refreshSessions: ok,
  killAllSessions: ok,
  startSession: () => ({ id: { id: new ObjectId() }, timeoutMinutes: 30, ok: 1 }),
};
