/** Styles of the request log: a compact table whose path column keeps room on a wide screen. */
export const REQUEST_LOG_CSS = `table.reqlog{font-size:.875rem}
table.reqlog code{font-size:.8125rem}
@media (min-width:40rem){table.reqlog td:nth-child(3){min-width:11rem}}`;
