import { useMessages } from '../../i18n/messages'
import { useSiteContent } from './site-content'
import './site-content.css'

/** Phones get the mobile image: the same breakpoint the layout switches at. */
const MOBILE = '(max-width: 40rem)'

/**
 * The banners in their date window today (spec sections 3 and 9), above the home page: the desktop image, or the
 * mobile one on a narrow screen, each with its text alternative. Nothing at all when none is shown.
 */
export function SiteBanners() {
  const m = useMessages()
  const { banners } = useSiteContent()
  if (!banners.length) return null
  return (
    <section className="site-banners container" aria-label={m.siteContent.bannersLabel}>
      <ul className="site-banners__list">
        {banners.map((banner) => (
          <li key={banner.id} className="site-banners__item">
            <picture>
              <source media={MOBILE} srcSet={banner.mobile} width={640} height={320} />
              <img src={banner.desktop} alt={banner.alt} width={1200} height={240} />
            </picture>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** The installable apps the back office enabled (spec section 1: Android only), as store links. */
export function AppLinks({ className }: { className?: string }) {
  const m = useMessages().siteContent
  const { apps } = useSiteContent()
  if (!apps.length) return null
  return (
    <div className={className}>
      <h2 className="site-footer__title">{m.appTitle}</h2>
      <ul className="site-footer__links">
        {apps.map((app) => (
          <li key={app.platform}>
            <a href={app.url} target="_blank" rel="noopener noreferrer">
              {m.app[app.platform]}
            </a>
          </li>
        ))}
      </ul>
    </div>
  )
}
