import type { ReactNode } from 'react'

/** Placeholder layout; the real header, footer and drawer replace it. */
export function Layout({ children }: { children: ReactNode }) {
  return (
    <div className="layout">
      <main id="main" className="layout__main">
        {children}
      </main>
    </div>
  )
}
