import iconv from 'iconv-lite';
import { BOOKING_COLUMNS, DEBTOR_COLUMNS } from './columns';
import { amount, belegfeld, ddmm, ddmmyyyy, encodeWindows1252, headerLine, text, timestamp } from './extf';

const header = {
  category: 21 as const,
  createdAt: new Date('2026-03-05T14:04:40.439Z'),
  consultantNumber: 29098,
  clientNumber: 55003,
  fiscalYearStart: '2026-01-01',
  accountLength: 4,
  from: '2026-01-01',
  to: '2026-08-31',
  description: 'Rechnungsausgang 2026',
  chart: 'SKR03' as const,
};

describe('EXTF file rules', () => {
  it('writes the 31 header fields laid out like a header DATEV accepted', () => {
    const fields = headerLine(header).split(';');
    expect(fields).toHaveLength(31);
    expect(headerLine(header)).toBe(
      '"EXTF";700;21;"Buchungsstapel";13;20260305140440439;;"RE";"invoicing-api";"";29098;55003;20260101;4;20260101;20260831;"Rechnungsausgang 2026";"";1;0;0;"EUR";;"";;;"03";;;"";""',
    );
  });

  it('writes the master-data header without a date range, version 5, and SKR04 as "04"', () => {
    const fields = headerLine({ ...header, category: 16, chart: 'SKR04', description: 'Debitoren' }).split(';');
    expect(fields).toHaveLength(31);
    expect(fields.slice(0, 5)).toEqual(['"EXTF"', '700', '16', '"Debitoren/Kreditoren"', '5']);
    expect(fields[14]).toBe('');
    expect(fields[15]).toBe('');
    expect(fields[26]).toBe('"04"');
  });

  it('has 125 booking columns and the documented first and last headings', () => {
    expect(BOOKING_COLUMNS).toHaveLength(125);
    expect(new Set(BOOKING_COLUMNS).size).toBe(125);
    expect(BOOKING_COLUMNS[0]).toBe('Umsatz (ohne Soll/Haben-Kz)');
    expect(BOOKING_COLUMNS[19]).toBe('Beleglink');
    expect(BOOKING_COLUMNS[114]).toBe('Leistungsdatum'); // field 115
    expect(BOOKING_COLUMNS[124]).toBe('Abw. Skontokonto');
    expect(DEBTOR_COLUMNS.slice(0, 10)).toEqual([
      'Konto',
      'Name (Adressatentyp Unternehmen)',
      'Unternehmensgegenstand',
      'Name (Adressatentyp natürl. Person)',
      'Vorname (Adressatentyp natürl. Person)',
      'Name (Adressatentyp keine Angabe)',
      'Adressatentyp',
      'Kurzbezeichnung',
      'EU-Land',
      'EU-USt-IdNr.',
    ]);
  });

  it('quotes texts, doubles inner quotes, flattens line breaks and cuts to the limit', () => {
    expect(text('Müller "Bau" GmbH')).toBe('"Müller ""Bau"" GmbH"');
    expect(text('a\r\nb\tc')).toBe('"a b c"');
    expect(text('x'.repeat(80), 60)).toBe(`"${'x'.repeat(60)}"`);
    expect(text(undefined)).toBe('""');
  });

  it('writes amounts with a decimal comma, two decimals, no thousands separator, rounded half up', () => {
    expect(amount('1234567.5')).toBe('1234567,50');
    expect(amount('0.005')).toBe('0,01');
    expect(amount('-19.994')).toBe('19,99');
    expect(amount(0)).toBe('0,00');
  });

  it('formats dates as DATEV wants them', () => {
    expect(ddmm('2026-03-05')).toBe('0503');
    expect(ddmmyyyy('2026-03-05')).toBe('05032026');
    expect(timestamp(new Date('2026-12-31T23:59:58.007Z'))).toBe('20261231235958007');
  });

  it('keeps only the characters Belegfeld 1 allows, at most 36', () => {
    expect(belegfeld('RE 2026/0001_ä')).toBe('RE2026/0001');
    expect(belegfeld('A'.repeat(40))).toHaveLength(36);
  });

  it('encodes Windows-1252 (not latin1): ä ö ü ß and € as single bytes, the rest as ?', () => {
    const bytes = encodeWindows1252('äöüß€–✓');
    expect([...bytes]).toEqual([0xe4, 0xf6, 0xfc, 0xdf, 0x80, 0x96, 0x3f]);
    expect(iconv.decode(bytes, 'win1252')).toBe('äöüß€–?');
  });
});
