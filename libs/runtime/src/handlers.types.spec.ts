import pino from 'pino';
import { createBus } from '@inv/bus';
import { messages, type CompanyId } from '@inv/contracts';
import type { CommandOf, EventOf, HandlerOf, RpcHandlerOf } from './handlers';
import { asAppBus, typesOf } from './handlers';

// Compile-time checks: the typecheck target (tsc over src/**/*.ts, spec files included) fails if a handler of the
// wrong message type is accepted, i.e. if a `@ts-expect-error` below stops being an error.

const bus = asAppBus(
  createBus(messages, { url: 'amqp://127.0.0.1:1', prefix: 't-handlers', service: 'types', logger: pino({ level: 'silent' }) }),
);

const onVatChecked: HandlerOf<'vat.checked.v1'> = async (msg) => void msg.data.vatId;
const onRendered = async (msg: EventOf<'document.rendered.v1'>) => void msg.data.pdf.key;
const onRenderInvoice = async (msg: CommandOf<'document.render-invoice.v1'>) => void msg.data.invoiceId;
const onQuotaReserve: RpcHandlerOf<'quota.reserve.v1'> = async () => ({
  granted: true,
  used: 1,
  limit: 5,
  reset_date: '2026-12-01',
  plan: 'free',
});
/** Several types: `msg.type` narrows `msg.data`. */
const onVatIdChanged = async (msg: EventOf<'customer.vat-id-changed.v1' | 'company.vat-id-changed.v1'>) =>
  void (msg.type === 'customer.vat-id-changed.v1' ? msg.data.customerId : msg.data.vatId);

describe('handlers typed from the message registry', () => {
  it('accept a handler of the subscribed type(s), refuse one of another', () => {
    bus.onEvent('vat', ['vat.checked.v1'], onVatChecked);
    bus.onEvent('rendered', ['document.rendered.v1'], onRendered);
    bus.onEvent('vat-ids', ['customer.vat-id-changed.v1', 'company.vat-id-changed.v1'], onVatIdChanged);
    bus.onCommand('document.render-invoice.v1', onRenderInvoice);
    // @ts-expect-error a handler of document.rendered.v1 is no handler of vat.checked.v1
    bus.onEvent('wrong-event', ['vat.checked.v1'], onRendered);
    // @ts-expect-error a handler of one of two types cannot take both
    bus.onEvent('wrong-union', ['customer.vat-id-changed.v1', 'vat.checked.v1'], onVatIdChanged);
    // @ts-expect-error a command handler is no event handler
    bus.onEvent('wrong-kind', ['document.rendered.v1'], onRenderInvoice);
    // @ts-expect-error the payload is the registry's: vat.checked.v1 carries no invoiceId
    const wrongPayload: HandlerOf<'vat.checked.v1'> = async (msg) => void msg.data.invoiceId;
    expect(wrongPayload).toBeInstanceOf(Function);
    expect(onQuotaReserve).toBeInstanceOf(Function);
  });

  it('refuse an RPC answer that breaks the response contract', () => {
    // @ts-expect-error quota.reserve.v1 answers { granted, used, ... }, not a number
    const wrongAnswer: RpcHandlerOf<'quota.reserve.v1'> = async () => 42;
    expect(wrongAnswer).toBeInstanceOf(Function);
  });

  it('give a handler the company as a CompanyId, which a plain string is not', () => {
    const scoped = (companyId: CompanyId) => companyId.length;
    bus.onEvent('scoped', ['mail.sent.v1'], async (msg) => void scoped(msg.companyId));
    // @ts-expect-error a tenant-scoped method takes no plain string (companyIdOf(req), msg.companyId or asCompanyId)
    expect(scoped('cmp_1')).toBe(5);
  });

  it('type the keys of a table keyed by event type', () => {
    const table: { 'vat.checked.v1': number; 'mail.sent.v1': number } = { 'vat.checked.v1': 1, 'mail.sent.v1': 2 };
    const types = typesOf(table);
    bus.onEvent('table', types, async (msg) => void (msg.type === 'vat.checked.v1' ? msg.data.vatId : msg.data.emailId));
    expect(types).toEqual(['vat.checked.v1', 'mail.sent.v1']);
  });
});
