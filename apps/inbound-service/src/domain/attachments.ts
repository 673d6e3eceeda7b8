/**
 * Pure rules of the files a supplier embeds in an e-invoice (UBL EmbeddedDocumentBinaryObject, CII
 * AttachmentBinaryObject): which are kept, under what key and name, and with which content type they are served.
 */

export interface AttachmentLimits {
  /** Attachments stored per document at most. */
  count: number;
  /** Decoded bytes of one attachment at most. */
  bytes: number;
  /** Decoded bytes of all stored attachments of a document at most. */
  totalBytes: number;
}

/**
 * The types EN 16931 allows for attachments (its mime code list) are served as such; anything
 * else (text/html, image/svg+xml, XML…) as application/octet-stream, so that nothing a supplier embeds can be
 * rendered as active content from the storage origin. Downloads are always Content-Disposition: attachment.
 */
const SERVED_TYPES = new Set([
  'application/pdf',
  'image/png',
  'image/jpeg',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.oasis.opendocument.spreadsheet',
]);

export function servedContentType(mimeCode: string | undefined): string {
  const t = (mimeCode ?? '').trim().toLowerCase();
  return SERVED_TYPES.has(t) ? t : 'application/octet-stream';
}

const EXT: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'text/csv': 'csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
};

/** The download name: the supplier's filename (bounded, no path), else `attachment-<n>.<ext>`. */
export function attachmentFilename(n: number, filename: string | undefined, mimeCode: string | undefined): string {
  const base = (filename ?? '').split(/[\\/]/).pop()!.trim().slice(0, 200);
  if (base && base !== '.' && base !== '..') return base;
  const ext = EXT[servedContentType(mimeCode)] ?? 'bin';
  return `attachment-${n}.${ext}`;
}

/** The storage key part of a download name: ASCII letters, digits, dot, dash and underscore only, bounded. */
export function safeKeyName(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\w.-]+/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 100);
  return s || 'file';
}
