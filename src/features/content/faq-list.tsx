/** Questions and answers as a native disclosure accordion: keyboard and screen-reader support come free. */
export function FaqList({ items }: { items: readonly { q: string; a: string }[] }) {
  return (
    <div className="accordion">
      {items.map((item) => (
        <details key={item.q} className="accordion__item">
          <summary className="accordion__summary">{item.q}</summary>
          <div className="accordion__panel">
            <p>{item.a}</p>
          </div>
        </details>
      ))}
    </div>
  )
}
