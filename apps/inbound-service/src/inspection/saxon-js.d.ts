/** The part of SaxonJS 2 (Saxonica's XSLT 3.0 processor; the npm package has no types) this service uses. */
declare module 'saxon-js' {
  interface XPathOptions {
    params?: Record<string, unknown>;
    namespaceContext?: Record<string, string>;
    resultForm?: 'default' | 'array' | 'iterator' | 'xdm';
  }
  interface TransformResult {
    principalResult: unknown;
  }
  const SaxonJS: {
    XPath: { evaluate(xpath: string, context: unknown, options?: XPathOptions): unknown };
    transform(
      options: { stylesheetInternal: unknown; sourceNode: unknown; destination: 'document' | 'serialized' | 'raw' },
      mode: 'sync',
    ): TransformResult;
  };
  export default SaxonJS;
}
