import { create } from 'xmlbuilder2';

/** The part of the DOM Element the tests use (the tsconfig has no DOM lib; xmlbuilder2 parses into a DOM). */
export interface XmlElement {
  tagName: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  getElementsByTagName(qualifiedName: string): ArrayLike<XmlElement>;
}

/** Test helper: parses XML (throws if malformed) and reads element texts by qualified name. */
export function parseXml(xml: string) {
  const root = create(xml).root().node as unknown as XmlElement;
  const all = (qname: string): XmlElement[] => Array.from(root.getElementsByTagName(qname));
  return {
    root,
    all,
    texts: (qname: string): string[] => all(qname).map((e) => e.textContent ?? ''),
    text: (qname: string): string | undefined => all(qname)[0]?.textContent ?? undefined,
    count: (qname: string): number => all(qname).length,
  };
}
