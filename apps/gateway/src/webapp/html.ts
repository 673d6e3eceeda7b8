import type { Lang, Texts } from './i18n';

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Escapes text for HTML (every value that reaches a page goes through it). */
export const esc = (v: unknown) => String(v ?? '').replace(/[&<>"']/g, (c) => ESC[c]!);

export const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_m, k: string) => values[k] ?? '');

export interface PageOpts {
  lang: Lang;
  t: Texts;
  title: string;
  body: string;
  /** Signed in: navigation and sign-out. */
  nav?: { csrf: string; companyName: string; email: string; current: 'keys' | 'members' };
  message?: { kind: 'ok' | 'error'; text: string };
}

/** The page frame: skip link, landmarks, a live region for messages, the language switch. No CDN, no inline script. */
export function page(o: PageOpts): string {
  const other = o.lang === 'de' ? 'en' : 'de';
  const nav = o.nav
    ? `<nav aria-label="${esc(o.t.title)}"><ul>
<li><a href="/app/keys"${o.nav.current === 'keys' ? ' aria-current="page"' : ''}>${esc(o.t.keys)}</a></li>
<li><a href="/app/members"${o.nav.current === 'members' ? ' aria-current="page"' : ''}>${esc(o.t.members)}</a></li>
</ul><p>${esc(o.nav.companyName)} · ${esc(o.nav.email)}</p>
<form method="post" action="/app/sign-out"><input type="hidden" name="csrf" value="${esc(o.nav.csrf)}"><button type="submit">${esc(o.t.signOut)}</button></form></nav>`
    : '';
  const message = o.message ? `<p class="msg ${o.message.kind}">${esc(o.message.text)}</p>` : '';
  return `<!doctype html>
<html lang="${o.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<title>${esc(o.title)} – ${esc(o.t.title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem;color:#1a1a1a}
a{color:#0645ad} :focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem}
header{display:flex;justify-content:space-between;align-items:center;gap:1rem;flex-wrap:wrap}
nav ul{display:flex;gap:1rem;list-style:none;padding:0} table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.4rem;border-bottom:1px solid #ccc} label{display:block;margin:.5rem 0 .2rem}
input,select,button{font:inherit;padding:.35rem .5rem} .msg{padding:.6rem;border-radius:4px}
.ok{background:#e6f4ea;border:1px solid #1e8e3e}.error{background:#fce8e6;border:1px solid #d93025}
code.secret{display:inline-block;padding:.4rem;background:#f1f3f4;font-size:1.1rem;word-break:break-all}
</style></head>
<body><a class="skip" href="#main">${o.lang === 'de' ? 'Zum Inhalt springen' : 'Skip to content'}</a>
<header><strong>${esc(o.t.title)}</strong><a href="?lang=${other}" lang="${other}">${esc(o.t.language)}</a>${nav}</header>
<main id="main"><h1>${esc(o.title)}</h1><div role="status" aria-live="polite">${message}</div>${o.body}</main>
<script src="/app/app.js"></script></body></html>`;
}

/** The only script: fills the invitation token from the link's fragment, copies a new key, asks nothing else. */
export const APP_JS = `(() => {
  const token = document.getElementById('token');
  if (token && location.hash.startsWith('#token=')) token.value = decodeURIComponent(location.hash.slice(7));
  for (const b of document.querySelectorAll('button[data-copy]')) {
    b.addEventListener('click', async () => {
      const el = document.getElementById(b.dataset.copy);
      try { await navigator.clipboard.writeText(el.textContent); } catch { const r = document.createRange(); r.selectNodeContents(el); getSelection().removeAllRanges(); getSelection().addRange(r); document.execCommand('copy'); }
      b.textContent = b.dataset.done;
    });
  }
})();
`;
