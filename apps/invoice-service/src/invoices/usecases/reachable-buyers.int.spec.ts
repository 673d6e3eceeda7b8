import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { toEInvoiceXml, type EInvoice, type EInvoiceFormat } from '@inv/einvoice';
import { startFinalizeJob } from './finalize-invoice';
import { billingSnapshot, COMPANY, fakeDeps, position, sellerProfile, storedDraft } from '../../testing/fake-deps';

/**
 * Every buyer reachable, through finalization: the snapshot invoice-service freezes for a Norwegian company (Peppol
 * participant id 0192, no EU VAT ID, export G) and for an Italian company with a Skonto term, rendered by the XML
 * writers and checked by the official conformance kit (shared/conformance/validate).
 */
const VALIDATE = process.env.EINVOICE_VALIDATE ?? join(__dirname, '../../../../../../shared/conformance/validate');
const run = promisify(execFile);

async function expectValid(format: EInvoiceFormat, snapshot: unknown, dir: string) {
  const file = join(dir, `${format}.xml`);
  writeFileSync(file, toEInvoiceXml(format, snapshot as EInvoice));
  const result = await run(VALIDATE, ['-n', '0', format, file]).catch((e: { stdout?: string; stderr?: string }) => ({
    stdout: `${e.stdout ?? ''}${e.stderr ?? ''}`,
  }));
  expect(result.stdout.trim()).toBe(`PASS ${file}`);
}

describe('finalization reaches every buyer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'reachable-buyers-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('PEPPOL to a Norwegian B2B buyer with peppol_id 0192 and no EU VAT ID: finalizes (export, G) and passes validate', async () => {
    const f = fakeDeps({
      'account.seller-profile.v1': () => ({
        ...sellerProfile,
        seller: { ...sellerProfile.seller!, electronicAddress: { scheme: '0088', value: '4035811991021' } },
      }),
      'customer.billing-snapshot.v1': () => ({
        ...billingSnapshot,
        buyer: {
          name: 'Fjordkraft Nordic AS',
          electronicAddress: { scheme: '0192', value: '987654325' },
          address: { line1: 'Karl Johans gate 22', city: 'Oslo', postalCode: '0159', countryCode: 'NO' },
        },
        language: 'en',
        vatStatus: 'not_checked',
      }),
    });
    storedDraft(f, 1, {
      format: 'PEPPOL',
      buyerReference: 'PO-2026-118',
      positions: [position(10, { title: 'Messgerät M-500', unitCode: 'C62', taxTreatmentId: 'export_outside_eu', taxRate: '0' })],
    });
    await startFinalizeJob(f.deps, COMPANY, 1, false);
    const snapshot = f.invoices.get(1)!.snapshot!;
    expect(snapshot.buyer).toMatchObject({ electronicAddress: { scheme: '0192', value: '987654325' } });
    expect(snapshot.buyer.vatId).toBeUndefined();
    expect(snapshot.lines[0]!.vat).toMatchObject({ category: 'G', treatment: 'export_outside_eu' });
    await expectValid('peppol-ubl', snapshot, dir);
  }, 120_000);

  it('FatturaPA to an Italian company with PEC, Codice Fiscale, Partita IVA and a 2 % Skonto term: finalizes and passes validate', async () => {
    const f = fakeDeps({
      'account.seller-profile.v1': () => ({
        ...sellerProfile,
        seller: {
          name: 'Società Alpha S.r.l.',
          vatId: 'IT01234567897',
          address: { line1: 'Viale Roma 543', city: 'Sassari', postalCode: '07100', subdivision: 'SS', countryCode: 'IT' },
          contact: { email: 'amministrazione@alpha.it' },
        },
        payment: { meansCode: '58', iban: 'IT60X0542811101000000123456', bic: 'BPMOIT22XXX' },
        paymentTerms: [{ id: 1, days: 30, discount: { percent: 2, days: 10 } }],
      }),
      'customer.billing-snapshot.v1': () => ({
        ...billingSnapshot,
        buyer: {
          name: 'Delta Servizi S.r.l.',
          partitaIva: '00743110157',
          fiscalCode: '00743110157',
          pec: 'fatture@pec.deltaservizi.it',
          address: { line1: 'Corso Buenos Aires 7', city: 'Milano', postalCode: '20124', subdivision: 'MI', countryCode: 'IT' },
        },
        language: 'en',
        paymentTermId: 1,
        vatStatus: 'not_checked',
      }),
    });
    storedDraft(f, 1, { format: 'FACTURAPA', positions: [position(10, { taxRate: '0.22' })] });
    await startFinalizeJob(f.deps, COMPANY, 1, false);
    const snapshot = f.invoices.get(1)!.snapshot!;
    // 2 x 100.00 + 22 % = 244.00; 2 % of it for payment within 10 days of 2026-11-20
    expect(snapshot.earlyPaymentDiscount).toEqual({ percent: '2', days: 10, untilDate: '2026-11-30', amount: '4.88' });
    const xml = toEInvoiceXml('fatturapa', snapshot as unknown as EInvoice);
    expect(xml).toContain('<ScontoPagamentoAnticipato>4.88</ScontoPagamentoAnticipato>');
    expect(xml).toContain('<DataLimitePagamentoAnticipato>2026-11-30</DataLimitePagamentoAnticipato>');
    expect(xml).toContain('<PECDestinatario>fatture@pec.deltaservizi.it</PECDestinatario>');
    await expectValid('fatturapa', snapshot, dir);
  }, 120_000);
});
