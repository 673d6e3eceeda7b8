/**
 * Rules of the bank statement, reminder and recurring invoice pages: label/value facts (two columns from 40rem, one
 * below; long references wrap anywhere) a list of choices, one per line, and space between a page's sections.
 */
export const RECEIVABLES_CSS = `
dl.kv{display:grid;grid-template-columns:minmax(0,1fr);gap:.1rem 1rem;margin:0 0 1rem}
dl.kv dt{font-weight:600;color:#59636e;font-size:.875rem;margin-top:.4rem}
dl.kv dd{margin:0;min-width:0;overflow-wrap:anywhere}
@media (min-width:40rem){dl.kv{grid-template-columns:12rem minmax(0,1fr)}dl.kv dt{margin-top:0}}
article.card>h3:first-child{margin-top:0}
section.rsec{margin:0 0 1.75rem}
form .picks{display:grid;gap:.4rem;margin:.25rem 0 .5rem}
form .picks label{display:flex;gap:.6rem;align-items:baseline;font-weight:400;margin:0}
form .picks input{width:auto;min-height:0;flex:0 0 auto}
`;
