import type { RpcRequestOf } from '@inv/runtime';
import { getTemplate } from '../pdf/templates';

export const onTemplateExists = async (msg: RpcRequestOf<'document.template-exists.v1'>) => ({
  exists: Boolean(getTemplate(msg.data.templateId)),
});
