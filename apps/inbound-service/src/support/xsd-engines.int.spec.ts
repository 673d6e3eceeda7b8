import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '@inv/service-kit';
import { detectFormat, NS } from '../domain/detect-format';
import { defaultKitDir, defaultSefCacheDir, openConformanceKit } from './conformance-kit';
import { runXsd, xsdEngine } from './validator';

/** The two libxml2 builds (the xmllint program, xmllint-wasm) give the same XSD findings and refusals. */
jest.setTimeout(120_000);

const KIT = process.env.INBOUND_CONFORMANCE_DIR ?? defaultKitDir();
const kit = openConformanceKit(KIT, defaultSefCacheDir());
const UBL = readFileSync(join(KIT, 'xrechnung/examples/01.01a-INVOICE_ubl.xml'), 'utf8');
const format = detectFormat(
  { namespace: NS.ublInvoice, localName: 'Invoice' },
  'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
);

async function withEngine<T>(engine: 'xmllint' | 'wasm', work: () => Promise<T>): Promise<T | string> {
  const before = process.env.INBOUND_XSD_ENGINE;
  process.env.INBOUND_XSD_ENGINE = engine;
  try {
    return await work();
  } catch (err) {
    return err instanceof AppError ? err.code : String(err);
  } finally {
    if (before === undefined) delete process.env.INBOUND_XSD_ENGINE;
    else process.env.INBOUND_XSD_ENGINE = before;
  }
}

const engines = xsdEngine() === 'xmllint' ? (['xmllint', 'wasm'] as const) : (['wasm'] as const);

describe.each([
  ['valid', UBL],
  ['an unknown element', UBL.replace('<cbc:ID>', '<cbc:Bogus/><cbc:ID>')],
  ['a processing instruction without target', UBL.replace('<?xml version="1.0" encoding="UTF-8"?>', '<? version="1.0"?>')],
])('%s', (_name, text) => {
  it.each(engines.map((e) => [e]))('%s agrees', async (engine) => {
    const reference = await withEngine('wasm', () => runXsd(kit, text, format));
    expect(await withEngine(engine, () => runXsd(kit, text, format))).toEqual(reference);
  });
});
