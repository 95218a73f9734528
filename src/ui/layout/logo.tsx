import { Link } from '@tanstack/react-router'

/** The Hiram mark and wordmark, inline so it paints with the first frame; the link is named "Hiram home". */
export function Logo({ label, brand }: { label: string; brand: string }) {
  return (
    <Link to="/" className="logo" aria-label={label}>
      <svg
        className="logo__mark"
        width="32"
        height="32"
        viewBox="0 0 32 32"
        aria-hidden="true"
        focusable="false"
      >
        <rect className="logo__tile" width="32" height="32" rx="8" />
        <path className="logo__letter" d="M9 8h4v6h6V8h4v16h-4v-6h-6v6H9z" />
      </svg>
      <span className="logo__word" aria-hidden="true">
        {brand}
      </span>
    </Link>
  )
}
