/** The invoice pages' own rules (facts of an invoice, text areas, the timeline, paging, totals). */
export const INVOICE_CSS = `
dl.inv-facts{display:grid;grid-template-columns:minmax(0,1fr);gap:.15rem 1rem;margin:0}
dl.inv-facts dt{font-weight:600;color:#59636e;font-size:.875rem;margin-top:.4rem}
dl.inv-facts dd{margin:0;min-width:0;overflow-wrap:anywhere}
@media (min-width:40rem){dl.inv-facts{grid-template-columns:minmax(10rem,auto) minmax(0,1fr)}dl.inv-facts dt{margin-top:0}}
textarea{font:inherit;width:100%;min-height:8rem;padding:.4rem .6rem;border:1px solid #8a939e;border-radius:6px;background:#fff;color:inherit;resize:vertical}
textarea:focus-visible{border-color:#0b57d0}
.hint{font-size:.875rem;color:#59636e;margin:0}
form.filters .fgrid{display:grid;gap:.25rem .75rem;grid-template-columns:minmax(0,1fr)}
form.filters .field{display:grid;gap:.25rem;min-width:0;align-content:start}
form.filters label{margin-top:.25rem}
form.filters .check{display:flex;gap:.5rem;align-items:center;font-weight:400;margin-top:.5rem}
form.filters .check input{width:auto;min-height:0}
form.filters details{margin:.75rem 0 0}
form.filters summary{cursor:pointer;font-weight:600;color:#0b57d0;padding:.25rem 0}
@media (min-width:40rem){form.filters .fgrid{grid-template-columns:repeat(2,minmax(0,1fr))}form.filters .wide,form.filters .wide2{grid-column:1/-1}}
@media (min-width:60rem){form.filters .fgrid{grid-template-columns:repeat(4,minmax(0,1fr))}form.filters .wide2{grid-column:span 3}}
table.cards td.stack>span{display:block}
@media (max-width:39.99rem){table.cards td.stack{display:block;text-align:left}table.cards td.stack::before{display:block;margin-bottom:.15rem}}
ol.timeline{list-style:none;margin:0;padding:0;border-left:2px solid #dde1e6}
ol.timeline li{position:relative;margin:0 0 .75rem;padding-left:1rem}
ol.timeline li::before{content:"";position:absolute;left:-.45rem;top:.45rem;width:.7rem;height:.7rem;border-radius:50%;background:#0b57d0}
ol.timeline time{display:block;font-size:.8125rem;color:#59636e}
nav.paging ul{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;list-style:none;margin:1rem 0 0;padding:0}
td.num,th.num{text-align:right;white-space:nowrap}
@media (min-width:40rem){table.cards th{white-space:nowrap}}
tfoot td{font-weight:600;border-top:2px solid #dde1e6}
.block{margin:0 0 1.5rem}
.card>p:first-child,.card>form>p:first-child{margin-top:0}
a.file{overflow-wrap:anywhere;word-break:break-word}
@media (min-width:40rem){td.nowrap,a.nowrap{white-space:nowrap}}
ul.errors{margin:.25rem 0 1rem;padding-left:1.25rem}
@media (max-width:39.99rem){table.cards td.num{text-align:right}table.cards tfoot{display:block}table.cards tfoot tr{background:#f9fafb}}
`;
