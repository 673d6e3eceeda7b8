import iconv from 'iconv-lite';
import { roundAmount, toDecimal, type DecimalInput } from '@inv/money';

/**
 * The EXTF file rules (shared/spec/datev-extf.md): `;` separated, texts in double quotes with inner quotes
 * doubled, numbers unquoted with a decimal comma and no thousands separator, CRLF line ends, Windows-1252.
 * Pure functions; the encoding is iconv-lite's (characters Windows-1252 lacks become `?`).
 */
export const CRLF = '\r\n';

/** A quoted text field, cut to `max` characters; line breaks and tabs become spaces. */
export function text(value: string | undefined | null, max = 255): string {
  if (value === undefined || value === null || value === '') return '""';
  const clean = value.replace(/[\r\n\t]+/g, ' ').slice(0, max);
  return `"${clean.replace(/"/g, '""')}"`;
}

/** An amount with 2 decimals and a decimal comma (always positive in Umsatz; the sign is the S/H flag). */
export function amount(value: DecimalInput): string {
  return roundAmount(toDecimal(value)).abs().toFixed(2).replace('.', ',');
}

/** YYYY-MM-DD -> TTMM (Belegdatum). */
export const ddmm = (iso: string) => `${iso.slice(8, 10)}${iso.slice(5, 7)}`;
/** YYYY-MM-DD -> TTMMJJJJ (Leistungsdatum, Fälligkeit). */
export const ddmmyyyy = (iso: string) => `${iso.slice(8, 10)}${iso.slice(5, 7)}${iso.slice(0, 4)}`;
/** YYYY-MM-DD -> YYYYMMDD (header dates). */
export const yyyymmdd = (iso: string) => iso.replace(/-/g, '');

/** Erzeugt am: YYYYMMDDHHMMSSFFF (UTC). */
export function timestamp(at: Date): string {
  return at
    .toISOString()
    .replace(/[-:TZ.]/g, '')
    .slice(0, 17);
}

/** Belegfeld 1 (the open-item key): letters, digits and `$ & % * + - /` only, at most 36 characters. */
export function belegfeld(value: string): string {
  return value.replace(/[^A-Za-z0-9$&%*+\-/]/g, '').slice(0, 36);
}

/** A line of fields joined by `;`. */
export const line = (fields: readonly string[]) => fields.join(';');

/** The whole file as DATEV reads it: Windows-1252 bytes. */
export function encodeWindows1252(content: string): Buffer {
  return iconv.encode(content, 'win1252');
}

export interface HeaderInput {
  category: 21 | 16;
  createdAt: Date;
  consultantNumber: number;
  clientNumber: number;
  fiscalYearStart: string; // YYYY-MM-DD
  accountLength: number;
  from?: string; // YYYY-MM-DD, Buchungsstapel only
  to?: string;
  description: string;
  chart: 'SKR03' | 'SKR04';
}

/** The 31 header fields (line 1), laid out like a header DATEV's format check accepted. */
export function headerLine(h: HeaderInput): string {
  const bookings = h.category === 21;
  const fields = [
    text('EXTF'),
    '700',
    String(h.category),
    text(bookings ? 'Buchungsstapel' : 'Debitoren/Kreditoren'),
    bookings ? '13' : '5',
    timestamp(h.createdAt),
    '', // Importiert
    text('RE'), // Herkunft
    text('invoicing-api', 25), // Exportiert von
    text(''), // Importiert von
    String(h.consultantNumber),
    String(h.clientNumber),
    yyyymmdd(h.fiscalYearStart),
    String(h.accountLength),
    bookings && h.from ? yyyymmdd(h.from) : '',
    bookings && h.to ? yyyymmdd(h.to) : '',
    text(h.description, 30),
    text(''), // Diktatkürzel
    bookings ? '1' : '', // Buchungstyp: Finanzbuchführung
    bookings ? '0' : '', // Rechnungslegungszweck
    bookings ? '0' : '', // Festschreibung: the advisor decides
    text('EUR'),
    '',
    text(''),
    '',
    '',
    text(h.chart === 'SKR04' ? '04' : '03'),
    '',
    '',
    text(''),
    text(''),
  ];
  return line(fields);
}
