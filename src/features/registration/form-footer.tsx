import { useMessages } from '../../i18n/messages'
import type { FieldErrorView } from '../../ui/forms/fields'
import { FormError } from '../../ui/forms/fields'

/** The form's own error (announced) and its submit button, which says when it is busy. */
export function FormFooter({
  busy,
  error,
  label,
  busyLabel,
}: {
  busy: boolean
  error: FieldErrorView | null
  label?: string
  busyLabel?: string
}) {
  const m = useMessages().journey.common
  return (
    <div className="reg__footer">
      <FormError error={error} />
      <button type="submit" className="button button--primary reg__submit" disabled={busy} aria-busy={busy}>
        {busy ? (busyLabel ?? m.saving) : (label ?? m.continue)}
      </button>
    </div>
  )
}
