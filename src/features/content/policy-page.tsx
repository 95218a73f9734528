import { useMessages } from '../../i18n/messages'
import { LegalDocument } from './prose-sections'

/** The privacy notice under RA 10173. */
export function PolicyPage() {
  return <LegalDocument doc={useMessages().legal.policy} idPrefix="policy" />
}
