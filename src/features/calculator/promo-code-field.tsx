import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import * as v from 'valibot'
import { promoCodeSchema } from '../../../domain/pricing/promo'
import { ApiError } from '../../api/client'
import { useApi } from '../../app/app-context'
import { fmt, useMessages } from '../../i18n/messages'
import { validatePromoCode } from './calculator-api'

/** Spec section 8: the selector of a promo code the server refused. */
export const PROMO_ERROR_KEY = 'error-promo-applied-wrong'

type PromoFieldState =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'refused'; message: string }
  | { kind: 'applied'; code: string }

export interface PromoCodeFieldProps {
  loggedIn: boolean
  /** The code the calculator uses now, if any. */
  current: string | null
  /**
   * What the last offer said of that code when it did not apply it: a code restored from the cookie was valid
   * yesterday and may have expired since, and the offer call re-checks it.
   */
  offerStatus?: string | null
  onValid(code: string): void
  onClear(): void
}

/**
 * A promo code is checked by the server (spec section 5) and reaches the calculator only when valid. The same
 * valibot schema as the API (3 to 10 letters or digits, upper-cased) answers the shape locally first.
 */
export function PromoCodeField({
  loggedIn,
  current,
  offerStatus = null,
  onValid,
  onClear,
}: PromoCodeFieldProps) {
  const api = useApi()
  const m = useMessages().calculator.promo
  const id = useId()
  const statusText = (status: string) => m.status[status as keyof typeof m.status] ?? m.status.unknown
  const [text, setText] = useState(current ?? '')
  // Typed into the server's HTML before the app ran (issue 21): the field keeps it, the state takes it over once.
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => {
    const typed = input.current?.value ?? ''
    if (typed !== '') setText((now) => (now === '' ? typed : now))
  }, [])
  const [state, setState] = useState<PromoFieldState>(
    current ? { kind: 'applied', code: current } : { kind: 'idle' },
  )

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const parsed = v.safeParse(promoCodeSchema, text)
    if (!parsed.success) {
      setState({ kind: 'refused', message: parsed.issues[0]?.message ?? m.hint })
      return
    }
    setState({ kind: 'checking' })
    try {
      const answer = await validatePromoCode(api, parsed.output, loggedIn)
      if (answer.valid) {
        setText(answer.code)
        setState({ kind: 'applied', code: answer.code })
        onValid(answer.code)
      } else {
        setState({
          kind: 'refused',
          message: m.status[answer.status as keyof typeof m.status] ?? m.status.unknown,
        })
      }
    } catch (error) {
      const message =
        error instanceof ApiError && error.violations[0]?.message
          ? error.violations[0].message
          : m.status.failed
      setState({ kind: 'refused', message })
    }
  }

  function clear() {
    setText('')
    setState({ kind: 'idle' })
    onClear()
  }

  const refusal =
    state.kind === 'refused' ? state.message : current && offerStatus ? statusText(offerStatus) : null
  const refused = refusal !== null
  return (
    <form className="calculator__promo" onSubmit={submit} noValidate>
      <div className={refused ? 'field field--invalid' : 'field'}>
        <label className="field__label" htmlFor={`${id}-input`}>
          {m.label}
        </label>
        <div className="calculator__promo-row">
          <input
            ref={input}
            id={`${id}-input`}
            name="promoCode"
            value={text}
            onChange={(e) => {
              setText(e.target.value)
              if (state.kind === 'refused') setState({ kind: 'idle' })
            }}
            maxLength={10}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            aria-invalid={refused}
            aria-describedby={refused ? `${id}-error` : `${id}-hint`}
            readOnly={state.kind === 'applied'}
          />
          {state.kind === 'applied' ? (
            <button type="button" className="button button--ghost" onClick={clear} aria-label={m.removeLabel}>
              {m.remove}
            </button>
          ) : (
            // Named apart from the apply form's own "Apply" button, which sits on the same page.
            <button
              type="submit"
              className="button button--secondary"
              disabled={state.kind === 'checking'}
              aria-label={state.kind === 'checking' ? undefined : m.applyLabel}
            >
              {state.kind === 'checking' ? m.checking : m.apply}
            </button>
          )}
        </div>
        {refused ? (
          <p id={`${id}-error`} className="field__error" data-error-key={PROMO_ERROR_KEY} role="alert">
            {refusal}
          </p>
        ) : state.kind === 'applied' ? (
          <p id={`${id}-hint`} className="field__hint calculator__promo-ok" role="status">
            {fmt(loggedIn ? m.applied : m.appliedGuest, { code: state.code })}
          </p>
        ) : (
          <p id={`${id}-hint`} className="field__hint">
            {m.hint}
          </p>
        )}
      </div>
    </form>
  )
}
