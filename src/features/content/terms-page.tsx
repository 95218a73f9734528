import { useMessages } from '../../i18n/messages'
import { LegalDocument } from './prose-sections'

/** The loan terms and conditions. */
export function TermsPage() {
  return <LegalDocument doc={useMessages().legal.terms} idPrefix="terms" />
}
