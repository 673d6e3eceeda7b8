import { messages } from '@inv/contracts';
import { AUDITED } from './audit-events';

describe('audited events', () => {
  it('are events of the contracts', () => {
    for (const type of Object.keys(AUDITED)) expect(Object.keys(messages.events)).toContain(type);
  });
  it('name the resource, the action and the changed fields, never values', () => {
    expect(AUDITED['invoice.changed.v1']!({ invoiceId: 4, action: 'position_updated', positionId: 9, fields: ['quantity'] }, 'c')).toEqual({
      action: 'invoice.position_updated',
      resourceType: 'position',
      resourceId: '4/9',
      fields: ['quantity'],
    });
    expect(AUDITED['customer.changed.v1']!({ customerId: 3, action: 'created', fields: ['email'] }, 'c')).toEqual({
      action: 'customer.created',
      resourceType: 'customer',
      resourceId: '3',
      fields: ['email'],
    });
    expect(AUDITED['export.changed.v1']!({ action: 'mappings_saved', fields: ['rows'] }, 'c')).toMatchObject({
      action: 'mapping.saved',
      resourceType: 'mapping',
      fields: ['rows'],
    });
    expect(AUDITED['export.changed.v1']!({ action: 'started', jobId: 'j1', fields: ['from', 'to'] }, 'c')).toMatchObject({
      action: 'export.started',
      resourceType: 'export',
      resourceId: 'j1',
    });
    expect(
      AUDITED['invoice.reminder-issued.v1']!(
        {
          invoiceId: 4,
          customerId: 1,
          number: 'RE-1',
          reminderId: 2,
          level: 2,
          date: '2025-08-14',
          fee: '5.00',
          interest: '1.00',
          openAmount: '10.00',
          emailed: true,
        },
        'c',
      ),
    ).toEqual({
      action: 'invoice.reminder_issued',
      resourceType: 'reminder',
      resourceId: '4/2',
      fields: ['level', 'date', 'fee', 'interest', 'emailed'],
    });
    expect(
      AUDITED['invoice.payment-recorded.v1']!(
        {
          invoiceId: 4,
          customerId: 1,
          number: 'RE-1',
          paymentId: 2,
          amount: '759.50',
          discount: '25.70',
          date: '2026-11-27',
          source: 'bank_statement',
          openAmount: '0.00',
          paidInFull: true,
        },
        'c',
      ),
    ).toEqual({
      action: 'invoice.payment_recorded',
      resourceType: 'payment',
      resourceId: '4/2',
      fields: ['amount', 'date', 'method', 'discount', 'source'],
    });
    expect(
      AUDITED['recurring-invoice.run-finished.v1']!(
        {
          recurringId: 3,
          periodStart: '2026-12-01',
          periodEnd: '2026-12-31',
          invoiceId: null,
          outcome: 'failed',
          pausedReason: 'invoice_rejected',
        },
        'c',
      ),
    ).toMatchObject({ action: 'recurring_invoice.paused', resourceId: '3', fields: ['period_start', 'outcome'] });
    expect(AUDITED['api-key.revoked.v1']!({ keyId: 'k', reason: 'plan_downgrade' }, 'c').action).toBe('api_key.deactivated');
  });
});
