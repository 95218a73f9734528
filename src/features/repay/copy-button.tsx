import { useShell } from '../../app/app-context'

/** Copies a value and confirms with a toast (or says it could not, e.g. without clipboard permission). */
export function CopyButton({
  value,
  label,
  done,
  failed,
  text,
}: {
  value: string
  /** The accessible name: what is copied. */
  label: string
  /** The toast after copying. */
  done: string
  failed: string
  /** The visible text. */
  text: string
}) {
  const shell = useShell()
  const copy = () => {
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(value))
      .then(() => shell.send({ type: 'notice.push', tone: 'success', text: done }))
      .catch(() => shell.send({ type: 'notice.push', tone: 'error', text: failed }))
  }
  return (
    <button type="button" className="button button--ghost button--sm" aria-label={label} onClick={copy}>
      {text}
    </button>
  )
}
