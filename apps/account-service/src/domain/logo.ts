/** The letterhead logo: what is accepted and the box it is resized into. */

/** Largest logo upload (1 MiB); the upload is cut at the first byte past it. */
export const LOGO_MAX_BYTES = 1024 * 1024;

/**
 * The PDF letterhead's logo slot is 60 x 22 mm (document-service geometry LOGO_SLOT); at 300 dpi that is
 * 709 x 260 pixels. Larger images are scaled down into it (aspect ratio kept), smaller ones stay as they are.
 */
export const LOGO_BOX = { width: 709, height: 260 } as const;

/** Decoded images larger than this many pixels are refused before decoding (decompression bombs). */
export const LOGO_MAX_INPUT_PIXELS = 50_000_000;

/** What file-type may find -> the stored type; anything else answers 415. */
export const LOGO_TYPES: Record<string, 'image/png' | 'image/jpeg'> = { 'image/png': 'image/png', 'image/jpeg': 'image/jpeg' };
