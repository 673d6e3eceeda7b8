import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { Dec } from '@inv/money';
import type { EInvoice, Party, VatCategoryCode } from './model';
import { exemptionFor, fatturaPaNatura } from './tax-treatments';
import { invoiceTotals } from './totals';
import { toAscii, toLatin1 } from './latin';
import { splitVatId } from './xml-util';

const NS_P = 'http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2';
const NS_DS = 'http://www.w3.org/2000/09/xmldsig#';

/** 2..8 decimals as FatturaPA's Amount8DecimalType / QuantitaType want ("5" -> "5.00"). */
function dec2to8(value: string): string {
  const d = new Dec(value).toDecimalPlaces(8, Dec.ROUND_HALF_UP);
  const dp = Math.max(2, d.decimalPlaces());
  return d.toFixed(dp);
}
const dec2 = (value: string) => new Dec(value).toFixed(2, Dec.ROUND_HALF_UP);

function idFiscale(parent: XMLBuilder, name: string, vatId: string): void {
  const { country, code } = splitVatId(vatId);
  const el = parent.ele(name);
  el.ele('IdPaese').txt(country);
  el.ele('IdCodice').txt(code.slice(0, 28));
}

function sede(parent: XMLBuilder, p: Party): void {
  const a = p.address;
  const el = parent.ele('Sede');
  el.ele('Indirizzo').txt(toLatin1([a.line1, a.line2].filter(Boolean).join(', '), 60));
  // CAP is five digits; foreign addresses use "00000" by SdI convention
  el.ele('CAP').txt(a.countryCode === 'IT' && /^\d{5}$/.test(a.postalCode ?? '') ? a.postalCode! : '00000');
  el.ele('Comune').txt(toLatin1(a.city, 60));
  if (a.countryCode === 'IT' && a.subdivision && /^[A-Z]{2}$/.test(a.subdivision)) el.ele('Provincia').txt(a.subdivision);
  el.ele('Nazione').txt(a.countryCode);
}

function anagrafica(parent: XMLBuilder, p: Party): void {
  const el = parent.ele('Anagrafica');
  if (p.firstName && p.lastName && !p.vatId) {
    el.ele('Nome').txt(toLatin1(p.firstName, 60));
    el.ele('Cognome').txt(toLatin1(p.lastName, 60));
  } else {
    el.ele('Denominazione').txt(toLatin1(p.name, 80));
  }
}

/**
 * FatturaPA 1.2.2, FPR12 (B2B between private parties), or FPA12 when the buyer's recipient code has the 6
 * characters of a public administration's Codice Ufficio. Invoices are TD01, credit notes TD04 with the
 * preceding invoice in DatiFattureCollegate. A Skonto of the payment term becomes ScontoPagamentoAnticipato /
 * DataLimitePagamentoAnticipato of the payment detail. Non-S categories carry a Natura code (N1..N7 family) and the
 * exemption text as RiferimentoNormativo. Unsigned: the SdI accepts unsigned FPR12 files.
 */
export function toFatturaPA(invoice: EInvoice): string {
  const totals = invoiceTotals(invoice);
  const seller = invoice.seller;
  const buyer = invoice.buyer;
  if (!seller.vatId) throw new RangeError('FatturaPA needs the seller VAT ID (IdFiscaleIVA)');

  // a 6-character CodiceDestinatario is a public administration's Codice Ufficio: FPA12
  const formato = buyer.sdiCode?.length === 6 ? 'FPA12' : 'FPR12';
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(NS_P, 'p:FatturaElettronica', {
    versione: formato,
    'xmlns:ds': NS_DS,
  });
  const header = root.ele('FatturaElettronicaHeader');
  const trasm = header.ele('DatiTrasmissione');
  idFiscale(trasm, 'IdTrasmittente', seller.vatId);
  trasm.ele('ProgressivoInvio').txt(invoice.number.replace(/[^A-Za-z0-9]/g, '').slice(-10) || '1');
  trasm.ele('FormatoTrasmissione').txt(formato);
  const foreignBuyer = buyer.address.countryCode !== 'IT';
  // SdI conventions: "XXXXXXX" for foreign buyers, "0000000" when delivering to a PEC mailbox
  const code = buyer.sdiCode ?? (foreignBuyer ? 'XXXXXXX' : '0000000');
  trasm.ele('CodiceDestinatario').txt(code);
  if (!buyer.sdiCode && !foreignBuyer && buyer.pec) trasm.ele('PECDestinatario').txt(buyer.pec);

  const ced = header.ele('CedentePrestatore');
  const cedAna = ced.ele('DatiAnagrafici');
  idFiscale(cedAna, 'IdFiscaleIVA', seller.vatId);
  if (seller.fiscalCode) cedAna.ele('CodiceFiscale').txt(seller.fiscalCode);
  anagrafica(cedAna, seller);
  cedAna.ele('RegimeFiscale').txt('RF01'); // ordinary regime
  sede(ced, seller);

  const ces = header.ele('CessionarioCommittente');
  const cesAna = ces.ele('DatiAnagrafici');
  if (buyer.vatId) idFiscale(cesAna, 'IdFiscaleIVA', buyer.vatId);
  else if (buyer.partitaIva) idFiscale(cesAna, 'IdFiscaleIVA', `IT${buyer.partitaIva}`);
  else if (foreignBuyer) {
    // foreign buyer without VAT ID: IdPaese = country, IdCodice = its own tax id or the SdI placeholder
    const el = cesAna.ele('IdFiscaleIVA');
    el.ele('IdPaese').txt(buyer.address.countryCode);
    el.ele('IdCodice').txt(buyer.fiscalCode ? toAscii(buyer.fiscalCode, 28) : '99999999999');
  }
  // the Codice Fiscale is an Italian identifier; foreign tax ids went into IdFiscaleIVA above
  if (buyer.fiscalCode && !foreignBuyer) cesAna.ele('CodiceFiscale').txt(buyer.fiscalCode);
  anagrafica(cesAna, buyer);
  sede(ces, buyer);

  const body = root.ele('FatturaElettronicaBody');
  const generali = body.ele('DatiGenerali');
  const doc = generali.ele('DatiGeneraliDocumento');
  doc.ele('TipoDocumento').txt(invoice.typeCode === '381' ? 'TD04' : 'TD01');
  doc.ele('Divisa').txt(invoice.currency);
  doc.ele('Data').txt(invoice.issueDate);
  doc.ele('Numero').txt(toAscii(invoice.number, 20));
  doc.ele('ImportoTotaleDocumento').txt(totals.taxInclusiveTotal);
  for (const note of invoice.notes ?? []) doc.ele('Causale').txt(toLatin1(note, 200));
  if (invoice.orderReference) generali.ele('DatiOrdineAcquisto').ele('IdDocumento').txt(toLatin1(invoice.orderReference, 20));
  if (invoice.precedingInvoice) {
    const ref = generali.ele('DatiFattureCollegate');
    ref.ele('IdDocumento').txt(toLatin1(invoice.precedingInvoice.number, 20));
    if (invoice.precedingInvoice.issueDate) ref.ele('Data').txt(invoice.precedingInvoice.issueDate);
  }

  const beni = body.ele('DatiBeniServizi');
  invoice.lines.forEach((line, i) => {
    const lt = totals.lines[i]!;
    const el = beni.ele('DettaglioLinee');
    el.ele('NumeroLinea').txt(String(i + 1));
    el.ele('Descrizione').txt(toLatin1(line.description ? `${line.name} - ${line.description}` : line.name, 1000));
    el.ele('Quantita').txt(dec2to8(line.quantity));
    el.ele('UnitaMisura').txt(toLatin1(line.unitCode, 10));
    const period = line.period ?? invoice.period;
    if (period) {
      el.ele('DataInizioPeriodo').txt(period.start);
      el.ele('DataFinePeriodo').txt(period.end);
    }
    el.ele('PrezzoUnitario').txt(dec2to8(line.unitPrice));
    if (line.discount) {
      const sc = el.ele('ScontoMaggiorazione');
      sc.ele('Tipo').txt('SC');
      const pct = new Dec(line.discount.value);
      if (line.discount.type === 'PERCENTAGE' && pct.decimalPlaces() <= 2) sc.ele('Percentuale').txt(pct.toFixed(2));
      // FatturaPA discounts apply to the unit price, so a fixed line discount becomes a per-unit amount
      else sc.ele('Importo').txt(dec2to8(new Dec(lt.allowance).dividedBy(line.quantity).toFixed()));
    }
    el.ele('PrezzoTotale').txt(dec2to8(lt.net));
    el.ele('AliquotaIVA').txt(dec2(line.vat.rate));
    const natura = fatturaPaNatura(line.vat.category);
    if (natura) el.ele('Natura').txt(natura);
  });
  for (const v of totals.vatBreakdown) {
    const category = v.category as VatCategoryCode;
    const r = beni.ele('DatiRiepilogo');
    r.ele('AliquotaIVA').txt(dec2(v.rate));
    const natura = fatturaPaNatura(category);
    if (natura) r.ele('Natura').txt(natura);
    r.ele('ImponibileImporto').txt(v.taxableAmount);
    r.ele('Imposta').txt(v.taxAmount);
    r.ele('EsigibilitaIVA').txt('I'); // immediate
    const reason = exemptionFor(category, invoice)?.reason;
    if (natura && reason) r.ele('RiferimentoNormativo').txt(toLatin1(reason, 100));
  }

  const pay = invoice.payment;
  // nothing to pay (means "not defined", settled by clearing, or fully prepaid): no DatiPagamento block
  if (pay && pay.meansCode !== '1' && pay.meansCode !== '97' && new Dec(totals.amountDue).greaterThan(0)) {
    const dp = body.ele('DatiPagamento');
    dp.ele('CondizioniPagamento').txt('TP02'); // payment in full
    const det = dp.ele('DettaglioPagamento');
    if (pay.accountName) det.ele('Beneficiario').txt(toLatin1(pay.accountName, 200));
    det.ele('ModalitaPagamento').txt('MP05'); // bank transfer
    if (invoice.dueDate) {
      // the term: so many days from the invoice date (0..999), ending on the due date
      const days = Math.round((Date.parse(invoice.dueDate) - Date.parse(invoice.issueDate)) / 86_400_000);
      if (days >= 0 && days <= 999) {
        det.ele('DataRiferimentoTerminiPagamento').txt(invoice.issueDate);
        det.ele('GiorniTerminiPagamento').txt(String(days));
      }
      det.ele('DataScadenzaPagamento').txt(invoice.dueDate);
    }
    det.ele('ImportoPagamento').txt(totals.amountDue);
    if (pay.iban) det.ele('IBAN').txt(pay.iban.replace(/\s/g, ''));
    if (pay.bic) det.ele('BIC').txt(pay.bic);
    // Skonto: the discount amount for payment by the given date
    const skonto = invoice.earlyPaymentDiscount;
    if (skonto && new Dec(skonto.amount).greaterThan(0)) {
      det.ele('ScontoPagamentoAnticipato').txt(dec2(skonto.amount));
      det.ele('DataLimitePagamentoAnticipato').txt(skonto.untilDate);
    }
  }
  return root.end({ prettyPrint: true });
}
