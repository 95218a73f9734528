/**
 * Document titles from the locale file. A route's `head` runs outside React, so its loader reads the title
 * from the lazily loaded messages (already in memory after the first render) and `head` formats it.
 */
import { loadMessages, type Messages } from '../../i18n/messages'

export type TitleKey = keyof Messages['titles']

export const documentTitle = (title: string) => `${title} | Hiram`

/** Route loader data `{ title }` for a page whose title is `titles[key]`. */
export async function loadPageTitle(key: TitleKey) {
  const messages = await loadMessages('en')
  return { title: messages.titles[key] }
}

/** Route `head` for any route whose loader data carries `{ title }`. */
export function titleHead({ loaderData }: { loaderData?: { title: string } }) {
  return { meta: [{ title: loaderData ? documentTitle(loaderData.title) : 'Hiram' }] }
}
