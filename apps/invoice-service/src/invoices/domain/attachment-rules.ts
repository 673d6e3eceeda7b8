import { stripUnsafeChars } from '@inv/contracts';

/** Limits and accepted types of invoice attachments (the spec: PDF, DOCX, XLSX, images, at most 5 MB). */
export const ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;
export const ATTACHMENTS_PER_INVOICE = 20;
export const ATTACHMENT_BYTES_PER_INVOICE = 25 * 1024 * 1024;
export const ATTACHMENT_DESCRIPTION_MAX = 500;

/** What file-type may find (sniffed from the content, never from the name) -> the stored content type. */
export const ACCEPTED_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  tif: 'image/tiff',
};

/** The content type to store for a sniffed extension, or why it is refused. */
export function acceptType(
  found: { ext: string; mime: string } | undefined,
): { ok: true; contentType: string; ext: string } | { ok: false; found: string } {
  if (!found) return { ok: false, found: 'no known binary format (text, HTML, or an unrecognised file)' };
  const contentType = ACCEPTED_TYPES[found.ext];
  return contentType ? { ok: true, contentType, ext: found.ext } : { ok: false, found: `${found.mime} (.${found.ext})` };
}

/**
 * A file name safe to store and to send in Content-Disposition: no path, no control characters, no
 * bidirectional overrides or isolates (`rechnung\u202Egpj.pdf` would show as `rechnungfdp.jpg`; see
 * libs/contracts safe-text.ts), no characters file systems or headers choke on; at most 120 characters;
 * the sniffed extension wins.
 */
export function sanitizeFilename(name: string | undefined, ext: string): string {
  const base = stripUnsafeChars((name ?? '').split(/[\\/]/).pop()!.normalize('NFC'))
    .replace(/["*:<>?|]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  // cut by code points, never inside a surrogate pair
  const stem =
    Array.from(base.replace(/\.[A-Za-z0-9]{1,5}$/, ''))
      .slice(0, 110)
      .join('')
      .trim() || 'attachment';
  return `${stem}.${ext === 'jpg' ? 'jpg' : ext}`;
}
