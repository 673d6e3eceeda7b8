import type { CompanyId } from '@inv/contracts';
import { createHash } from 'node:crypto';
import { fromBuffer } from 'file-type';
import sharp from 'sharp';
import { AppError, notFound } from '@inv/service-kit';
import type { CompanyDoc } from '../domain/company-doc';
import { LOGO_BOX, LOGO_MAX_INPUT_PIXELS, LOGO_TYPES, logoPixelsAllowed } from '../domain/logo';
import { swapLogo, type LogoDeps } from '../support/logo-store';

const unsupported = (found: string) =>
  new AppError('unsupported_media_type', `a logo must be a PNG or JPEG image; the upload is ${found}`, { code: 'UNSUPPORTED_LOGO_TYPE' });

/**
 * Scales the image into the letterhead box and writes it in a form every PDF/A-3 viewer shows the same:
 * EXIF orientation applied, metadata dropped, PNG flattened onto white (no alpha channel, no soft mask),
 * JPEG re-encoded as baseline sRGB.
 */
async function letterheadImage(bytes: Buffer, type: 'image/png' | 'image/jpeg') {
  try {
    const pipeline = sharp(bytes, { limitInputPixels: LOGO_MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: LOGO_BOX.width, height: LOGO_BOX.height, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb');
    const out =
      type === 'image/png'
        ? pipeline.flatten({ background: '#ffffff' }).png({ compressionLevel: 9 })
        : pipeline.jpeg({ quality: 90, progressive: false });
    return await out.toBuffer({ resolveWithObject: true });
  } catch (err) {
    throw unsupported(`not a readable ${type === 'image/png' ? 'PNG' : 'JPEG'} (${(err as Error).message})`);
  }
}

/** PUT /company/logo: the bytes are typed by their content, resized, stored under a content-derived key. */
export async function putCompanyLogo(deps: LogoDeps, companyId: CompanyId, bytes: Buffer): Promise<CompanyDoc> {
  if (!(await deps.companies.byId(companyId))) throw notFound('company');
  if (bytes.length === 0) throw unsupported('empty');
  const sniffed = await fromBuffer(bytes);
  const type = sniffed ? LOGO_TYPES[sniffed.mime] : undefined;
  if (!type) throw unsupported(sniffed ? `${sniffed.mime} (.${sniffed.ext})` : 'of unknown type');
  // the dimensions from the header (nothing decoded yet): a decompression bomb or an image far beyond the box is refused here
  const header = await sharp(bytes)
    .metadata()
    .catch((err: Error) => {
      throw unsupported(`not a readable ${type === 'image/png' ? 'PNG' : 'JPEG'} (${err.message})`);
    });
  if (!header.width || !header.height) throw unsupported('an image without dimensions');
  if (!logoPixelsAllowed(header.width, header.height))
    throw new AppError(
      'unprocessable',
      `a logo may have at most ${LOGO_MAX_INPUT_PIXELS / 1_000_000} megapixels; this one is ${header.width} x ${header.height} (${(
        (header.width * header.height) /
        1_000_000
      ).toFixed(1)} megapixels). It is scaled into ${LOGO_BOX.width} x ${LOGO_BOX.height} px anyway: send a smaller image`,
      { code: 'LOGO_DIMENSIONS_TOO_LARGE', extra: { width: header.width, height: header.height, max_pixels: LOGO_MAX_INPUT_PIXELS } },
    );
  // one or two at a time for the whole process (LOGO_CONCURRENCY), a bounded queue behind them, 503 beyond it
  const { data, info } = await deps.logoQueue.run(() => letterheadImage(bytes, type));
  const sha256 = createHash('sha256').update(data).digest('hex');
  // a new key per content: invoices being rendered while the logo changes read the one they were given
  const key = `${companyId}/company/logo-${sha256.slice(0, 16)}.${type === 'image/png' ? 'png' : 'jpg'}`;
  await deps.objects.put(key, data, type);
  const now = deps.now();
  const logo = { key, contentType: type, width: info.width, height: info.height, size: data.length, sha256, uploadedAt: now };
  const before = await swapLogo(deps, companyId, logo);
  if (before.logo && before.logo.key !== key) await deps.objects.remove(before.logo.key).catch(() => undefined);
  return { ...before, logo };
}
