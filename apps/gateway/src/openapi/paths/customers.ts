import { z } from 'zod';
import {
  Address,
  AddressCreate,
  AddressUpdate,
  CreatedCustomer,
  Customer,
  CustomerCreate,
  CustomerListQuery,
  CustomerUpdate,
  DownloadLink,
  FinancialOverview,
  MessageBody,
  Statement,
  StatementPdfQuery,
  StatementQuery,
  VatCheck,
} from '@inv/contracts';
import { body, bodyErrors, commonErrors, intId, json, notFound, paginationHeaders, queryParams, type Operation } from '../builder';

const tags = ['Customers'];
const id = intId('id', 'customer id');

export function customerPaths(): Record<string, Record<string, unknown>> {
  const op = (o: Omit<Operation, 'tags'>): Operation => ({ tags, ...o });
  return {
    '/customer/': {
      get: op({
        operationId: 'listCustomers',
        summary: 'List customers',
        description:
          'A bare JSON array (as existing SDKs read it), in customer-number order; the total and page links are in the X-Total-Count and Link headers. `q` matches organization name, first name, last name, "first last", e-mail and customer number.',
        parameters: queryParams(CustomerListQuery),
        responses: { 200: json(z.array(Customer), 'a page of customers', paginationHeaders), ...commonErrors() },
      }),
      post: op({
        operationId: 'createCustomer',
        summary: 'Create a customer',
        description:
          'A B2B customer with a vat_id is checked against VIES automatically; a VAT ID whose check digits fail is kept with status invalid (reason checksum).',
        requestBody: body(CustomerCreate, {
          organization_name: 'Beispiel AG',
          contact_type: 'B2B',
          vat_id: 'DE143454214',
          email: 'ap@beispiel.example',
          language: 'German',
        }),
        responses: { 201: json(CreatedCustomer, 'created'), ...bodyErrors(), ...commonErrors() },
      }),
    },
    '/customer/{id}': {
      parameters: [id],
      get: op({
        operationId: 'getCustomer',
        summary: 'Get a customer with its addresses',
        responses: { 200: json(Customer), ...notFound(), ...commonErrors() },
      }),
      put: op({
        operationId: 'updateCustomer',
        summary: 'Update a customer',
        description: 'Only the fields sent change.',
        requestBody: body(CustomerUpdate),
        responses: {
          200: json(Customer.extend({ message: z.string() })),
          ...notFound(),
          409: json(MessageBody, 'changed meanwhile (CONCURRENT_MODIFICATION)'),
          ...bodyErrors(),
          ...commonErrors(),
        },
      }),
    },
    '/customer/{id}/addresses': {
      parameters: [id],
      get: op({
        operationId: 'listAddresses',
        summary: 'List the addresses of a customer',
        description: 'A bare JSON array (as existing SDKs read it).',
        responses: { 200: json(z.array(Address)), ...notFound(), ...commonErrors() },
      }),
      post: op({
        operationId: 'createAddress',
        summary: 'Create an address',
        description: 'Without `type` the address is a billing address; the first address of a type becomes its default.',
        requestBody: body(AddressCreate, { address_line_1: 'Hauptstraße 5', city: 'München', postal_code: '80331', country_code: 'DE' }),
        responses: { 201: json(Address.extend({ message: z.string() }), 'created'), ...notFound(), ...bodyErrors(), ...commonErrors() },
      }),
    },
    '/customer/{id}/addresses/{address_id}': {
      parameters: [id, intId('address_id', 'address id')],
      get: op({
        operationId: 'getAddress',
        summary: 'Get an address',
        responses: { 200: json(Address), ...notFound(), ...commonErrors() },
      }),
      put: op({
        operationId: 'updateAddress',
        summary: 'Update an address',
        description: 'Only the fields sent change.',
        requestBody: body(AddressUpdate),
        responses: { 200: json(Address.extend({ message: z.string() })), ...notFound(), ...bodyErrors(), ...commonErrors() },
      }),
      delete: op({
        operationId: 'deleteAddress',
        summary: 'Delete an address',
        responses: { 200: json(MessageBody), ...notFound(), ...commonErrors() },
      }),
    },
    '/customer/{id}/vat-check': {
      parameters: [id],
      get: op({
        operationId: 'checkCustomerVatId',
        summary: 'Check a customer VAT ID',
        description: 'The VIES status with its evidence; triggers a fresh check.',
        responses: { 200: json(VatCheck.extend({ check_requested: z.boolean() })), ...notFound(), ...commonErrors() },
      }),
    },
    '/customer/{id}/financial-overview': {
      parameters: [id],
      get: op({
        operationId: 'getFinancialOverview',
        summary: 'Get a financial overview',
        description:
          'Outstanding, overdue and paid totals of the customer, with counts. `outstanding` and `overdue` are open invoice ' +
          'amounts (after payments and Skonto), without reminder fees and default interest; `balance` is the account ' +
          'balance up to today and includes them.',
        responses: { 200: json(FinancialOverview), ...notFound(), ...commonErrors() },
      }),
    },
    '/customer/{id}/statement': {
      parameters: [id],
      get: op({
        operationId: 'getStatement',
        summary: 'Get an account statement',
        description:
          'Opening balance, entries with running balance, closing balance. Reminder fees (also the § 288 (5) BGB flat fee) ' +
          'and default interest are debit entries of their own (`reminder_fee`, `interest`) on the reminder date, under ' +
          'the invoice number.',
        parameters: queryParams(StatementQuery),
        responses: { 200: json(Statement), ...notFound(), ...commonErrors() },
      }),
    },
    '/customer/{id}/statement/pdf': {
      parameters: [id],
      get: op({
        operationId: 'getStatementPdf',
        summary: 'Get a statement PDF link',
        description:
          "A presigned link to the account statement as PDF, in the customer's language or the one `language` asks for " +
          '(`de`/`en`; `German`/`English` in any case are accepted too). A query parameter the operation does not take is a 400.',
        parameters: queryParams(StatementPdfQuery),
        responses: { 200: json(DownloadLink), ...notFound(), ...commonErrors() },
      }),
    },
    '/customer/payment-terms': {
      get: op({
        operationId: 'listPaymentTerms',
        summary: 'List payment terms (customer view)',
        description:
          "customer-service's copy of the terms managed under /company/payment-terms (id, name, days). The copy follows " +
          'a change within moments; a customer may name a term created a moment ago even before the copy shows it ' +
          '(the term is then looked up at its owner).',
        responses: {
          200: json(z.object({ payment_terms: z.array(z.object({ id: z.number().int(), name: z.string(), days: z.number().int() })) })),
          ...commonErrors(),
        },
      }),
    },
  };
}
