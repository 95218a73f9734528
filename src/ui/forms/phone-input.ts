/**
 * The mask of every mobile-number input: a pasted or typed `+63 917 123 4567` becomes `09171234567` as soon as it
 * is a whole number (the same `normalizeMobilePhone` the schema applies, so the form and the API agree); until
 * then only what a number can hold is kept. The input allows more than 11 characters: a browser cuts a paste
 * at `maxLength` before anyone sees it, which is how `+63 917 123 4567` used to lose its last digits.
 */
import type { ChangeEvent } from 'react'
import type { UseFormRegisterReturn } from 'react-hook-form'
import { normalizeMobilePhone } from '../../../domain/identity'

/** Room for `+63 (0) 917 123 4567` with its spaces. */
export const PHONE_INPUT_MAX_LENGTH = 24
const NOT_IN_A_NUMBER = /[^\d+\s().\-\u2010-\u2015]/g

export function maskMobilePhone(raw: string): string {
  const normalized = normalizeMobilePhone(raw)
  if (/^0[89]\d{9}$/.test(normalized)) return normalized
  return raw.replace(NOT_IN_A_NUMBER, '').slice(0, PHONE_INPUT_MAX_LENGTH)
}

/** The props of a mobile-number `<input>` registered with react-hook-form, masked on every change. */
export function phoneInputProps<T extends UseFormRegisterReturn>(registered: T) {
  return {
    ...registered,
    type: 'tel',
    inputMode: 'tel' as const,
    autoComplete: 'tel-national',
    maxLength: PHONE_INPUT_MAX_LENGTH,
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const masked = maskMobilePhone(event.target.value)
      if (masked !== event.target.value) event.target.value = masked
      return registered.onChange(event)
    },
  }
}
