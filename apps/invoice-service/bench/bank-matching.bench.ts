/**
 * `npm run bench:bank-matching`: the camt.053 reader and the matcher of invoice-service on a generated statement of
 * 10,000 entries against 5,000 open invoices (the pure code of an import, without MongoDB): parse ms, match ms (the
 * index over the invoices built once, then every line) and CPU µs per line, warm (after WARMUP runs), as the median of
 * RUNS runs. Env: LINES (10000), INVOICES (5000), RUNS (5), WARMUP (2), DUMP (a file: write the statement, measure nothing).
 *
 * The lines: 40 % name an invoice number in the remittance text (spelled variously), 15 % carry the RF creditor
 * reference of one, 20 % only the amount of one and the customer's name as payer, 20 % match nothing, 5 % are debits.
 */
import { writeFileSync } from 'node:fs';
import { buildMatchIndex, matchLine, type OpenInvoice } from '../src/receivables/domain/bank-matching';
import { guardStatementXml, parseCamt053 } from '../src/receivables/domain/camt053';

const LINES = Number(process.env.LINES ?? 10_000);
const INVOICES = Number(process.env.INVOICES ?? 5_000);
const RUNS = Number(process.env.RUNS ?? 5);
const WARMUP = Number(process.env.WARMUP ?? 2);

/** A deterministic pseudo-random sequence (the same statement every run). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function rf(body: string): string {
  const digits = `${body}RF00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (let i = 0; i < digits.length; i += 7) rest = Number(`${rest}${digits.slice(i, i + 7)}`) % 97;
  return `RF${String(98 - rest).padStart(2, '0')}${body}`;
}

const cents = (c: number) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;

function generate(): { invoices: OpenInvoice[]; xml: Buffer } {
  const rand = rng(42);
  const invoices: OpenInvoice[] = Array.from({ length: INVOICES }, (_, i) => ({
    id: i + 1,
    number: `RE-2026-${String(i + 1).padStart(5, '0')}`,
    customerId: (i % 800) + 1,
    customerName: `Kunde ${(i % 800) + 1} GmbH`,
    openCents: 1000 + Math.floor(rand() * 500_000),
  }));
  const entries: string[] = [];
  for (let n = 0; n < LINES; n++) {
    const r = rand();
    const inv = invoices[Math.floor(rand() * invoices.length)]!;
    let amount = inv.openCents;
    let credit = 'CRDT';
    let name = `Zahler ${n}`;
    let rmt = `<Ustrd>Sonstiges ${n}</Ustrd>`;
    if (r < 0.4) {
      const spelled = [inv.number, inv.number.toLowerCase(), inv.number.replace(/-/g, ' '), inv.number.replace(/-/g, '')][n % 4];
      rmt = `<Ustrd>Rechnung ${spelled} Kd-Nr ${inv.customerId} vielen Dank</Ustrd>`;
    } else if (r < 0.55) {
      rmt = `<Strd><CdtrRefInf><Ref>${rf(inv.number.replace(/-/g, ''))}</Ref></CdtrRefInf></Strd>`;
    } else if (r < 0.75) {
      name = inv.customerName!;
      rmt = `<Ustrd>Zahlung ${n}</Ustrd>`;
    } else if (r < 0.95) {
      amount = 100 + Math.floor(rand() * 1_000_000);
    } else {
      credit = 'DBIT';
      rmt = `<Ustrd>Lastschrift ${n}</Ustrd>`;
    }
    entries.push(
      `<Ntry><NtryRef>${n + 1}</NtryRef><Amt Ccy="EUR">${cents(amount)}</Amt><CdtDbtInd>${credit}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>` +
        `<BookgDt><Dt>2026-11-26</Dt></BookgDt><ValDt><Dt>2026-11-26</Dt></ValDt><AcctSvcrRef>REF${n}</AcctSvcrRef>` +
        `<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>` +
        `<NtryDtls><TxDtls><Refs><EndToEndId>E2E-${n}</EndToEndId></Refs><Amt Ccy="EUR">${cents(amount)}</Amt><CdtDbtInd>${credit}</CdtDbtInd>` +
        `<RltdPties><Dbtr><Pty><Nm>${name}</Nm></Pty></Dbtr><DbtrAcct><Id><IBAN>DE89370400440532013000</IBAN></Id></DbtrAcct></RltdPties>` +
        `<RmtInf>${rmt}</RmtInf></TxDtls></NtryDtls></Ntry>\n`,
    );
  }
  const xml =
    `<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>` +
    `<GrpHdr><MsgId>BENCH-1</MsgId><CreDtTm>2026-11-27T06:00:00</CreDtTm></GrpHdr><Stmt><Id>BENCH-STMT</Id>` +
    `<Acct><Id><IBAN>DE44500105175407324931</IBAN></Id><Ccy>EUR</Ccy></Acct>\n${entries.join('')}</Stmt></BkToCstmrStmt></Document>`;
  return { invoices, xml: Buffer.from(xml) };
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function runOnce(invoices: OpenInvoice[], xml: Buffer) {
  const t0 = performance.now();
  const c0 = cpuMs();
  const doc = parseCamt053(guardStatementXml(xml));
  const t1 = performance.now();
  const c1 = cpuMs();
  const index = buildMatchIndex(invoices);
  let proposed = 0;
  let confident = 0;
  for (const line of doc.lines) {
    const p = matchLine(line, index);
    if (p.length) proposed++;
    if ((p[0]?.confidence ?? 0) >= 0.8) confident++;
  }
  const t2 = performance.now();
  const c2 = cpuMs();
  return { lines: doc.lines.length, parseMs: t1 - t0, matchMs: t2 - t1, parseCpu: c1 - c0, matchCpu: c2 - c1, proposed, confident };
}

function main(): void {
  const { invoices, xml } = generate();
  console.log(
    `bank-matching: ${LINES} lines (${(xml.length / 1024 / 1024).toFixed(1)} MiB camt.053) against ${INVOICES} open invoices; node ${process.version}`,
  );
  const cold = runOnce(invoices, xml);
  console.log(
    `cold  parse ${cold.parseMs.toFixed(0)} ms, match ${cold.matchMs.toFixed(0)} ms (${cold.proposed} lines with proposals, ${cold.confident} at confidence >= 0.8)`,
  );
  for (let i = 1; i < WARMUP; i++) runOnce(invoices, xml);
  const runs = Array.from({ length: RUNS }, () => runOnce(invoices, xml));
  const m = (k: keyof (typeof runs)[number]) => median(runs.map((r) => r[k] as number));
  const lines = runs[0]!.lines;
  console.log(
    `warm (median of ${RUNS}): parse ${m('parseMs').toFixed(0)} ms, match ${m('matchMs').toFixed(1)} ms; ` +
      `CPU per line: parse ${((m('parseCpu') * 1000) / lines).toFixed(1)} µs, match ${((m('matchCpu') * 1000) / lines).toFixed(1)} µs, ` +
      `total ${(((m('parseCpu') + m('matchCpu')) * 1000) / lines).toFixed(1)} µs`,
  );
}

// DUMP=file writes the generated statement instead (to try it against a running system)
if (process.env.DUMP) writeFileSync(process.env.DUMP, generate().xml);
else main();
