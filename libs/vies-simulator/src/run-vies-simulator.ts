import { startViesSimulator } from './vies-simulator';

/**
 * Stand-alone VIES simulator for local runs:
 *   npx tsx libs/vies-simulator/src/run-vies-simulator.ts [--port 8089] [--slow-ms 10000]
 * Prints the URL to use as VIES_URL. Answers are simulated, never real VIES answers.
 */
async function main(argv: readonly string[]): Promise<void> {
  const port = numberArg(argv, '--port') ?? 0;
  const slowMs = numberArg(argv, '--slow-ms');
  const simulator = await startViesSimulator({ port, slowMs });
  console.warn(`!!! VIES SIMULATOR listening at ${simulator.url} -- answers are SIMULATED, not real VIES answers !!!`);
  const shutdown = () => {
    simulator.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

function numberArg(argv: readonly string[], name: string): number | undefined {
  const index = argv.indexOf(name);
  if (index === -1) return undefined;
  const value = Number(argv[index + 1]);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} needs a non-negative integer`);
  return value;
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
