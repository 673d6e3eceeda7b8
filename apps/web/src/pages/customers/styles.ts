/** Styles of the customer and received-document pages (shared): filter forms, fact lists, two cards side by side. */
export const CUSTOMER_CSS = `.filters .filter-grid{display:grid;gap:.25rem .75rem;align-items:end;grid-template-columns:repeat(auto-fit,minmax(12rem,1fr))}
.filters .filter-grid label{display:block;margin-top:.5rem}
.filters .actions{margin-top:.75rem}
dl.facts{display:grid;grid-template-columns:minmax(0,1fr);gap:.5rem 1rem;margin:0 0 .5rem}
@media (min-width:40rem){dl.facts{grid-template-columns:repeat(auto-fill,minmax(14rem,1fr))}}
dl.facts div{min-width:0}
dl.facts dt{font-size:.8125rem;font-weight:600;color:#59636e}
dl.facts dd{margin:0;overflow-wrap:anywhere}
.two-col{display:grid;gap:0 1.25rem;grid-template-columns:minmax(0,1fr)}
@media (min-width:52rem){.two-col{grid-template-columns:repeat(2,minmax(0,1fr))}}
.warn{background:#fff4ce;border-color:#e3b341}
ul.plain{list-style:none;margin:0;padding:0}
ul.plain li{margin:0 0 .25rem}
.block{margin:0 0 1.5rem}
.card h3{font-size:1rem;margin:.75rem 0 .25rem}
.field-error{color:#8c1d18;margin:.25rem 0 0;font-size:.875rem}
.note{white-space:pre-line;margin:0 0 .5rem}
td .badge{white-space:nowrap}
.long{overflow-wrap:anywhere}
td code.rule{white-space:nowrap;overflow-wrap:normal}
.card table caption{text-align:left;font-weight:600;padding:0 0 .25rem}
`;
