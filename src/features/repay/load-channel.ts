import { notFound } from '@tanstack/react-router'
import { ensureMessages, fmt } from '../../i18n/messages'
import { type ChannelKind, findChannel } from './channels'

/** Route loader of a channel page: the channel and its title, or a 404 for an unknown slug. */
export async function loadChannel(kind: ChannelKind, slug: string) {
  const channel = findChannel(kind, slug)
  if (!channel) throw notFound()
  const messages = await ensureMessages(['repay'])
  return { channel, title: fmt(messages.repay.channel.title, { name: channel.name }) }
}
