import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderReminderPdf, type Reminder } from './reminder';

const missing = ['pdftotext', 'pdffonts', 'qpdf'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
const describeWithTools = missing.length === 0 ? describe : describe.skip;

const sample = (language: 'de' | 'en'): Reminder => ({
  language,
  company: {
    name: 'Seller GmbH',
    vatId: 'DE123456789',
    address: { line1: 'Hauptstraße 1', city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
    contact: { email: 'billing@seller.example' },
  },
  companyPayment: { meansCode: '58', iban: 'DE02120300000000202051' },
  customer: {
    name: 'Buyer AG',
    address: { line1: 'Weg 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' },
    customerNumber: '10001',
  },
  level: 2,
  title: language === 'de' ? '1. Mahnung' : 'Overdue notice',
  date: '2025-08-14',
  text:
    language === 'de'
      ? 'Sehr geehrte Damen und Herren,\n\nbitte zahlen Sie.\n\nMit freundlichen Grüßen\nSeller GmbH'
      : 'Dear Sir or Madam,\n\nPlease pay.\n\nYours faithfully\nSeller GmbH',
  invoiceNumber: 'RE-2025-0042',
  invoiceDate: '2025-05-01',
  dueDate: '2025-05-15',
  invoiceTotal: '1190.00',
  openAmount: '1000.00',
  fees: '5.00',
  flatFee: '40.00',
  interest: '26.86',
  interestPeriods: [
    { from: '2025-05-16', to: '2025-06-30', days: 46, ratePercent: '11.27' },
    { from: '2025-07-01', to: '2025-08-14', days: 45, ratePercent: '10.27' },
  ],
  total: '1071.86',
  payBy: '2025-08-21',
});

describeWithTools('renderReminderPdf', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'reminder-spec-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8' });

  it.each(['de', 'en'] as const)('renders a %s dunning letter with its table of amounts', async (lang) => {
    const file = join(dir, `reminder-${lang}.pdf`);
    writeFileSync(file, await renderReminderPdf(sample(lang)));
    expect(run('qpdf', ['--check', file])).toContain('No syntax or stream encoding errors');
    const content = run('pdftotext', ['-layout', file, '-']).replace(/\u00a0/g, ' ');
    if (lang === 'de') {
      expect(content).toContain('1. Mahnung – RE-2025-0042');
      expect(content).toMatch(/Offener Rechnungsbetrag\s+1\.000,00/);
      expect(content).toMatch(/Verzugszinsen 16\.05\.2025 – 30\.06\.2025 \(46 Tage, 11,27 % p\. a\.\)/);
      expect(content).toMatch(/Zu zahlender Betrag\s+1\.071,86/);
      expect(content).toContain('Bitte überweisen Sie 1.071,86 € bis zum 21.08.2025.');
    } else {
      expect(content).toContain('Overdue notice – RE-2025-0042');
      expect(content).toMatch(/Invoice RE-2025-0042 dated 1 May 2025\s+1,190\.00/);
      expect(content).toMatch(/Amount outstanding\s+1,000\.00/);
      expect(content).toMatch(/Late payment interest 16 May 2025 – 30 Jun 2025 \(46 days at 11\.27% a year\)/);
      expect(content).toMatch(/Total now due\s+1,071\.86/);
      expect(content).toContain('Please transfer €1,071.86 by 21 Aug 2025.');
      // one date format: "14 Aug 2025", never 14/08/2025 or 2025-08-14
      expect(content).toMatch(/Date\s+14 Aug 2025/);
      expect(content).not.toMatch(/\d{2}\/\d{2}\/\d{4}|\d{4}-\d{2}-\d{2}/);
      for (const wrong of ['dunning', 'Default interest', 'Due since', 'Amount to pay']) expect(content).not.toContain(wrong);
    }
    expect(content).toContain('Buyer AG');
  });

  it('rejects malformed amounts and dates', async () => {
    await expect(renderReminderPdf({ ...sample('de'), total: '1.071,86' })).rejects.toThrow(/total/);
    await expect(renderReminderPdf({ ...sample('de'), payBy: '21.08.2025' })).rejects.toThrow(/YYYY-MM-DD/);
  });
});
