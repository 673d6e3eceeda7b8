import { Router } from 'express';
import { BankEntryConfirm, BankStatementListQuery, BankStatementQuery, IntId } from '@inv/contracts';
import { AppError, companyIdOf, parseInput, parsePath, parseQuery, setPaginationHeaders } from '@inv/service-kit';
import type { ReceivablesDeps } from '../deps';
import { receiveStatement } from './receive-statement';
import { confirmBankMatch } from '../usecases/confirm-bank-match';
import { getBankStatement } from '../usecases/get-bank-statement';
import { ignoreBankEntry } from '../usecases/ignore-bank-entry';
import { importBankStatement } from '../usecases/import-bank-statement';
import { listBankStatements } from '../usecases/list-bank-statements';
import { presentBankStatement, presentBankEntry } from '../../http/presenters';

/** The upload takes application/xml or multipart/form-data and bounds its own body (20 MiB, cut while streaming). */
export const STATEMENT_UPLOAD_PATHS = [/^\/bank-statements\/?$/];

export function bankStatementRoutes(deps: ReceivablesDeps): Router {
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
