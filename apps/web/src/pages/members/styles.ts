/** Styles of the members page: a row's role select and its buttons on one line where they fit. */
export const MEMBERS_CSS = `.member-actions{align-items:center;justify-content:flex-end}
.member-actions form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.member-actions select{width:auto;max-width:100%}
@media (min-width:40rem){.member-actions{justify-content:flex-start}}`;
