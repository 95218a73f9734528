export interface RangeFieldProps {
  id: string
  label: string
  value: number
  min: number
  max: number
  step: number
  /** What the eye reads beside the label, e.g. '₱5 000.00'. */
  display: string
  /** What a screen reader announces, with units, e.g. 'PHP 5 000.00' or '30 days'. */
  valueText: string
  minDisplay: string
  maxDisplay: string
  onChange(value: number): void
  /** The field's name in the submit form (`form`): what the server's page sends before the app runs. */
  name?: string
  form?: string
}

/**
 * A native range input: keyboard (arrows move by one interval, Page Up/Down, Home/End), touch and screen
 * readers work without extra code, and `aria-valuetext` gives the value its unit. The value shown is always the
 * calculator's clamped value, so the input never disagrees with the machine.
 */
export function RangeField(props: RangeFieldProps) {
  const {
    id,
    label,
    value,
    min,
    max,
    step,
    display,
    valueText,
    minDisplay,
    maxDisplay,
    onChange,
    name,
    form,
  } = props
  const fill = max > min ? ((value - min) / (max - min)) * 100 : 0
  return (
    <div className="calculator__range">
      <div className="calculator__range-head">
        <label htmlFor={id} className="calculator__range-label">
          {label}
        </label>
        <span className="calculator__range-value" aria-hidden="true">
          {display}
        </span>
      </div>
      <input
        id={id}
        name={name}
        form={form}
        type="range"
        className="calculator__slider"
        min={min}
        max={max}
        step={step}
        value={value}
        aria-valuetext={valueText}
        style={{ '--fill': `${fill}%` } as React.CSSProperties}
        onChange={(event) => onChange(Number(event.currentTarget.value))}
      />
      <div className="calculator__range-limits" aria-hidden="true">
        <span>{minDisplay}</span>
        <span>{maxDisplay}</span>
      </div>
    </div>
  )
}
