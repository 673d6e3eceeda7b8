import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '@inv/service-kit';
import { detectFormat, NS } from '../domain/detect-format';
import { defaultKitDir, defaultSefCacheDir, openConformanceKit, resolveXsdEngine } from './conformance-kit';
import { runXsd } from './validator';

/** The two libxml2 builds (the xmllint program, xmllint-wasm) give the same XSD findings and refusals. */
jest.setTimeout(120_000);

const KIT = process.env.INBOUND_CONFORMANCE_DIR ?? defaultKitDir();
const UBL = readFileSync(join(KIT, 'xrechnung/examples/01.01a-INVOICE_ubl.xml'), 'utf8');
const format = detectFormat(
  { namespace: NS.ublInvoice, localName: 'Invoice' },
  'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
);

async function withEngine<T>(
  engine: 'xmllint' | 'wasm',
  work: (kit: ReturnType<typeof openConformanceKit>) => Promise<T>,
): Promise<T | string> {
  try {
    return await work(openConformanceKit(KIT, defaultSefCacheDir(), engine));
  } catch (err) {
    return err instanceof AppError ? err.code : String(err);
  }
}

const engines = resolveXsdEngine('auto') === 'xmllint' ? (['xmllint', 'wasm'] as const) : (['wasm'] as const);

describe.each([
  ['valid', UBL],
  ['an unknown element', UBL.replace('<cbc:ID>', '<cbc:Bogus/><cbc:ID>')],
  ['a processing instruction without target', UBL.replace('<?xml version="1.0" encoding="UTF-8"?>', '<? version="1.0"?>')],
])('%s', (_name, text) => {
  it.each(engines.map((e) => [e]))('%s agrees', async (engine) => {
    const reference = await withEngine('wasm', (kit) => runXsd(kit, text, format));
    expect(await withEngine(engine, (kit) => runXsd(kit, text, format))).toEqual(reference);
  });
});
