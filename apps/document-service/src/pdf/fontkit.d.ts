// Minimal typings for fontkit 2 (the package ships none); only what fonts.ts uses.
declare module 'fontkit' {
  export interface Font {
    postscriptName: string;
    unitsPerEm: number;
    layout(text: string): unknown;
    hasGlyphForCodePoint(codePoint: number): boolean;
    glyphForCodePoint(codePoint: number): { id: number; advanceWidth: number; codePoints: number[] };
  }
  export interface FontCollection {
    fonts: Font[];
  }
  export function create(buffer: Buffer | Uint8Array, postscriptName?: string): Font | FontCollection;
}
