/**
 * What the server's HTML of a public page (server/http/prerender.ts) and the app that takes it over
 * (src/main.tsx) agree on: the ids of the elements one writes and the other reads.
 */

/** The `<script type="application/json">` holding the query cache the page was rendered with. */
export const SSR_STATE_ID = 'ssr-state'
