import { createHash } from 'node:crypto';
import { fromBuffer } from 'file-type';
import sharp from 'sharp';
import type { ObjectStore } from '@inv/objects';
import { eventMessage } from '@inv/runtime';
import { AppError, notFound } from '@inv/service-kit';
import type { CompanyDoc } from '../db/companies';
import { LOGO_BOX, LOGO_MAX_INPUT_PIXELS, LOGO_TYPES } from '../domain/logo';
import type { CompanyDeps } from './company-profile';

export type LogoDeps = CompanyDeps & { objects: ObjectStore; presignTtlSeconds: number };

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
export async function putCompanyLogo(deps: LogoDeps, companyId: string, bytes: Buffer): Promise<CompanyDoc> {
  if (!(await deps.companies.byId(companyId))) throw notFound('company');
  if (bytes.length === 0) throw unsupported('empty');
  const sniffed = await fromBuffer(bytes);
  const type = sniffed ? LOGO_TYPES[sniffed.mime] : undefined;
  if (!type) throw unsupported(sniffed ? `${sniffed.mime} (.${sniffed.ext})` : 'of unknown type');
  const { data, info } = await letterheadImage(bytes, type);
  const sha256 = createHash('sha256').update(data).digest('hex');
  // a new key per content: invoices being rendered while the logo changes read the one they were given
  const key = `${companyId}/company/logo-${sha256.slice(0, 16)}.${type === 'image/png' ? 'png' : 'jpg'}`;
  await deps.objects.put(key, data, type);
  const now = deps.now();
  const logo = { key, contentType: type, width: info.width, height: info.height, size: data.length, sha256, uploadedAt: now };
  const before = await swap(deps, companyId, logo);
  if (before.logo && before.logo.key !== key) await deps.objects.remove(before.logo.key).catch(() => undefined);
  return { ...before, logo };
}

export async function companyLogoLink(deps: LogoDeps, companyId: string) {
  const company = await deps.companies.byId(companyId);
  if (!company) throw notFound('company');
  if (!company.logo) throw notFound('logo');
  return { logo: company.logo, url: await deps.objects.presignGet(company.logo.key, logoFileName(company.logo.contentType)) };
}

export async function deleteCompanyLogo(deps: LogoDeps, companyId: string): Promise<void> {
  const before = await swap(deps, companyId, undefined, true);
  await deps.objects.remove(before.logo!.key).catch(() => undefined);
}

const logoFileName = (type: string) => (type === 'image/png' ? 'logo.png' : 'logo.jpg');

/** Sets or removes the logo record and announces it; answers the company as it was before. */
function swap(deps: LogoDeps, companyId: string, logo: CompanyDoc['logo'], mustExist = false): Promise<CompanyDoc> {
  return deps.commit(async (session, emit) => {
    const before = await deps.companies.swapLogo(companyId, logo, deps.now(), session);
    if (!before) throw notFound('company');
    if (mustExist && !before.logo) throw notFound('logo');
    emit(eventMessage('company.profile-changed.v1', companyId, { fields: ['logo'] }));
    return before;
  });
}
