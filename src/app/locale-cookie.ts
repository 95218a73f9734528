/**
 * The locale cookie (spec section 9: 365 days): the language the app started in (English only, spec section 1),
 * written each time the app starts in a browser, so it lasts 365 days from the last visit and a server-rendered
 * page or a second language can read it.
 */
import { LOCALE_COOKIE, LOCALE_MAX_AGE_SECONDS } from '../../domain/tracking'
import { writeCookie } from './cookies'

export function rememberLocale(locale = 'en') {
  writeCookie(LOCALE_COOKIE, locale, LOCALE_MAX_AGE_SECONDS)
}
