import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { threadId } from 'node:worker_threads';
import type { InboundFormat } from '@inv/contracts';

const run = promisify(execFile);

/**
 * The official validation artefacts (shared/conformance, see its README): XSD schemas and the Schematron rules
 * compiled to XSLT. In CI and on developer machines the kit lies next to the clone (`../shared/conformance`);
 * INBOUND_CONFORMANCE_DIR points elsewhere (the image copies it to a fixed folder).
 */
export function defaultKitDir(): string {
  return join(__dirname, '../../../../../shared/conformance');
}

/** Where compiled stylesheets (SEF) are kept between starts: never in the repository. */
export function defaultSefCacheDir(xdgCacheHome?: string): string {
  return join(xdgCacheHome ?? join(homedir(), '.cache'), 'invoicing-inbound', 'sef');
}

/**
 * Which libxml2 runs the XSD check: the `xmllint` program (Debian libxml2-utils, the kit's own tool) when it is
 * installed, else the same library compiled to WebAssembly (xmllint-wasm, no native build). Both are libxml2 and
 * give the same findings (xsd-engines.int.spec.ts); the program costs ~80 ms of CPU for a UBL invoice, the
 * WebAssembly build ~650 ms (it starts a thread, instantiates the module and compiles the 16 UBL schemas on
 * every call), so the program is preferred.
 */
export type XsdEngine = 'xmllint' | 'wasm';
export function resolveXsdEngine(choice: XsdEngine | 'auto'): XsdEngine {
  if (choice !== 'auto') return choice;
  return spawnSync('xmllint', ['--version'], { stdio: 'ignore', timeout: 5000 }).status === 0 ? 'xmllint' : 'wasm';
}

export type RuleSet = 'en16931-cii' | 'en16931-ubl' | 'xrechnung-cii' | 'xrechnung-ubl' | 'peppol-ubl';

const STYLESHEETS: Record<RuleSet, string> = {
  'en16931-cii': 'en16931/cii/xslt/EN16931-CII-validation.xslt',
  'en16931-ubl': 'en16931/ubl/xslt/EN16931-UBL-validation.xslt',
  'xrechnung-cii': 'xrechnung/xslt/XRechnung-CII-validation.xslt',
  'xrechnung-ubl': 'xrechnung/xslt/XRechnung-UBL-validation.xslt',
  'peppol-ubl': 'peppol/xslt/PEPPOL-EN16931-UBL.xslt',
};

export type Syntax = 'cii' | 'ubl-invoice' | 'ubl-creditnote';

/**
 * What the kit's `validate` runs per format (its FORMATS table), in the same order, with the same rule level
 * changes KoSIT's XRechnung scenarios apply (BR-CL-21/23 are warnings, CII-SR-452..454 errors).
 */
export const RULES_OF: Record<InboundFormat, { rules: RuleSet[]; levels: Record<string, Severity> }> = {
  'cii-en16931': { rules: ['en16931-cii'], levels: {} },
  'factur-x': { rules: ['en16931-cii'], levels: {} },
  'xrechnung-cii': {
    rules: ['en16931-cii', 'xrechnung-cii'],
    levels: { 'BR-CL-21': 'warning', 'BR-CL-23': 'warning', 'CII-SR-452': 'error', 'CII-SR-453': 'error', 'CII-SR-454': 'error' },
  },
  'xrechnung-ubl': { rules: ['en16931-ubl', 'xrechnung-ubl'], levels: { 'BR-CL-21': 'warning', 'BR-CL-23': 'warning' } },
  'peppol-ubl': { rules: ['en16931-ubl', 'peppol-ubl'], levels: {} },
  'ubl-en16931': { rules: ['en16931-ubl'], levels: {} },
};

export type Severity = 'fatal' | 'error' | 'warning' | 'information';

export interface XsdFile {
  fileName: string;
  contents: string;
}
export interface XsdSet {
  main: XsdFile;
  others: XsdFile[];
  /** The main schema's file in the kit (for the xmllint program, which reads the imports beside it). */
  mainPath: string;
}

export interface ConformanceKit {
  dir: string;
  xsdEngine: XsdEngine;
  /** The compiled stylesheet of a rule set (JSON text parsed once). */
  stylesheet(set: RuleSet): Promise<unknown>;
  xsd(syntax: Syntax): Promise<XsdSet>;
}

/**
 * Opens the kit and compiles each stylesheet once into the cache folder with xslt3 (Saxonica's compiler for
 * SaxonJS; SaxonJS itself only runs compiled SEF). The cache file is named by the XSLT's SHA-256, so a newer
 * kit compiles anew and never runs stale rules. Compiling takes 10-60 s per stylesheet: `warm()` at start.
 */
export function openConformanceKit(dir: string, cacheDir: string, xsdEngine: XsdEngine | 'auto' = 'auto'): ConformanceKit {
  if (!existsSync(join(dir, 'validate'))) throw new Error(`conformance kit not found at ${dir} (set INBOUND_CONFORMANCE_DIR)`);
  const sheets = new Map<RuleSet, Promise<unknown>>();
  const schemas = new Map<Syntax, Promise<XsdSet>>();

  async function compile(set: RuleSet): Promise<unknown> {
    const xslt = join(dir, STYLESHEETS[set]);
    const hash = createHash('sha256').update(readFileSync(xslt)).digest('hex').slice(0, 16);
    const sef = join(cacheDir, `${basename(xslt, '.xslt')}-${hash}.sef.json`);
    if (!existsSync(sef)) {
      await mkdir(cacheDir, { recursive: true });
      const tmp = `${sef}.${process.pid}-${threadId}.tmp`;
      try {
        await run(process.execPath, [require.resolve('xslt3/xslt3.js'), `-xsl:${xslt}`, `-export:${tmp}`, '-nogo'], {
          maxBuffer: 16 * 1024 * 1024,
        });
        await rename(tmp, sef); // atomic: a concurrent start never reads half a file
      } finally {
        await rm(tmp, { force: true });
      }
    }
    return JSON.parse(await readFile(sef, 'utf8'));
  }

  async function loadXsd(syntax: Syntax): Promise<XsdSet> {
    const root = syntax === 'cii' ? join(dir, 'xsd/cii-d16b') : join(dir, 'xsd/ubl-2.1');
    const mainPath =
      syntax === 'cii'
        ? 'CrossIndustryInvoice_100pD16B.xsd'
        : syntax === 'ubl-invoice'
          ? 'maindoc/UBL-Invoice-2.1.xsd'
          : 'maindoc/UBL-CreditNote-2.1.xsd';
    const files: XsdFile[] = [];
    const walk = async (d: string) => {
      for (const e of await readdir(d, { withFileTypes: true })) {
        const p = join(d, e.name);
        if (e.isDirectory()) await walk(p);
        else if (e.name.endsWith('.xsd')) files.push({ fileName: relative(root, p), contents: await readFile(p, 'utf8') });
      }
    };
    await walk(root);
    const main = files.find((f) => f.fileName === mainPath);
    if (!main) throw new Error(`schema ${mainPath} missing in ${root}`);
    // the other maindoc schema is not imported by the main one: leave it out of the in-memory file system
    return { main, others: files.filter((f) => f !== main && dirname(f.fileName) !== 'maindoc'), mainPath: join(root, mainPath) };
  }

  return {
    dir,
    xsdEngine: resolveXsdEngine(xsdEngine),
    stylesheet(set) {
      let p = sheets.get(set);
      if (!p) {
        p = compile(set);
        p.catch(() => sheets.delete(set)); // a failed compile is tried again on the next use
        sheets.set(set, p);
      }
      return p;
    },
    xsd(syntax) {
      let p = schemas.get(syntax);
      if (!p) {
        p = loadXsd(syntax);
        p.catch(() => schemas.delete(syntax));
        schemas.set(syntax, p);
      }
      return p;
    },
  };
}

/** Compiles and loads every stylesheet and schema (at start, so the first request pays nothing). */
export async function warmKit(kit: ConformanceKit): Promise<void> {
  for (const set of Object.keys(STYLESHEETS) as RuleSet[]) await kit.stylesheet(set);
  for (const s of ['cii', 'ubl-invoice', 'ubl-creditnote'] as Syntax[]) await kit.xsd(s);
}
