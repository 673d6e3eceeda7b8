import { parseArgs } from 'node:util';
import { z } from 'zod';
import { createBus, RpcRemoteError, RpcTimeoutError, type Bus } from '@inv/bus';
import { messages, safeText, type Messages } from '@inv/contracts';
import { envVars } from '@inv/service-kit';
import { newCompanyId } from '../usecases/create-company';

/** What the command reads from the environment: the same variables the services use to reach the bus. */
export const adminConfig = z.object({
  AMQP_URL: envVars.amqpUrl,
  BUS_PREFIX: envVars.busPrefix,
  /** How long to wait for account-service or quota-service to answer. */
  ADMIN_RPC_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
});
export type AdminConfig = z.output<typeof adminConfig>;

export const USAGE = `Usage: npm run -s admin -- <command> [options]

Operator commands against a running system (over the message bus, as the services talk to each other):

  company create --name <name> --owner-email <email> [--plan free|pro]
      Creates a company and its owner (plan default pro). Prints the company id and, on its
      last line, a new API key with the owner role (Pro only: the Free plan has no API access).
  company plan --company <id> --plan free|pro
      Changes the plan (quota-service). A downgrade from Pro deactivates every API key of the
      company at once; an upgrade reactivates none.
  company list
      Every company: id, plan, members, active keys, created, name.

Options:
  -h, --help   this text

Environment: AMQP_URL and BUS_PREFIX as the services have them (defaults: local RabbitMQ, prefix inv).
Exit status: 0 on success, 1 when the system refused or did not answer, 2 on wrong usage.`;

export class UsageError extends Error {}

type Out = { log: (line: string) => void };
const Plan = z.enum(['free', 'pro']);
const Email = z.string().trim().toLowerCase().email().max(254);
const Name = safeText(z.string().trim().min(1).max(200));

function need<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  if (value === undefined || value === '') throw new UsageError(`missing ${what}`);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new UsageError(`invalid ${what}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

/** Runs one command line; throws UsageError for wrong usage, other errors when the system refused. */
export async function runAdmin(argv: string[], bus: () => Promise<Bus<Messages>>, out: Out): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      name: { type: 'string' },
      'owner-email': { type: 'string' },
      plan: { type: 'string' },
      company: { type: 'string' },
    },
  });
  const [group, command, ...rest] = positionals;
  if (values.help || !group) return out.log(USAGE);
  if (group !== 'company') throw new UsageError(`unknown command ${group}`);
  if (rest.length) throw new UsageError(`unexpected argument ${rest[0]}`);
  if (command === 'create') {
    const name = need(Name, values.name, '--name');
    const ownerEmail = need(Email, values['owner-email'], '--owner-email');
    const plan = values.plan === undefined ? 'pro' : need(Plan, values.plan, '--plan (free or pro)');
    const created = await (await bus()).callRpc('account.create-company.v1', newCompanyId(), { name, ownerEmail, plan });
    out.log(`company created: ${created.companyId} (${name}, plan ${created.plan}, owner ${ownerEmail})`);
    out.log(`company id: ${created.companyId}`);
    if (created.apiKey) out.log(created.apiKey);
    else out.log('no API key: API access requires the Pro plan (npm run -s admin -- company plan --company <id> --plan pro)');
    return;
  }
  if (command === 'plan') {
    const company = need(z.string().regex(/^cmp_[a-z0-9_]{3,60}$/, 'a company id (cmp_...)'), values.company, '--company');
    const plan = need(Plan, values.plan, '--plan (free or pro)');
    const result = await (await bus()).callRpc('quota.set-plan.v1', company, { plan });
    if (!result.changed) return out.log(`${company} is already on the ${plan} plan; nothing changed`);
    const note = result.previousPlan === 'pro' ? ' (its API keys are deactivated; new keys need Pro)' : '';
    return out.log(`${company}: plan ${result.previousPlan} -> ${result.plan}${note}`);
  }
  if (command === 'list') {
    const { companies } = await (await bus()).callRpc('account.list-companies.v1', 'operator', { limit: 1000 });
    out.log(['id'.padEnd(28), 'plan'.padEnd(5), 'members', 'keys', 'created'.padEnd(20), 'name'].join('  '));
    for (const c of companies)
      out.log(
        [
          c.id.padEnd(28),
          c.plan.padEnd(5),
          String(c.members).padStart(7),
          String(c.activeKeys).padStart(4),
          c.createdAt.slice(0, 19).padEnd(20),
          c.name,
        ].join('  '),
      );
    return;
  }
  throw new UsageError(command ? `unknown command company ${command}` : 'missing command: company create | plan | list');
}

/** Entry: parses the environment, connects to the bus only when a command needs it, maps failures to exit codes. */
export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv,
  out: Out = { log: (l) => console.log(l) },
  err: Out = { log: (l) => console.error(l) },
): Promise<number> {
  const parsed = adminConfig.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) err.log(`${issue.path.join('.')}: ${issue.message}`);
    return 2;
  }
  const config = parsed.data;
  const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
  let started: Bus<Messages> | undefined;
  const bus = async () => {
    started = createBus(messages, {
      url: config.AMQP_URL,
      prefix: config.BUS_PREFIX,
      service: 'admin-cli',
      logger: silent,
      rpcTimeoutMs: config.ADMIN_RPC_TIMEOUT_MS,
    });
    await started.start();
    return started;
  };
  try {
    await runAdmin(argv, bus, out);
    return 0;
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      err.log(`error: ${(e as Error).message}\n\n${USAGE}`);
      return 2;
    }
    if (e instanceof RpcTimeoutError)
      err.log(
        `error: no answer within ${config.ADMIN_RPC_TIMEOUT_MS} ms: are account-service and quota-service running with BUS_PREFIX=${config.BUS_PREFIX}?`,
      );
    else if (e instanceof RpcRemoteError) err.log(`error: ${e.message}`);
    else err.log(`error: ${(e as Error).message}`);
    return 1;
  } finally {
    await started?.stop().catch(() => undefined);
  }
}
