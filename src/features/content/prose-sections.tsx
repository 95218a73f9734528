export interface ProseSection {
  heading: string
  body?: readonly string[]
  list?: readonly string[]
  after?: readonly string[]
}

export const sectionId = (prefix: string, index: number) => `${prefix}-${index + 1}`

/** Headed sections of paragraphs and a bullet list, for legal and explanatory pages. */
export function ProseSections({
  sections,
  idPrefix,
}: {
  sections: readonly ProseSection[]
  idPrefix: string
}) {
  return (
    <div className="prose">
      {sections.map((section, index) => (
        <section key={section.heading} aria-labelledby={sectionId(idPrefix, index)}>
          <h2 id={sectionId(idPrefix, index)}>{section.heading}</h2>
          {section.body?.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          {section.list?.length ? (
            <ul>
              {section.list.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          ) : null}
          {section.after?.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
      ))}
    </div>
  )
}

/** "On this page": in-page links to each section. */
export function TableOfContents({
  title,
  sections,
  idPrefix,
}: {
  title: string
  sections: readonly ProseSection[]
  idPrefix: string
}) {
  return (
    <nav className="toc" aria-labelledby={`${idPrefix}-toc`}>
      <h2 id={`${idPrefix}-toc`} className="toc__title">
        {title}
      </h2>
      <ol className="toc__list">
        {sections.map((section, index) => (
          <li key={section.heading}>
            <a href={`#${sectionId(idPrefix, index)}`}>{section.heading}</a>
          </li>
        ))}
      </ol>
    </nav>
  )
}

/** A legal document: title, date, introduction, contents and sections. */
export function LegalDocument({
  doc,
  idPrefix,
}: {
  doc: {
    title: string
    updated: string
    intro: string
    contentsTitle: string
    sections: readonly ProseSection[]
  }
  idPrefix: string
}) {
  return (
    <article className="page legal">
      <div className="page-header">
        <h1 className="page-header__title">{doc.title}</h1>
        <p className="page-header__meta">{doc.updated}</p>
        <p className="lead">{doc.intro}</p>
      </div>
      <div className="legal__layout">
        <TableOfContents title={doc.contentsTitle} sections={doc.sections} idPrefix={idPrefix} />
        <ProseSections sections={doc.sections} idPrefix={idPrefix} />
      </div>
    </article>
  )
}
