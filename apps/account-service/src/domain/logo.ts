/** The letterhead logo: what is accepted and the box it is resized into. */

/** Largest logo upload (1 MiB); the upload is cut at the first byte past it. */
export const LOGO_MAX_BYTES = 1024 * 1024;

/**
 * The PDF letterhead's logo slot is 60 x 22 mm (document-service geometry LOGO_SLOT); at 300 dpi that is
 * 709 x 260 pixels. Larger images are scaled down into it (aspect ratio kept), smaller ones stay as they are.
 */
export const LOGO_BOX = { width: 709, height: 260 } as const;

/**
 * Images larger than this many pixels are refused from their header, before decoding (decompression bombs, and
 * the CPU a large one costs: 24 parallel 49-megapixel logos took the other tenants' p99 from 51 to 697 ms).
 * 25 megapixels is a 5000 x 5000 image, far more than the 709 x 260 box needs.
 */
export const LOGO_MAX_INPUT_PIXELS = 25_000_000;

/** Whether an image of these dimensions may be processed (422 LOGO_DIMENSIONS_TOO_LARGE otherwise). */
export const logoPixelsAllowed = (width: number, height: number, max = LOGO_MAX_INPUT_PIXELS) => width * height <= max;

/** What file-type may find -> the stored type; anything else answers 415. */
export const LOGO_TYPES: Record<string, 'image/png' | 'image/jpeg'> = { 'image/png': 'image/png', 'image/jpeg': 'image/jpeg' };
