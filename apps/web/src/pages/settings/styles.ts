/**
 * Rules the settings and developer pages add to the dashboard's stylesheet: multi-line inputs, hints under
 * labels, read-only label/value tables, the logo preview and pre-wrapped texts (e-mail bodies).
 */
export const SETTINGS_CSS = `textarea{font:inherit;width:100%;padding:.4rem .6rem;border:1px solid #8a939e;border-radius:6px;background:#fff;color:inherit;resize:vertical}
textarea:focus-visible{border-color:#0b57d0}
.hint{display:block;font-size:.875rem}
table.facts th{text-transform:none;letter-spacing:0;font-size:.9375rem;font-weight:600;color:#3c4450;width:38%}
table.facts td{overflow-wrap:anywhere}
img.logo{display:block;max-width:100%;height:auto;max-height:8rem;border:1px solid #dde1e6;border-radius:6px;background:#fff;padding:.25rem}
.pre{white-space:pre-wrap}
pre.mail{margin:0;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.875rem;background:#f9fafb;border:1px solid #e6e9ed;border-radius:6px;padding:.75rem}
fieldset.card>legend{float:left;width:100%;font-size:1.125rem;margin:0 0 .5rem}
fieldset.card>legend+*{clear:both}
label.check{display:flex;gap:.5rem;align-items:flex-start;font-weight:400;margin-top:.5rem}
label.check input{width:auto;min-height:0;flex:none;margin:.3rem 0 0}
fieldset.group{margin:1.25rem 0 0}
fieldset.group:first-of-type{margin-top:0}
fieldset.group>legend{font-size:1rem;font-weight:650;margin:0 0 .25rem}
.grid{display:grid;gap:.75rem 1rem;grid-template-columns:minmax(0,1fr)}
@media (min-width:40rem){.grid{grid-template-columns:repeat(2,minmax(0,1fr))}}
.grid .field{display:grid;gap:.25rem;align-content:start}
.grid .field label{margin-top:0}
.card h3{font-size:1rem;margin:1.25rem 0 .5rem}
td a.file{overflow-wrap:anywhere}
ul.links{padding-left:1.25rem}
ul.links li{margin:0 0 .75rem}
@media (max-width:39.99rem){table.facts,table.facts tbody,table.facts tr,table.facts th,table.facts td{display:block;width:100%}table.facts th{border-bottom:0;padding-bottom:0}}
`;
