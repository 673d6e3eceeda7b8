import { attachmentFilename, safeKeyName, servedContentType } from './attachments';

describe('attachments of received e-invoices', () => {
  it('serves only the types EN 16931 allows as such, anything else as application/octet-stream', () => {
    expect(servedContentType('application/pdf')).toBe('application/pdf');
    expect(servedContentType(' Image/PNG ')).toBe('image/png');
    for (const t of ['text/html', 'image/svg+xml', 'application/xhtml+xml', 'text/xml', '', undefined])
      expect(servedContentType(t)).toBe('application/octet-stream');
  });

  it('names a download after the supplier without any path, else by its place and type', () => {
    expect(attachmentFilename(1, 'Stundenzettel.pdf', 'application/pdf')).toBe('Stundenzettel.pdf');
    expect(attachmentFilename(2, '../../etc/passwd', undefined)).toBe('passwd');
    expect(attachmentFilename(3, 'C:\\temp\\scan.png', 'image/png')).toBe('scan.png');
    expect(attachmentFilename(4, undefined, 'image/jpeg')).toBe('attachment-4.jpg');
    expect(attachmentFilename(5, '..', 'text/html')).toBe('attachment-5.bin');
  });

  it('keeps storage keys to safe ASCII', () => {
    expect(safeKeyName('Rechnung März 2026.pdf')).toBe('Rechnung_Marz_2026.pdf');
    expect(safeKeyName('.hidden')).toBe('_hidden');
    expect(safeKeyName('a/b?c#d')).toBe('a_b_c_d');
    expect(safeKeyName('x'.repeat(300))).toHaveLength(100);
  });
});
