/**
 * npm run -s bench:inbound [-- <file.xml> [runs]]: parse plus full validation (XSD, EN 16931 and CIUS Schematron,
 * reading, arithmetic) of one e-invoice, in-process as inbound-service does it. Cold: the first document after the
 * compiled stylesheets (SEF, compiled beforehand into the cache) are loaded from disk; warm: the median of the
 * following runs. CPU ms count every thread of the process and the xmllint program it runs for the XSD check.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultKitDir, defaultSefCacheDir, openConformanceKit, warmKit } from '../src/inspection/conformance-kit';
import { inspectXml } from '../src/inspection/inspect';

const kitDir = process.env.INBOUND_CONFORMANCE_DIR ?? defaultKitDir();
const file = process.argv[2] ?? join(kitDir, 'xrechnung/examples/01.01a-INVOICE_ubl.xml');
const runs = Number(process.argv[3] ?? 20);

/**
 * CPU of this process (every thread) plus its finished children (the xmllint program, when it runs the XSD check):
 * Linux's /proc/self/stat cutime + cstime, in clock ticks of 10 ms; 0 elsewhere.
 */
function childCpuMs(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}
interface Cpu {
  own: NodeJS.CpuUsage;
  children: number;
}
const cpuNow = (): Cpu => ({ own: process.cpuUsage(), children: childCpuMs() });
const cpuMs = (from: Cpu) => {
  const u = process.cpuUsage(from.own);
  return (u.user + u.system) / 1000 + (childCpuMs() - from.children);
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const bytes = readFileSync(file);
  const engine =
    process.env.INBOUND_XSD_ENGINE === 'wasm' || process.env.INBOUND_XSD_ENGINE === 'xmllint' ? process.env.INBOUND_XSD_ENGINE : 'auto';
  const kit = openConformanceKit(kitDir, process.env.INBOUND_SEF_CACHE_DIR ?? defaultSefCacheDir(process.env.XDG_CACHE_HOME), engine);
  let cpu = cpuNow();
  let wall = performance.now();
  await warmKit(kit); // compiles only when the cache is empty (first start), else loads the SEF files
  const load = { cpuMs: cpuMs(cpu), wallMs: performance.now() - wall };

  cpu = cpuNow();
  wall = performance.now();
  const first = await inspectXml(kit, bytes, { maxBytes: 5 * 1024 * 1024 });
  const cold = { cpuMs: cpuMs(cpu), wallMs: performance.now() - wall };

  const warmCpu: number[] = [];
  const warmWall: number[] = [];
  for (let i = 0; i < runs; i++) {
    cpu = cpuNow();
    wall = performance.now();
    await inspectXml(kit, bytes, { maxBytes: 5 * 1024 * 1024 });
    warmCpu.push(cpuMs(cpu));
    warmWall.push(performance.now() - wall);
  }
  const r = (n: number) => Math.round(n);
  console.log(
    JSON.stringify(
      {
        file,
        bytes: bytes.length,
        format: first.report.format,
        valid: first.report.valid,
        findings: first.report.findings.length,
        xsd_engine: kit.xsdEngine,
        load_kit: { cpu_ms: r(load.cpuMs), wall_ms: r(load.wallMs) },
        cold: { cpu_ms: r(cold.cpuMs), wall_ms: r(cold.wallMs) },
        warm_median: { cpu_ms: r(median(warmCpu)), wall_ms: r(median(warmWall)), runs },
        warm_min: { cpu_ms: r(Math.min(...warmCpu)), wall_ms: r(Math.min(...warmWall)) },
        rss_mb: r(process.memoryUsage().rss / 1024 / 1024),
      },
      null,
      2,
    ),
  );
}

void main();
