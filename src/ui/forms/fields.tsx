/**
 * Form building blocks shared by every form: a labelled control, its hint and its error. An error carries the
 * spec's message key (section 8 selectors: `error-required`, `error-mail`, ...) as `data-error-key` next to the
 * human text, so tests and analytics read the key while people read the sentence.
 */
import { type ComponentPropsWithoutRef, forwardRef, type ReactNode, useId } from 'react'

export interface FieldErrorView {
  /** The spec's message key (or the server's error code). */
  key: string
  text: string
}

type InputProps = Omit<ComponentPropsWithoutRef<'input'>, 'id'>

export interface TextFieldProps extends InputProps {
  label: string
  hint?: string
  error?: FieldErrorView | null
}

export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField(
  { label, hint, error, className, ...input },
  ref,
) {
  const id = useId()
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = error ? `${id}-error` : undefined
  return (
    <div className={`field${error ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {hint ? (
        <span className="field__hint" id={hintId}>
          {hint}
        </span>
      ) : null}
      <input
        ref={ref}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        {...input}
      />
      <FieldError id={errorId} error={error} />
    </div>
  )
})

export interface CheckboxFieldProps extends Omit<InputProps, 'type'> {
  label: ReactNode
  error?: FieldErrorView | null
}

export const CheckboxField = forwardRef<HTMLInputElement, CheckboxFieldProps>(function CheckboxField(
  { label, error, ...input },
  ref,
) {
  const id = useId()
  const errorId = error ? `${id}-error` : undefined
  return (
    <div className={`field field--check${error ? ' field--invalid' : ''}`}>
      <span className="field__check">
        <input
          ref={ref}
          id={id}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={errorId}
          {...input}
        />
        <label htmlFor={id}>{label}</label>
      </span>
      <FieldError id={errorId} error={error} />
    </div>
  )
})

export function FieldError({ id, error }: { id?: string; error?: FieldErrorView | null }) {
  if (!error) return null
  return (
    <p className="field__error" id={id} data-error-key={error.key}>
      {error.text}
    </p>
  )
}

/** An error about the whole form (a limit reached, a failed security check): announced when it appears. */
export function FormError({ error }: { error?: FieldErrorView | null }) {
  if (!error) return null
  return (
    <div className="callout callout--warning form-error" role="alert" data-error-key={error.key}>
      <p className="callout__body">{error.text}</p>
    </div>
  )
}

/** A success message, announced politely. */
export function FormSuccess({ children }: { children: ReactNode }) {
  return (
    <div className="callout callout--success" role="status">
      <p className="callout__body">{children}</p>
    </div>
  )
}
