// @vitest-environment happy-dom
/**
 * Real-user metrics (issue 21, item 4; docs/decisions/0043): LCP, INP and CLS go to the tag manager beside the page
 * views, each as the library reports it, and the library is loaded only after the page has loaded, never with it.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Metric } from 'web-vitals'

const reporters: Record<string, (metric: Metric) => void> = {}
vi.mock('web-vitals', () => ({
  onLCP: (send: (metric: Metric) => void) => {
    reporters.LCP = send
  },
  onINP: (send: (metric: Metric) => void) => {
    reporters.INP = send
  },
  onCLS: (send: (metric: Metric) => void) => {
    reporters.CLS = send
  },
}))

const metric = (name: Metric['name'], value: number) =>
  ({
    name,
    value,
    rating: 'good',
    delta: value,
    id: `v6-${name}`,
    navigationType: 'navigate',
  }) as unknown as Metric

afterEach(() => {
  window.dataLayer = undefined
  for (const key of Object.keys(reporters)) delete reporters[key]
})

describe('web vitals', () => {
  it('are pushed to the dataLayer once reported, LCP and INP in whole ms, CLS as a score', async () => {
    const { reportWebVitals } = await import('../../src/app/navigation')
    reportWebVitals()
    await vi.waitFor(() => expect(Object.keys(reporters).sort()).toEqual(['CLS', 'INP', 'LCP']))
    reporters.LCP!(metric('LCP', 1834.6))
    reporters.INP!(metric('INP', 96))
    reporters.CLS!(metric('CLS', 0.04217))
    expect(window.dataLayer).toEqual([
      expect.objectContaining({
        event: 'web_vitals',
        metric_name: 'LCP',
        metric_value: 1835,
        metric_rating: 'good',
      }),
      expect.objectContaining({ event: 'web_vitals', metric_name: 'INP', metric_value: 96 }),
      expect.objectContaining({
        event: 'web_vitals',
        metric_name: 'CLS',
        metric_value: 0.042,
        page_path: '/',
      }),
    ])
  })

  it('are not part of the page load: the library is imported only dynamically', () => {
    const source = readFileSync(join(import.meta.dirname, '../../src/app/navigation.ts'), 'utf8')
    expect(source).toMatch(/import\('web-vitals'\)/)
    // A type import is erased; any other static import would put the library in the entry chunk.
    expect(source).not.toMatch(/^import (?!type )[^\n]*from 'web-vitals'/m)
  })
})
