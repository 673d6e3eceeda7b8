import { createHash } from 'node:crypto';
import type { CompanyId } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { bankStatementCounter, type BankEntryDoc, type BankStatementDoc } from '../db/bank-statements';
import { grossCentsOf, type InvoiceDoc } from '../../invoices';
import { buildMatchIndex, matchLine, type OpenInvoice } from '../domain/bank-matching';
import { guardStatementXml, parseCamt053 } from '../domain/camt053';
import { amountToCents, openCentsOf } from '../domain/payments';
import type { ReceivablesDeps } from '../deps';
import type { ReceivedStatement } from '../http/receive-statement';

export interface ImportedStatement {
  statement: BankStatementDoc;
  /** false: the same statement (identity or bytes) was uploaded before; nothing changed. */
  created: boolean;
}

type Openable = Awaited<ReturnType<ReceivablesDeps['invoices']['openForMatching']>>[number];

/** What matching needs of an open invoice: its open amount and a Skonto still obtainable. */
export function openInvoiceOf(inv: Openable): OpenInvoice {
  const grossCents = inv.grossCents ?? grossCentsOf(inv.positions as InvoiceDoc['positions']);
  const paidCents = inv.paidCents ?? 0;
  const discountCents = inv.discountCents ?? 0;
  const epd = inv.snapshot?.earlyPaymentDiscount;
  const skontoCents = epd && discountCents === 0 ? amountToCents(epd.amount) : 0;
  return {
    id: inv.id,
    number: inv.number,
    customerId: inv.customerId,
    customerName: inv.customerName ?? inv.snapshot?.buyer?.name,
    openCents: openCentsOf({ grossCents, paidCents, discountCents, creditedCents: inv.creditSettledCents ?? 0 }),
    skonto: epd && skontoCents > 0 ? { cents: skontoCents, untilDate: epd.untilDate } : undefined,
  };
}

const isDuplicateKey = (err: unknown) => (err as { code?: number })?.code === 11000;

/**
 * POST /bank-statements/: reads the camt.053 file (domain/camt053.ts: 400/413 for what is not a sound camt.053),
 * answers the statement stored before when the same one comes again (same MsgId, Stmt Ids and accounts, or the same
 * bytes), else matches every credit against the company's open invoices (read once, indexed by number and amount)
 * and stores the statement with its entries and proposals, announcing bank-statement.imported.v1, in one transaction.
 */
export async function importBankStatement(
  deps: ReceivablesDeps,
  companyId: CompanyId,
  upload: ReceivedStatement,
): Promise<ImportedStatement> {
  // the same bytes again: answered before reading them (a 10,000-line file takes a second to read)
  const sha256 = createHash('sha256').update(upload.bytes).digest('hex');
  const sameBytes = await deps.bankStatements.findSame(companyId, undefined, sha256);
  if (sameBytes) return { statement: sameBytes, created: false };
  const doc = parseCamt053(guardStatementXml(upload.bytes));
  const statementKey = createHash('sha256')
    .update([doc.messageId, ...doc.statements.map((s) => `${s.id}@${s.accountIban}`)].join('\n'))
    .digest('hex');
  const same = await deps.bankStatements.findSame(companyId, statementKey, sha256);
  if (same) return { statement: same, created: false };

  const [open, payers] = await Promise.all([deps.invoices.openForMatching(companyId), deps.bankStatements.knownPayerIbans(companyId)]);
  const index = buildMatchIndex(open.map(openInvoiceOf), payers);
  const id = await deps.counters.next(bankStatementCounter(companyId));
  let credits = 0;
  let proposed = 0;
  const entries: Array<Omit<BankEntryDoc, '_id'>> = doc.lines.map((l) => {
    const proposals = matchLine(l, index);
    if (l.credit && !l.reversal) credits++;
    if (proposals.length) proposed++;
    return {
      companyId,
      statementId: id,
      index: l.index,
      statementRef: l.statementId,
      entryRef: l.entryRef,
      bankRef: l.bankRef,
      amount: l.amount,
      cents: l.cents,
      currency: l.currency,
      credit: l.credit,
      reversal: l.reversal,
      bookingStatus: l.status,
      bookingDate: l.bookingDate,
      valueDate: l.valueDate,
      payerName: l.payerName,
      payerIban: l.payerIban,
      endToEndId: l.endToEndId,
      unstructured: l.unstructured,
      references: l.references,
      additionalInfo: l.additionalInfo,
      proposals,
      state: 'open',
    };
  });
  const statement: Omit<BankStatementDoc, '_id'> = {
    companyId,
    id,
    messageId: doc.messageId,
    camtVersion: doc.version,
    statements: doc.statements,
    statementKey,
    sha256,
    filename: upload.filename,
    size: upload.bytes.length,
    lineCount: entries.length,
    creditCount: credits,
    debitCount: entries.filter((e) => !e.credit).length,
    proposalCount: proposed,
    confirmedCount: 0,
    ignoredCount: 0,
    createdAt: deps.now(),
  };
  try {
    await deps.commit(async (session, emit) => {
      await deps.bankStatements.insert(statement, entries, session);
      emit(
        eventMessage(
          'bank-statement.imported.v1',
          companyId,
          { statementId: id, credits, proposals: proposed },
          `bank-statement-imported-${companyId}-${id}`,
        ),
      );
    });
  } catch (err) {
    // the same statement uploaded at the same time: the other upload stored it
    if (!isDuplicateKey(err)) throw err;
    const stored = await deps.bankStatements.findSame(companyId, statementKey, sha256);
    if (!stored) throw err;
    return { statement: stored, created: false };
  }
  return { statement: { _id: `${companyId}:${id}`, ...statement }, created: true };
}
