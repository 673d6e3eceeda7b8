import { create } from 'xmlbuilder2';

/** Test helper: parses XML (throws if malformed) and reads element texts by qualified name. */
export function parseXml(xml: string) {
  const root = create(xml).root().node as unknown as Element;
  const all = (qname: string): Element[] => Array.from(root.getElementsByTagName(qname));
  return {
    root,
    all,
    texts: (qname: string): string[] => all(qname).map((e) => e.textContent ?? ''),
    text: (qname: string): string | undefined => all(qname)[0]?.textContent ?? undefined,
    count: (qname: string): number => all(qname).length,
  };
}
