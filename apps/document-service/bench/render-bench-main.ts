import { toCii } from '@inv/einvoice';
import { cpus, loadavg } from 'node:os';
import { renderInvoicePdf, type PdfTotals } from '../src/pdf';
import { preloadFonts } from '../src/pdf/fonts';
import { sampleInvoice, totalsFor } from '../src/pdf/testing/fixtures';
import { toEInvoiceEuInput } from './e-invoice-eu-input';
import { summarize, type Summary } from './stats';

const WARMUP = 20;

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const ms = (v: number): string => `${v.toFixed(2)} ms`;

function row(name: string, s: Summary): string {
  return `${name.padEnd(26)} n=${String(s.n).padEnd(4)} median ${ms(s.median).padStart(11)}  p99 ${ms(s.p99).padStart(11)}  mean ${ms(s.mean).padStart(11)}  min ${ms(s.min).padStart(10)}  max ${ms(s.max).padStart(11)}`;
}

/** CPU milliseconds used by this process since `since` (a process.cpuUsage() snapshot). */
function cpuMs(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
}

function peakRss(): number {
  return process.resourceUsage().maxRSS * 1024; // maxRSS is in kilobytes
}

export async function main(args: string[]): Promise<void> {
  const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 200);
  const compareArg = args.find((a) => a.startsWith('--compare='));
  const compare = compareArg ? Number(compareArg.split('=')[1]) : n;
  if (!Number.isInteger(n) || n < 1 || !Number.isInteger(compare) || compare < 1) {
    throw new Error('usage: render.bench.ts [N >= 1] [--compare=K]');
  }
  const cii = { xml: toCii };
  console.log(`PDF/A-3b Factur-X benchmark: ${n} invoices x 10 lines; ours = toCii() from @inv/einvoice + renderInvoicePdf()`);
  console.log(
    `node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );

  const startRss = process.memoryUsage().rss;
  const invoices = Array.from({ length: n }, (_, i) =>
    sampleInvoice(10, { number: `RE-2026-${String(i + 1).padStart(5, '0')}`, language: i % 2 ? 'en' : 'de' }),
  );
  const totals: PdfTotals[] = invoices.map(totalsFor);

  // --- ours -----------------------------------------------------------------------------------
  let t = performance.now();
  preloadFonts();
  const fontLoad = performance.now() - t;
  t = performance.now();
  await renderInvoicePdf(invoices[0], {
    template: 1,
    totals: totals[0],
    attachment: { filename: 'factur-x.xml', xml: cii.xml(invoices[0]), facturX: true },
  });
  const firstRender = performance.now() - t;
  for (let i = 0; i < WARMUP; i++) {
    await renderInvoicePdf(invoices[i % n], {
      template: 1 + (i % 2),
      totals: totals[i % n],
      attachment: { filename: 'factur-x.xml', xml: cii.xml(invoices[i % n]), facturX: true },
    });
  }

  const ours: number[] = [];
  const oursCpu: number[] = [];
  const xmlTimes: number[] = [];
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    const xml = cii.xml(invoices[i]);
    xmlTimes.push(performance.now() - start);
    const pdf = await renderInvoicePdf(invoices[i], {
      template: 1 + (i % 2),
      totals: totals[i],
      attachment: { filename: 'factur-x.xml', xml, facturX: true },
    });
    ours.push(performance.now() - start);
    oursCpu.push(cpuMs(cpu));
    bytes += pdf.length;
    if (i === 0 && !pdf.includes('/AFRelationship /Alternative')) throw new Error('our PDF lacks the embedded XML');
  }
  const oursPeak = peakRss();
  const oursSummary = summarize(ours);

  // --- @e-invoice-eu/core ---------------------------------------------------------------------
  // It takes the visual PDF as input and adds the CII and PDF/A metadata itself, so it gets our
  // plain rendering of the same invoice (made here, outside the timing).
  // Loaded only now so that its modules do not count towards our peak RSS.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { InvoiceService } = require('@e-invoice-eu/core') as typeof import('@e-invoice-eu/core');
  const service = new InvoiceService({ log: () => undefined, warn: () => undefined, error: (m) => console.error(m) });
  const inputs = invoices.slice(0, compare).map((inv, i) => toEInvoiceEuInput(inv, totals[i]));
  const visuals: Buffer[] = [];
  for (let i = 0; i < compare; i++) visuals.push(await renderInvoicePdf(invoices[i], { template: 1, totals: totals[i] }));
  const generate = (i: number) =>
    service.generate(inputs[i], {
      format: 'Factur-X-EN16931',
      lang: invoices[i].language === 'de' ? 'de-de' : 'en-gb',
      pdf: { buffer: visuals[i], filename: `${invoices[i].number}.pdf`, mimetype: 'application/pdf' },
    });
  await generate(0); // warm-up (module init)
  const theirs: number[] = [];
  const theirsCpu: number[] = [];
  for (let i = 0; i < compare; i++) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    const out = await generate(i);
    theirs.push(performance.now() - start);
    theirsCpu.push(cpuMs(cpu));
    if (i === 0 && !(out instanceof Uint8Array)) throw new Error('@e-invoice-eu/core did not return a PDF');
  }
  const theirsSummary = summarize(theirs);

  const oursCpuSummary = summarize(oursCpu);
  const theirsCpuSummary = summarize(theirsCpu);
  console.log('wall-clock time per invoice');
  console.log(row('ours (pdfkit)', oursSummary));
  console.log(row('  of which toCii()', summarize(xmlTimes)));
  console.log(row('@e-invoice-eu/core 2.3.4', theirsSummary));
  console.log('CPU time per invoice (user + system of this process; less sensitive to other load)');
  console.log(row('ours (pdfkit)', oursCpuSummary));
  console.log(row('@e-invoice-eu/core 2.3.4', theirsCpuSummary));
  console.log('');
  console.log(
    `speed ratio (median wall): ${(theirsSummary.median / oursSummary.median).toFixed(1)}x faster   (mean: ${(theirsSummary.mean / oursSummary.mean).toFixed(1)}x; median CPU: ${(theirsCpuSummary.median / oursCpuSummary.median).toFixed(1)}x)`,
  );
  console.log(`ours: font parse once ${ms(fontLoad)}, first render ${ms(firstRender)}, avg PDF size ${(bytes / n / 1024).toFixed(1)} KB`);
  console.log(
    `peak RSS after our ${n} renders: ${mb(oursPeak)} (process incl. tsx at start: ${mb(startRss)}); after both: ${mb(peakRss())}`,
  );
  const ok = oursSummary.median < 15 && theirsSummary.median / oursSummary.median >= 10 && oursPeak < 200 * 1024 * 1024;
  console.log(
    `targets (median < 15 ms, >= 10x, peak RSS < 200 MB): ${ok ? 'met' : 'NOT met'} (wall clock; load average now ${loadavg()[0].toFixed(2)})`,
  );
}
