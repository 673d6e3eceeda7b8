import { createHash } from 'node:crypto';
import { roleAllows, type Permission } from '@inv/contracts';
import type { Lang, Texts } from './i18n';
import { INVOICE_CSS } from '../pages/invoices/styles';
import { CUSTOMER_CSS } from '../pages/customers/styles';
import { SETTINGS_CSS } from '../pages/settings/styles';
import { RECEIVABLES_CSS } from '../pages/bank/styles';
import { REQUEST_LOG_CSS } from '../pages/request-log/styles';
import { MEMBERS_CSS } from '../pages/members/styles';

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Escapes text for HTML (every value that reaches a page goes through it). */
export const esc = (v: unknown) => String(v ?? '').replace(/[&<>"']/g, (c) => ESC[c]!);

export const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_m, k: string) => values[k] ?? '');

/** The sections of the navigation, in its order. */
export const NAV = [
  { key: 'invoices', href: '/app/invoices' },
  { key: 'customers', href: '/app/customers' },
  { key: 'received', href: '/app/received' },
  { key: 'bank', href: '/app/bank-statements' },
  { key: 'reminders', href: '/app/reminders' },
  { key: 'recurring', href: '/app/recurring' },
  { key: 'settings', href: '/app/settings' },
  { key: 'members', href: '/app/members' },
  { key: 'developers', href: '/app/developers' },
] as const;
export type NavKey = (typeof NAV)[number]['key'];

/** The pages under a section (a second row of links): reminders, settings and developers. */
export const SUB_NAV: Partial<Record<NavKey, readonly { key: string; href: string; needs?: Permission }[]>> = {
  reminders: [
    { key: 'dunning', href: '/app/reminders' },
    { key: 'sentReminders', href: '/app/reminders/sent' },
  ],
  settings: [
    { key: 'profile', href: '/app/settings' },
    { key: 'bankAccounts', href: '/app/settings/bank-accounts' },
    { key: 'paymentTerms', href: '/app/settings/payment-terms' },
    { key: 'numbering', href: '/app/settings/numbering' },
    { key: 'emailTexts', href: '/app/settings/email-texts' },
    { key: 'datev', href: '/app/settings/datev' },
  ],
  developers: [
    { key: 'keys', href: '/app/keys', needs: 'keys:manage' },
    { key: 'webhooks', href: '/app/webhooks', needs: 'webhooks:manage' },
    { key: 'requestLog', href: '/app/request-log' },
    { key: 'testMails', href: '/app/test-mails' },
  ],
};

export interface PageOpts {
  lang: Lang;
  t: Texts;
  title: string;
  body: string;
  /** Signed in: navigation, the live/test switch and sign-out. */
  nav?: { csrf: string; companyName: string; email: string; current: NavKey; sub?: string; mode?: 'live' | 'test'; role?: string };
  message?: { kind: 'ok' | 'error'; text: string };
}

/**
 * The web app's only stylesheet, served by the gateway at /app/app.css (same origin: helmet's CSP allows it; no
 * CDN, no inline style). Usable from 360 px: the header wraps, tables become one card per row below 40rem.
 */
export const APP_CSS =
  `*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f5f6f8;overflow-wrap:break-word}
a{color:#0b57d0}
a:hover{color:#0842a0}
:focus-visible{outline:3px solid #0b57d0;outline-offset:2px;border-radius:2px}
.skip,.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.skip:focus{position:fixed;left:1rem;top:1rem;width:auto;height:auto;clip:auto;z-index:10;background:#fff;padding:.5rem 1rem;border-radius:4px;box-shadow:0 2px 8px rgba(0,0,0,.2)}
.top{background:#fff;border-bottom:1px solid #dde1e6}
.bar{max-width:62rem;margin:0 auto;padding:.75rem 1rem;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem}
.brand{font-weight:650;color:#1b1f24;text-decoration:none;margin-right:auto}
.bar nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;list-style:none;margin:0;padding:0}
.main-nav{flex-basis:100%;order:5}
.sub-nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0 0 1rem;padding:0 0 .5rem;border-bottom:1px solid #dde1e6}
.sub-nav a{text-decoration:none;color:#3c4450}
.sub-nav a[aria-current=page]{color:#0b57d0;font-weight:600}
.test-banner{margin:0;padding:.4rem 1rem;text-align:center;background:#fff4ce;border-bottom:1px solid #e3b341;font-weight:600}
.main-nav a,.sub-nav a{text-decoration:none;color:#3c4450;padding:.25rem 0;border-bottom:2px solid transparent}
.main-nav a[aria-current=page]{color:#0b57d0;border-bottom-color:#0b57d0;font-weight:600}
.who{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;font-size:.875rem;color:#59636e}
.who form{margin:0}
.lang{font-size:.875rem}
main{max-width:62rem;margin:0 auto;padding:1.5rem 1rem 3rem}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 1rem}
h2{font-size:1.125rem;margin:0 0 .5rem}
.card{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:1.25rem;margin:0 0 1.25rem}
.narrow{max-width:28rem}
.lead{margin:0 0 1rem}
form.stack{display:grid;gap:.25rem;max-width:28rem}
form.stack.wide{max-width:none}
form.inline{display:grid;gap:.25rem;grid-template-columns:1fr}
@media (min-width:40rem){form.inline{grid-template-columns:minmax(0,2fr) minmax(0,1fr) auto;align-items:end;column-gap:.75rem}form.inline label{grid-row:1}form.inline .field{grid-row:2}form.inline button{grid-row:2}}
label{font-weight:600;font-size:.9375rem;margin-top:.5rem}
form.inline label,form.stack label:first-of-type{margin-top:0}
input,select{font:inherit;width:100%;min-height:2.5rem;padding:.4rem .6rem;border:1px solid #8a939e;border-radius:6px;background:#fff;color:inherit}
input:focus-visible,select:focus-visible{border-color:#0b57d0}
button,.button{font:inherit;font-weight:600;min-height:2.5rem;padding:.4rem 1rem;border:1px solid #0b57d0;border-radius:6px;background:#0b57d0;color:#fff;cursor:pointer;text-decoration:none;display:inline-flex;align-items:center;justify-content:center}
button:hover,.button:hover{background:#0842a0;border-color:#0842a0;color:#fff}
button.secondary,.button.secondary{background:#fff;color:#0b57d0}
button.secondary:hover,.button.secondary:hover{background:#eef3fd;color:#0842a0}
button.danger{background:#b3261e;border-color:#b3261e}
button.danger:hover{background:#8c1d18;border-color:#8c1d18}
button.link{background:none;border:0;color:#0b57d0;padding:0;min-height:0;font-weight:400;text-decoration:underline}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin:1rem 0 0}
form.stack .actions{margin-top:.75rem}
.msg{padding:.75rem 1rem;border-radius:6px;margin:0 0 1rem;border:1px solid}
.msg.ok{background:#e6f4ea;border-color:#1e8e3e}
.msg.error{background:#fce8e6;border-color:#d93025}
.secret-box{background:#fffbe6;border-color:#e3b341}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
code.secret{display:block;padding:.6rem .75rem;background:#fff;border:1px solid #dde1e6;border-radius:6px;font-size:1rem;word-break:break-all;margin:.5rem 0}
.table-wrap{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%;background:#fff;border:1px solid #dde1e6;border-radius:8px}
th,td{text-align:left;padding:.6rem .75rem;border-bottom:1px solid #e6e9ed;vertical-align:top}
td code{overflow-wrap:anywhere}
th{font-size:.8125rem;text-transform:uppercase;letter-spacing:.03em;color:#59636e;background:#f9fafb}
tbody tr:last-child td{border-bottom:0}
.muted{color:#59636e}
.badge{display:inline-block;padding:0 .5rem;border-radius:999px;font-size:.8125rem;background:#e6f4ea;color:#13612b}
.badge.off{background:#eceff1;color:#4a535c}
.badge.bad{background:#fce8e6;color:#8c1d18}
fieldset{border:0;padding:0;margin:.5rem 0 0;min-width:0}
legend{font-weight:600;font-size:.9375rem;padding:0}
.checks{display:grid;grid-template-columns:repeat(auto-fill,minmax(13rem,1fr));gap:.25rem .75rem;margin:.25rem 0 0}
.checks label{display:flex;gap:.5rem;align-items:center;font-weight:400;margin:0}
.checks input{width:auto;min-height:0}
.row-actions{display:flex;flex-wrap:wrap;gap:.5rem;margin:0}
.row-actions form{margin:0}
pre.excerpt{margin:0;white-space:pre-wrap;word-break:break-all;font-size:.8125rem;max-height:6rem;overflow:auto}
@media (max-width:39.99rem){
.bar nav{order:2;flex-basis:100%}
.who{order:3;flex-basis:100%}
.lang{order:1}
table.cards,table.cards tbody,table.cards tr,table.cards td{display:block;width:100%}
table.cards{border:0;background:none}
table.cards thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
table.cards tr{background:#fff;border:1px solid #dde1e6;border-radius:8px;margin:0 0 .75rem;padding:.25rem 0}
table.cards td{display:flex;justify-content:space-between;align-items:baseline;gap:.75rem;border:0;padding:.3rem .75rem;text-align:right;min-width:0;overflow-wrap:anywhere}
table.cards td::before{content:attr(data-label);flex:0 0 auto;white-space:nowrap;font-size:.875rem;font-weight:600;color:#59636e;text-align:left}
table.cards td:empty{display:none}
}
` + [INVOICE_CSS, CUSTOMER_CSS, SETTINGS_CSS, RECEIVABLES_CSS, REQUEST_LOG_CSS, MEMBERS_CSS].join('\n');
/** Its version in the URL: the stylesheet can be cached for a year, and a new one is fetched at once. */
export const APP_CSS_VERSION = createHash('sha256').update(APP_CSS).digest('hex').slice(0, 12);

/** The page frame: skip link, landmarks, a live region for messages, the language switch. No CDN, no inline script or style. */
export function page(o: PageOpts): string {
  const other = o.lang === 'de' ? 'en' : 'de';
  const n = o.nav;
  const link = (href: string, label: string, current: boolean) =>
    `<li><a href="${href}"${current ? ' aria-current="page"' : ''}>${esc(label)}</a></li>`;
  const sub = n && SUB_NAV[n.current];
  const nav = n
    ? `<nav aria-label="${esc(o.t.mainNav)}" class="main-nav"><ul>
${NAV.map((i) => link(i.href, o.t.nav[i.key], i.key === n.current)).join('\n')}
</ul></nav>
<div class="who"><span>${esc(n.companyName)} · ${esc(n.email)}</span>
<form method="post" action="/app/mode"><input type="hidden" name="csrf" value="${esc(n.csrf)}"><input type="hidden" name="mode" value="${n.mode === 'test' ? 'live' : 'test'}"><button type="submit" class="link">${esc(n.mode === 'test' ? o.t.toLive : o.t.toTest)}</button></form>
<form method="post" action="/app/sign-out"><input type="hidden" name="csrf" value="${esc(n.csrf)}"><button type="submit" class="link">${esc(o.t.signOut)}</button></form></div>`
    : '';
  const subNav = sub
    ? `<nav aria-label="${esc(o.t.nav[n.current])}" class="sub-nav"><ul>${sub
        .filter((i) => !i.needs || roleAllows(n.role, i.needs))
        .map((i) => link(i.href, o.t.subNav[i.key] ?? i.key, i.key === n.sub))
        .join('')}</ul></nav>`
    : '';
  const testBanner = n?.mode === 'test' ? `<p class="test-banner">${esc(o.t.testBanner)}</p>` : '';
  const message = o.message ? `<p class="msg ${o.message.kind}">${esc(o.message.text)}</p>` : '';
  return `<!doctype html>
<html lang="${o.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<title>${esc(o.title)} – ${esc(o.t.title)}</title>
<link rel="stylesheet" href="/app/app.css?v=${APP_CSS_VERSION}">
</head>
<body><a class="skip" href="#main">${esc(o.t.skip)}</a>
<header class="top"><div class="bar"><a class="brand" href="/app/">${esc(o.t.title)}</a>${nav}<a class="lang" href="?lang=${other}" lang="${other}">${esc(o.t.language)}</a></div></header>
${testBanner}<main id="main">${subNav}<h1>${esc(o.title)}</h1><div role="status" aria-live="polite">${message}</div>${o.body}</main>
<script src="/app/app.js"></script></body></html>`;
}

/**
 * The only script: fills the invitation token from the link's fragment and shows whom the invitation is for
 * (posted to /app/accept-invitation/details, never in a URL), copies a new key, asks nothing else.
 */
export const APP_JS = `(() => {
  const token = document.getElementById('token');
  if (token && !token.value && location.hash.startsWith('#token=')) {
    token.value = decodeURIComponent(location.hash.slice(7));
    const info = document.getElementById('invitation');
    const csrf = token.form && token.form.elements.namedItem('csrf');
    if (info && csrf) {
      fetch('/app/accept-invitation/details', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf: csrf.value, token: token.value }).toString(),
      })
        .then((r) => r.json().then((b) => ({ ok: r.ok, b })))
        .then(({ ok, b }) => {
          if (ok) {
            const parts = info.dataset.template.split(/\\{(\\w+)\\}/);
            info.textContent = '';
            parts.forEach((p, i) => {
              if (i % 2 === 0) return void info.append(p);
              const s = document.createElement('strong');
              s.textContent = b[p] || '';
              info.append(s);
            });
            info.hidden = false;
            const user = document.getElementById('username');
            if (user) user.value = b.email || '';
          } else if (b.message) {
            const status = document.querySelector('[role=status]');
            const p = document.createElement('p');
            p.className = 'msg error';
            p.textContent = b.message;
            status.replaceChildren(p);
          }
        })
        .catch(() => {});
    }
  }
  for (const b of document.querySelectorAll('button[data-copy]')) {
    b.addEventListener('click', async () => {
      const el = document.getElementById(b.dataset.copy);
      try { await navigator.clipboard.writeText(el.textContent); } catch { const r = document.createRange(); r.selectNodeContents(el); getSelection().removeAllRanges(); getSelection().addRange(r); document.execCommand('copy'); }
      b.textContent = b.dataset.done;
    });
  }
})();
`;
