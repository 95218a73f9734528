import { useCallback } from 'react'
import { useMessages } from '../../i18n/messages'
import type { FieldErrorView } from '../../ui/forms/fields'

/** The server's code answers (spec section 8) by their message keys. */
const serverMessages: Record<string, string> = {
  'Code not found by given identity': 'error-verification-code-unsent',
  'Phone verification not passed': 'error-verification-code',
  validationError: 'error-verification-code',
}

/** A message key (or server code) as the key to show and a human sentence. */
export function useErrorText() {
  const errors = useMessages().auth.errors as Record<string, string>
  return useCallback(
    (raw: string | null | undefined): FieldErrorView | null => {
      if (!raw) return null
      const key = serverMessages[raw] ?? raw
      return { key, text: errors[key] ?? errors.generic ?? key }
    },
    [errors],
  )
}
