import type { Envelope } from '@inv/bus';
import { getTemplate } from '../pdf/templates';

export const onTemplateExists = async (msg: Envelope<{ templateId: number }>) => ({ exists: Boolean(getTemplate(msg.data.templateId)) });
