/**
 * XMP snippets appended to pdfkit's metadata packet. Kept pure ASCII: pdfkit writes the packet as a
 * string whose extra `length` entry counts characters, and ASCII keeps characters and bytes equal.
 */

/** XML-escapes a text value and writes every non-ASCII character as a numeric reference. */
export function xmlTextAscii(value: string): string {
  let out = '';
  for (const ch of value) {
    const cp = ch.codePointAt(0)!;
    if (ch === '&') out += '&amp;';
    else if (ch === '<') out += '&lt;';
    else if (ch === '>') out += '&gt;';
    else if (ch === '"') out += '&quot;';
    else if (ch === "'") out += '&apos;';
    else if (cp < 0x20 && ch !== '\n' && ch !== '\t' && ch !== '\r')
      continue; // not allowed in XML 1.0
    else if (cp > 0x7e) out += `&#x${cp.toString(16).toUpperCase()};`;
    else out += ch;
  }
  return out;
}

export type FacturXConformanceLevel = 'MINIMUM' | 'BASIC WL' | 'BASIC' | 'EN 16931' | 'EXTENDED' | 'XRECHNUNG';

export interface FacturXXmpOptions {
  /** `factur-x.xml` (Factur-X 1.0 / ZUGFeRD 2.x) or `xrechnung.xml` (profile XRECHNUNG). */
  fileName: string;
  conformanceLevel: FacturXConformanceLevel;
  documentType?: 'INVOICE';
  version?: '1.0';
}

const FX_NS = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';

function property(name: string, description: string): string {
  return `<rdf:li rdf:parseType="Resource">
<pdfaProperty:name>${name}</pdfaProperty:name>
<pdfaProperty:valueType>Text</pdfaProperty:valueType>
<pdfaProperty:category>external</pdfaProperty:category>
<pdfaProperty:description>${description}</pdfaProperty:description>
</rdf:li>`;
}

/**
 * The Factur-X metadata (fx:DocumentType, fx:DocumentFileName, fx:Version, fx:ConformanceLevel) plus
 * the PDF/A extension schema that declares the fx namespace: PDF/A allows custom XMP properties only
 * when the document describes their schema itself.
 */
export function facturXXmp(options: FacturXXmpOptions): string {
  const fileName = xmlTextAscii(options.fileName);
  return `<rdf:Description rdf:about="" xmlns:fx="${FX_NS}">
<fx:DocumentType>${options.documentType ?? 'INVOICE'}</fx:DocumentType>
<fx:DocumentFileName>${fileName}</fx:DocumentFileName>
<fx:Version>${options.version ?? '1.0'}</fx:Version>
<fx:ConformanceLevel>${xmlTextAscii(options.conformanceLevel)}</fx:ConformanceLevel>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
<pdfaExtension:schemas>
<rdf:Bag>
<rdf:li rdf:parseType="Resource">
<pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
<pdfaSchema:namespaceURI>${FX_NS}</pdfaSchema:namespaceURI>
<pdfaSchema:prefix>fx</pdfaSchema:prefix>
<pdfaSchema:property>
<rdf:Seq>
${property('DocumentFileName', 'The name of the embedded XML document')}
${property('DocumentType', 'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER')}
${property('Version', 'The actual version of the standard applying to the embedded XML document')}
${property('ConformanceLevel', 'The conformance level of the embedded XML document')}
</rdf:Seq>
</pdfaSchema:property>
</rdf:li>
</rdf:Bag>
</pdfaExtension:schemas>
</rdf:Description>`;
}

/** Info-dictionary text that pdfkit may copy verbatim into the XMP (it does not escape it). */
export function isXmpSafeInfoText(value: string): boolean {
  return /^[\x20-\x7e]*$/.test(value) && !/[&<>]/.test(value);
}
