import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { commands, events, rpc } from '@inv/contracts';
import { SERVICES } from '@inv/runtime';

/**
 * docs/architecture.md names the services, their ports, the queues they consume and the RPCs they serve; this test
 * holds those names against the code, both ways, so the map stays true when the house changes.
 */
const root = join(__dirname, '../..');
const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');

/** The production sources of one app: every .ts below src/ but tests and test helpers. */
function sources(dir: string): string {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) {
        if (name !== 'testing' && name !== '__visual__') walk(p);
      } else if (name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.d.ts')) out.push(readFileSync(p, 'utf8'));
    }
  };
  walk(join(root, 'apps', dir, 'src'));
  return out.join('\n');
}

/** What the code wires: `bus.onEvent('<queue>'`, `bus.onCommand('<type>'`, `bus.serveRpc('<type>'`. */
function wiring(code: string) {
  const all = (verb: string) => [...code.matchAll(new RegExp(`\\.${verb}\\(\\s*'([^']+)'`, 'g'))].map((m) => m[1]!).sort();
  return { queues: all('onEvent'), commands: all('onCommand'), rpcs: all('serveRpc') };
}

/** The rows of the table "Services and what each owns": service name, port, and the bus column. */
function tableRows() {
  const rows = new Map<string, { port: number; bus: string }>();
  for (const line of doc.split('\n')) {
    const m = /^\| \*\*([a-z-]+)\*\* \((\d+)\) \|([^|]*)\|([^|]*)\|/.exec(line);
    if (m) rows.set(m[1]!, { port: Number(m[2]), bus: m[4]! });
  }
  return rows;
}

/** The launcher's name of the service the table calls by its folder (`invoice-service` -> `invoice`). */
const serviceOf = (folder: string) => Object.entries(SERVICES).find(([, s]) => s.dir === folder)?.[0] as keyof typeof SERVICES | undefined;

describe('docs/architecture.md against the code', () => {
  const rows = tableRows();

  it('names every deployable service with its folder and default port, and no other', () => {
    const documented = [...rows.entries()].map(([name, r]) => `${name}:${r.port}`).sort();
    const deployed = Object.values(SERVICES)
      .map((s) => `${s.dir}:${s.port}`)
      .sort();
    expect(documented).toEqual(deployed);
  });

  it('lists, for each service, exactly the queues it consumes and the commands and RPCs it serves', () => {
    const wrong: string[] = [];
    const compare = (what: string, documented: string[], wired: string[]) => {
      const missing = wired.filter((x) => !documented.includes(x));
      const stale = documented.filter((x) => !wired.includes(x));
      if (missing.length) wrong.push(`${what}: wired but not named: ${missing.join(', ')}`);
      if (stale.length) wrong.push(`${what}: named but not wired: ${stale.join(', ')}`);
    };
    for (const [name, row] of rows) {
      const service = serviceOf(name);
      expect([name, service !== undefined]).toEqual([name, true]);
      const code = wiring(sources(SERVICES[service!].dir));
      // the bus column names consumer queues in parentheses, and "command x" / "RPC x, y" before "calls"/"emits"
      const served = row.bus.split(/;\s*(?:calls|emits|sends|reads)\b/)[0]!;
      const queues = [...served.matchAll(/\(`([a-z-]+)`\)/g)].map((m) => m[1]!).sort();
      const commandPart = /commands? ([^;]*)/.exec(served)?.[1] ?? '';
      const rpcPart = /RPC ([^;]*)/.exec(served)?.[1] ?? '';
      const types = (text: string) => [...text.matchAll(/`([a-z-]+\.[a-z.-]+\.v\d+)`/g)].map((m) => m[1]!).sort();
      compare(`${name} queues`, queues, [...new Set(code.queues)]);
      compare(`${name} commands`, types(commandPart), code.commands);
      compare(`${name} RPCs`, types(rpcPart), code.rpcs);
    }
    expect(wrong).toEqual([]);
  });

  it('names only messages that exist in the contracts registry', () => {
    const known = new Set([...Object.keys(events), ...Object.keys(commands), ...Object.keys(rpc)]);
    const named = [...new Set([...doc.matchAll(/`([a-z][a-z-]*\.[a-z][a-z.-]*\.v\d+)`/g)].map((m) => m[1]!))];
    expect(named.filter((type) => !known.has(type))).toEqual([]);
  });
});
