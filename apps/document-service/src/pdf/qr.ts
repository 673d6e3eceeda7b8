import { create } from 'qrcode';
import type { Canvas } from './canvas';

/** Light modules the symbol needs free around it (ISO/IEC 18004 quiet zone). */
export const QUIET_ZONE_MODULES = 4;

export interface QrMatrix {
  size: number;
  dark: (row: number, col: number) => boolean;
}

/**
 * The QR matrix of a payload, from the `qrcode` package: one byte-mode segment of the UTF-8 bytes (what
 * EPC069-12 character set 1 means; no mode switching inside the text), error correction level M.
 */
export function qrMatrix(payload: string): QrMatrix {
  const { modules } = create([{ mode: 'byte', data: Buffer.from(payload, 'utf8') }], { errorCorrectionLevel: 'M' });
  return { size: modules.size, dark: (row, col) => modules.get(row, col) === 1 };
}

/**
 * Draws the matrix as vector rectangles (one per horizontal run of dark modules, all in one filled path, so
 * that no seams show between neighbours and the PDF stays free of images), `width` wide with its top left
 * corner at x, y. The quiet zone is not drawn: the caller keeps it free.
 */
export function drawQr(c: Canvas, matrix: QrMatrix, x: number, y: number, width: number): void {
  const doc = c.doc;
  const m = width / matrix.size;
  doc.save();
  for (let row = 0; row < matrix.size; row++) {
    let col = 0;
    while (col < matrix.size) {
      if (!matrix.dark(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < matrix.size && matrix.dark(row, col)) col++;
      doc.rect(x + start * m, y + row * m, (col - start) * m, m);
    }
  }
  doc.fillColor('#000000').fill();
  doc.restore();
}
