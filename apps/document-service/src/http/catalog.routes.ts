import { Router } from 'express';
import { IntId, LocaleQuery } from '@inv/contracts';
import { listTaxTreatments } from '@inv/einvoice/rules';
import { notFound, parsePath, parseQuery } from '@inv/service-kit';
import { getTemplate, templates } from '../pdf/templates';

/** Templates and tax treatments: catalogue data owned by document-service (it renders them). */
export function catalogRoutes(): Router {
  const r = Router();
  r.get('/template/', (_req, res) => {
    res.json(templates);
  });
  r.get('/template/:id', (req, res) => {
    const template = getTemplate(parsePath(IntId, req.params, 'id'));
    if (!template) throw notFound(`template ${req.params.id}`);
    res.json(template);
  });
  r.get('/invoice/tax-treatments', (req, res) => {
    const { locale } = parseQuery(LocaleQuery, req.query);
    res.json(listTaxTreatments(locale));
  });
  return r;
}
