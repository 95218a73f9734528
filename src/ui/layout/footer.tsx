import { Link } from '@tanstack/react-router'
import { fmt, useMessages } from '../../i18n/messages'
import { ContactBlocks } from './contact-blocks'
import { AppLinks } from './site-banners'

/** Hiram's Facebook page. */
export const FACEBOOK_URL = 'https://www.facebook.com/hiram.ph'

export function Footer() {
  const m = useMessages()
  const f = m.layout.footer
  const year = new Date().getFullYear()
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <ContactBlocks className="site-footer__contacts" />
        <nav className="site-footer__nav" aria-label={f.companyTitle}>
          <h2 className="site-footer__title">{f.companyTitle}</h2>
          <ul className="site-footer__links">
            <li>
              <Link to="/about">{f.about}</Link>
            </li>
            <li>
              <Link to="/documents" activeOptions={{ exact: true }}>
                {f.documents}
              </Link>
            </li>
            <li>
              <Link to="/contact">{f.contact}</Link>
            </li>
          </ul>
        </nav>
        <nav className="site-footer__nav" aria-label={f.customersTitle}>
          <h2 className="site-footer__title">{f.customersTitle}</h2>
          <ul className="site-footer__links">
            <li>
              <Link to="/how-to-apply">{f.howToApply}</Link>
            </li>
            <li>
              <Link to="/repay">{f.repay}</Link>
            </li>
            <li>
              <Link to="/faq">{f.faq}</Link>
            </li>
          </ul>
        </nav>
        <nav className="site-footer__nav" aria-label={f.legalTitle}>
          <h2 className="site-footer__title">{f.legalTitle}</h2>
          <ul className="site-footer__links">
            <li>
              <Link to="/documents/policy">{f.privacy}</Link>
            </li>
            <li>
              <Link to="/documents/terms">{f.terms}</Link>
            </li>
          </ul>
        </nav>
        <div className="site-footer__social">
          <h2 className="site-footer__title">{f.socialTitle}</h2>
          <a
            className="social-link"
            href={FACEBOOK_URL}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={f.facebookLabel}
          >
            <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path
                fill="currentColor"
                d="M24 12.07C24 5.41 18.63 0 12 0S0 5.4 0 12.07C0 18.1 4.39 23.1 10.13 24v-8.44H7.08v-3.49h3.04V9.41c0-3.02 1.8-4.7 4.54-4.7 1.31 0 2.68.24 2.68.24v2.97h-1.5c-1.5 0-1.96.93-1.96 1.89v2.26h3.32l-.53 3.49h-2.8V24C19.62 23.1 24 18.1 24 12.07z"
              />
            </svg>
            <span>{f.facebook}</span>
          </a>
        </div>
        <AppLinks className="site-footer__nav" />
      </div>
      <div className="site-footer__bottom">
        <div className="container site-footer__legal">
          <p>{fmt(f.rights, { year })}</p>
          <p>{f.registration}</p>
          <p>{f.regulated}</p>
        </div>
      </div>
    </footer>
  )
}
