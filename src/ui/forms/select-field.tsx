/**
 * A labelled native select and a labelled radio group, with the same hint and error wiring as `TextField`:
 * the error element carries the spec's message key as `data-error-key` and is linked with `aria-describedby`.
 * Native controls on purpose: phones show their own pickers, and screen readers know them.
 */
import { type ComponentPropsWithoutRef, forwardRef, useId } from 'react'
import { FieldError, type FieldErrorView } from './fields'

export interface Option {
  value: string
  label: string
}

type SelectProps = Omit<ComponentPropsWithoutRef<'select'>, 'id' | 'children'>

export interface SelectFieldProps extends SelectProps {
  label: string
  options: readonly Option[]
  /** The empty first option ("Choose ..."); the select starts on it. */
  placeholder: string
  hint?: string
  error?: FieldErrorView | null
}

export const SelectField = forwardRef<HTMLSelectElement, SelectFieldProps>(function SelectField(
  { label, options, placeholder, hint, error, className, ...select },
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
      <select
        ref={ref}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        {...select}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldError id={errorId} error={error} />
    </div>
  )
})

type RadioProps = Omit<ComponentPropsWithoutRef<'input'>, 'id' | 'type' | 'value'>

export interface RadioGroupFieldProps extends RadioProps {
  legend: string
  options: readonly Option[]
  error?: FieldErrorView | null
}

/** A fieldset of radios; spread react-hook-form's `register(name)` onto it (it goes on every radio). */
export const RadioGroupField = forwardRef<HTMLInputElement, RadioGroupFieldProps>(function RadioGroupField(
  { legend, options, error, className, ...radio },
  ref,
) {
  const id = useId()
  const errorId = error ? `${id}-error` : undefined
  return (
    <fieldset
      className={`field field--choices${error ? ' field--invalid' : ''}${className ? ` ${className}` : ''}`}
      aria-describedby={errorId}
    >
      <legend className="field__label">{legend}</legend>
      <div className="choices">
        {options.map((option) => (
          <label key={option.value} className="choice" htmlFor={`${id}-${option.value}`}>
            <input
              ref={ref}
              id={`${id}-${option.value}`}
              type="radio"
              value={option.value}
              aria-invalid={error ? true : undefined}
              aria-describedby={errorId}
              {...radio}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
      <FieldError id={errorId} error={error} />
    </fieldset>
  )
})
