import { z } from 'zod';

/** Invoice attachments and e-mail delivery. */
export const Attachment = z
  .object({
    id: z.number().int(),
    filename: z.string().meta({ description: 'sanitised; the extension follows the sniffed type' }),
    content_type: z.string().meta({ description: 'sniffed from the content, never taken from the name' }),
    size: z.number().int().meta({ description: 'bytes' }),
    sha256: z.string(),
    description: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({
    id: 'Attachment',
    example: { id: 12, filename: 'AGB 2026.pdf', content_type: 'application/pdf', size: 48211, sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', description: 'Terms and conditions', created_at: '2026-11-24T09:00:00.000Z' },
  });

export const AttachmentUpload = z
  .object({
    file: z.string().meta({ format: 'binary', description: 'PDF, DOCX, XLSX, PNG, JPEG, WebP, GIF or TIFF; at most 5 MiB (5,242,880 bytes)' }),
    description: z.string().max(500).optional(),
  })
  .meta({ id: 'AttachmentUpload' });

export const AttachmentLink = z
  .object({ url: z.string().meta({ description: 'presigned; valid for expires_in seconds' }), filename: z.string(), content_type: z.string(), expires_in: z.number().int() })
  .meta({ id: 'AttachmentLink' });
