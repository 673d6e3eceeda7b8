import { spawn } from 'node:child_process';
import SaxonJS from 'saxon-js';
import { validateXML } from 'xmllint-wasm';
import type { InboundFinding } from '@inv/contracts';
import { AppError } from '@inv/service-kit';
import type { DetectedFormat } from '../domain/detect-format';
import { RULES_OF, type ConformanceKit, type RuleSet, type Severity, type XsdSet } from './conformance-kit';

/** A parsed document (SaxonJS's DOM): read by XPath and handed to the stylesheets without a second parse. */
export type XmlDoc = unknown;

/** Parses well-formed XML (the text passed guardXml: no DTD, UTF-8, bounded depth); 400 XML_NOT_WELL_FORMED otherwise. */
export function parseXml(text: string): XmlDoc {
  try {
    return SaxonJS.XPath.evaluate('parse-xml($x)', [], { params: { x: text } });
  } catch (err) {
    const message = String((err as Error)?.message ?? err)
      .split('\n')[0]!
      .slice(0, 300);
    throw new AppError('invalid_data', `the document is not well-formed XML: ${message}`, { code: 'XML_NOT_WELL_FORMED' });
  }
}

/** One XPath 3.1 expression against a node, as a string ('' when empty). */
export function xpathString(xpath: string, context: unknown): string {
  return String(SaxonJS.XPath.evaluate(`string((${xpath})[1])`, context) ?? '');
}

export function xpathNodes(xpath: string, context: unknown): unknown[] {
  return SaxonJS.XPath.evaluate(xpath, context, { resultForm: 'array' }) as unknown[];
}

const SOURCE: Record<RuleSet, InboundFinding['source']> = {
  'en16931-cii': 'en16931',
  'en16931-ubl': 'en16931',
  'xrechnung-cii': 'xrechnung',
  'xrechnung-ubl': 'xrechnung',
  'peppol-ubl': 'peppol',
};

/** "/*:Invoice[namespace-uri()='urn:…'][1]/*:ID[…][1]" → "/Invoice[1]/ID[1]" (as the kit's validate prints it). */
const shortPath = (p: string) => p.replace(/\*:([\w.-]+)\[namespace-uri\(\)='[^']*'\]/g, '$1');

interface SvrlElement {
  localName: string;
  getAttribute(name: string): string | null;
}

/**
 * Runs one compiled Schematron stylesheet and reads its SVRL report: every failed-assert and
 * successful-report with its rule id, severity (the rule's flag, with the format's level changes), location
 * and text.
 */
export function runSchematron(sef: unknown, doc: XmlDoc, set: RuleSet, levels: Record<string, Severity>): InboundFinding[] {
  const res = SaxonJS.transform({ stylesheetInternal: sef, sourceNode: doc, destination: 'document' }, 'sync');
  const out: InboundFinding[] = [];
  for (const n of xpathNodes('//*:failed-assert | //*:successful-report', res.principalResult) as SvrlElement[]) {
    const rule = n.getAttribute('id') || '?';
    const flag = n.getAttribute('flag');
    const severity: Severity =
      levels[rule] ??
      (flag === 'fatal' || flag === 'error' || flag === 'warning' || flag === 'information'
        ? flag
        : n.localName === 'failed-assert'
          ? 'error'
          : 'information');
    // successful-reports are never failures: the kit counts only failed-asserts flagged fatal or error
    const effective: Severity =
      n.localName === 'successful-report' && (severity === 'fatal' || severity === 'error') ? 'warning' : severity;
    const text = String(SaxonJS.XPath.evaluate('normalize-space(*:text)', n) ?? '');
    out.push({
      rule,
      severity: effective,
      location: shortPath(n.getAttribute('location') ?? ''),
      // most rule texts repeat their id ("[BR-CO-15]-Invoice total …"): drop that prefix
      message: text.replace(/^\[([^\]]*)\]\s*-?\s*/, (m, g: string) => (g === rule ? '' : m)),
      source: SOURCE[set],
    });
  }
  return out;
}

interface XsdMessage {
  line?: number;
  message: string;
  parser: boolean;
}

/** A well-formedness error refuses the document (libxml2 is the strict parser; SaxonJS's accepts e.g. a processing instruction without target), as the kit's `xmllint --noout` step does. */
function toFindings(messages: XsdMessage[]): InboundFinding[] {
  const parserError = messages.find((m) => m.parser);
  if (parserError)
    throw new AppError(
      'invalid_data',
      `the document is not well-formed XML: line ${parserError.line ?? '?'}: ${parserError.message.slice(0, 300)}`,
      {
        code: 'XML_NOT_WELL_FORMED',
      },
    );
  return messages.map((m) => ({
    rule: 'XSD',
    severity: 'error' as const,
    location: m.line ? `line ${m.line}` : '',
    message: m.message,
    source: 'xsd' as const,
  }));
}

const isParserError = (text: string) => /parser error|namespace error/i.test(text);

/** The xmllint program, the document on stdin, --nonet (no network even if a schema imported by URL). */
function runXmllint(text: string, schemaPath: string): Promise<XsdMessage[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('xmllint', ['--nonet', '--noout', '--schema', schemaPath, '-'], {
      stdio: ['pipe', 'ignore', 'pipe'],
      timeout: 60_000,
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => {
      if (stderr.length < 1_000_000) stderr += d; // bounded: a document with very many errors
    });
    child.on('error', reject);
    child.stdin.on('error', () => undefined); // xmllint may stop reading at a fatal error
    child.on('close', (code) => {
      if (code === 0) return resolve([]);
      // "-:LINE: element X: Schemas validity error : message" / "-:LINE: parser error : message"
      const messages: XsdMessage[] = [];
      for (const line of stderr.split('\n')) {
        const m = /^-:(\d+): (?:.*?)(Schemas validity error|parser error|namespace error)\s*:\s*(.*)$/.exec(line.trim());
        if (m) messages.push({ line: Number(m[1]), message: m[3]!.trim(), parser: m[2] !== 'Schemas validity error' });
      }
      if (code === 1 && !messages.length) messages.push({ message: stderr.split('\n')[0] ?? 'not well-formed', parser: true });
      if (code !== 1 && code !== 3 && !messages.length) return reject(new Error(`xmllint exited with ${code}: ${stderr.slice(0, 300)}`));
      resolve(messages);
    });
    child.stdin.end(text);
  });
}

async function runWasm(text: string, xsd: XsdSet): Promise<XsdMessage[]> {
  const result = await validateXML({
    xml: [{ fileName: 'document.xml', contents: text }],
    schema: [xsd.main],
    preload: xsd.others,
    // the in-memory file system has no network anyway; --nonet says so to libxml2 as well
    modifyArguments: (args) => ['--nonet', ...args],
    maxMemoryPages: 2048, // 128 MiB: a 5 MB document with the UBL schema set fits
  });
  if (result.valid) return [];
  return result.errors.map((e) => ({
    line: e.loc?.lineNumber,
    message: e.message.replace(/^(Schemas validity error|parser error|namespace error)\s*:\s*/, '').trim(),
    parser: isParserError(e.message),
  }));
}

/** XSD validation of the document with the schema of its syntax, in another thread or process than the stylesheets. */
export async function runXsd(kit: ConformanceKit, text: string, format: DetectedFormat): Promise<InboundFinding[]> {
  const xsd = await kit.xsd(format.xsd);
  return toFindings(kit.xsdEngine === 'xmllint' ? await runXmllint(text, xsd.mainPath) : await runWasm(text, xsd));
}

/** XSD and every Schematron rule set of the format, in the kit's order (XSD first). */
export async function validateDocument(
  kit: ConformanceKit,
  text: string,
  doc: XmlDoc,
  format: DetectedFormat,
): Promise<{ findings: InboundFinding[]; rulesApplied: string[] }> {
  const { rules, levels } = RULES_OF[format.format];
  // libxml2 runs in its worker thread while the stylesheets run here
  const xsd = runXsd(kit, text, format).then(
    (findings) => ({ findings }),
    (error: unknown) => ({ error }),
  );
  const sheets = await Promise.all(rules.map((r) => kit.stylesheet(r)));
  const findings: InboundFinding[] = [];
  rules.forEach((set, i) => {
    try {
      findings.push(...runSchematron(sheets[i], doc, set, levels));
    } catch (err) {
      // as the kit's validate: a rule set that cannot run on the document is an error of the document
      const message = String((err as Error)?.message ?? err)
        .split('\n')[0]!
        .slice(0, 300);
      findings.push({ rule: 'SCHEMATRON', severity: 'error', location: '', message: `${set}: ${message}`, source: SOURCE[set] });
    }
  });
  const xsdResult = await xsd;
  if ('error' in xsdResult) throw xsdResult.error;
  return { findings: [...xsdResult.findings, ...findings], rulesApplied: ['xsd', ...rules] };
}
