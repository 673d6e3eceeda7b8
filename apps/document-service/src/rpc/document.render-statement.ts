import type { RpcRequestOf } from '@inv/runtime';
import type { AccountStatement } from '../pdf';
import type { DocumentDeps } from '../support/deps';
import { mayUseLogo, rendersInTestMode } from '../domain/test-mode';

/** Renders an account statement (with the company's logo when it can be read), stores it and answers a link. */
export async function onRenderStatement(deps: DocumentDeps, msg: RpcRequestOf<'document.render-statement.v1'>) {
  const { template, logo: logoRef, ...statement } = msg.data;
  let logo: Buffer | undefined;
  if (logoRef && mayUseLogo(msg.companyId, logoRef.key)) {
    logo = await deps.objects.get(logoRef.key).catch((err: unknown) => {
      deps.logger.warn({ err }, 'the logo could not be read; rendering the statement without it');
      return undefined;
    });
  }
  const pdf = await deps.renderer.statement(statement as AccountStatement, { template, logo, testMode: rendersInTestMode(msg.companyId) });
  const filename = `statement-${(statement.customer.customerNumber ?? 'customer').replace(/[^\w.-]+/g, '_')}-${statement.from}-${statement.to}.pdf`;
  // Statements are derived data: one object per customer and period, overwritten when asked again.
  const key = `${msg.companyId}/statements/${filename}`;
  await deps.objects.put(key, pdf, 'application/pdf');
  return { url: await deps.objects.presignGet(key, filename), filename, expiresInSeconds: deps.presignTtlSeconds };
}
