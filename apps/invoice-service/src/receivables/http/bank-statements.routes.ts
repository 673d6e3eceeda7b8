import { Router } from 'express';
import { BankEntryConfirm, BankStatementListQuery, BankStatementQuery, IntId } from '@inv/contracts';
import { AppError, companyIdOf, parseInput, parsePath, parseQuery, setPaginationHeaders } from '@inv/service-kit';
import type { BankEntryDoc, BankStatementDoc } from '../db/bank-statements';
import { centsToNumber } from '../domain/payments';
import type { InvoiceDeps } from '../../platform/deps';
import { receiveStatement } from './receive-statement';
import { confirmBankMatch } from '../usecases/confirm-bank-match';
import { getBankStatement } from '../usecases/get-bank-statement';
import { ignoreBankEntry } from '../usecases/ignore-bank-entry';
import { importBankStatement } from '../usecases/import-bank-statement';
import { listBankStatements } from '../usecases/list-bank-statements';

/** The upload takes application/xml or multipart/form-data and bounds its own body (20 MiB, cut while streaming). */
export const STATEMENT_UPLOAD_PATHS = [/^\/bank-statements\/?$/];

export const presentBankStatement = (s: Omit<BankStatementDoc, '_id'>) => ({
  id: s.id,
  message_id: s.messageId,
  camt_version: s.camtVersion,
  statements: s.statements.map((x) => ({ id: x.id, account_iban: x.accountIban, currency: x.currency ?? null })),
  filename: s.filename ?? null,
  size: s.size,
  sha256: s.sha256,
  entries_total: s.lineCount,
  credits: s.creditCount,
  debits: s.debitCount,
  credits_with_proposals: s.proposalCount,
  confirmed: s.confirmedCount,
  ignored: s.ignoredCount,
  created_at: s.createdAt.toISOString(),
});

export const presentBankEntry = (e: Omit<BankEntryDoc, '_id'>) => ({
  id: e.index,
  statement_ref: e.statementRef,
  type: e.credit ? ('credit' as const) : ('debit' as const),
  amount: e.amount,
  currency: e.currency,
  reversal: e.reversal,
  booking_status: e.bookingStatus ?? null,
  booking_date: e.bookingDate ?? null,
  value_date: e.valueDate ?? null,
  payer_name: e.payerName ?? null,
  payer_iban: e.payerIban ?? null,
  end_to_end_id: e.endToEndId ?? null,
  bank_reference: e.bankRef ?? null,
  remittance_information: e.unstructured,
  references: e.references,
  additional_information: e.additionalInfo ?? null,
  state: e.state,
  proposals: e.proposals.map((p) => ({
    invoice_id: p.invoiceId,
    invoice_number: p.number,
    customer_id: p.customerId,
    amount: centsToNumber(p.amountCents),
    open_amount: centsToNumber(p.openCents),
    confidence: p.confidence,
    reasons: p.reasons,
  })),
  payment: e.confirmed
    ? {
        payment_id: e.confirmed.paymentId,
        invoice_id: e.confirmed.invoiceId,
        amount: centsToNumber(e.confirmed.amountCents),
        confirmed_at: new Date(e.confirmed.at).toISOString(),
      }
    : null,
});

export function bankStatementRoutes(deps: InvoiceDeps): Router {
  const r = Router();
  const ids = (req: { params: Record<string, unknown> }) => ({
    id: parsePath(IntId, req.params, 'id'),
    entryId: parsePath(IntId, req.params, 'entry_id'),
  });
  r.post('/bank-statements/', async (req, res) => {
    const companyId = companyIdOf(req);
    let imported;
    try {
      imported = await importBankStatement(deps, companyId, await receiveStatement(req.headers, req));
    } catch (err) {
      // The client may still be sending: answer now and do not keep the connection for the rest.
      if (err instanceof AppError && !req.complete) res.setHeader('connection', 'close');
      throw err;
    }
    const { statement, created } = imported;
    const page = await getBankStatement(deps, companyId, statement.id, { page: 1, limit: 100 });
    res
      .status(created ? 201 : 200)
      .location(`${req.baseUrl}/bank-statements/${statement.id}`)
      .json({
        message: created ? 'bank statement imported' : 'bank statement imported before: nothing changed',
        ...presentBankStatement(statement),
        entries: page.items.map(presentBankEntry),
        page: 1,
        limit: 100,
        total: page.total,
      });
  });
  r.get('/bank-statements/', async (req, res) => {
    const q = parseQuery(BankStatementListQuery, req.query);
    const { items, total } = await listBankStatements(deps, companyIdOf(req), q);
    setPaginationHeaders(req, res, { total, page: q.page, limit: q.limit });
    res.json({ bank_statements: items.map(presentBankStatement), total, page: q.page, limit: q.limit });
  });
  r.get('/bank-statements/:id', async (req, res) => {
    const q = parseQuery(BankStatementQuery, req.query);
    const { statement, items, total } = await getBankStatement(deps, companyIdOf(req), parsePath(IntId, req.params, 'id'), q);
    setPaginationHeaders(req, res, { total, page: q.page, limit: q.limit });
    res.json({ ...presentBankStatement(statement), entries: items.map(presentBankEntry), page: q.page, limit: q.limit, total });
  });
  r.post('/bank-statements/:id/entries/:entry_id/confirm', async (req, res) => {
    const { id, entryId } = ids(req);
    const input = parseInput(BankEntryConfirm, req.body ?? {});
    const { entry, created } = await confirmBankMatch(deps, companyIdOf(req), id, entryId, input);
    res.status(created ? 201 : 200).json({
      message: created ? `payment ${entry.confirmed!.paymentId} recorded` : 'confirmed before: nothing changed',
      ...presentBankEntry(entry),
    });
  });
  r.post('/bank-statements/:id/entries/:entry_id/ignore', async (req, res) => {
    const { id, entryId } = ids(req);
    const entry = await ignoreBankEntry(deps, companyIdOf(req), id, entryId);
    res.json({ message: `entry ${entryId} ignored`, ...presentBankEntry(entry) });
  });
  return r;
}
