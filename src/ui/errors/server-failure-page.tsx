import { fmt, useMessages } from '../../i18n/messages'

/** The full-page error of spec section 8 for any API answer of 500 or above. */
export function ServerFailurePage({ status, path }: { status: number; path: string }) {
  const m = useMessages()
  return (
    <section className="error-page" role="alert" aria-labelledby="failure-title">
      <h1 id="failure-title">{fmt(m.errors.erpResponse, { status, path })}</h1>
      <p>{m.errors.fatalBody}</p>
      <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
        {m.errors.reload}
      </button>
    </section>
  )
}
