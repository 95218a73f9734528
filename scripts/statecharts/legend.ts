/**
 * The legend of a numbered diagram (issue 20 item 5): a diagram too wide with its edge labels prints each
 * transition's number instead (`toSmcatAst(chart, { numbered: true })`), and this lists the numbers under the
 * drawing, with the event, guard, source and target, so the SVG reads alone (the back office shows it without its
 * Markdown). Written into the SVG after Graphviz's layout: Graphviz would place a legend box wherever it fits,
 * often beside the drawing, which is the width we are saving.
 */
import { type Chart, type ChartTransition, transitionLabel } from './render'
import { MAX_DIAGRAM_WIDTH_PT, svgWidthPt } from './split'

/**
 * Helvetica's advance widths in thousandths of the font size (Adobe's AFM; Arial and Liberation Sans, what a
 * browser substitutes, share them), for the characters labels use. Anything else counts as wide as an `M`.
 */
const HELVETICA: Record<string, number> = {
  ' ': 278,
  '!': 278,
  '(': 333,
  ')': 333,
  ',': 278,
  '-': 333,
  '.': 278,
  '/': 278,
  ':': 278,
  '[': 278,
  ']': 278,
  _: 556,
  '›': 333,
  '→': 1000,
  ...Object.fromEntries([...'0123456789'].map((d) => [d, 556])),
  ...Object.fromEntries(
    [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [
      c,
      [
        667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611,
        722, 667, 944, 667, 667, 611,
      ][i] as number,
    ]),
  ),
  ...Object.fromEntries(
    [...'abcdefghijklmnopqrstuvwxyz'].map((c, i) => [
      c,
      [
        556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278,
        556, 500, 722, 500, 500, 500,
      ][i] as number,
    ]),
  ),
}

/** The width of `text` in Helvetica at `fontSize` points, in points (rounded up). */
export function textWidthPt(text: string, fontSize: number, bold = false): number {
  let thousandths = 0
  for (const c of text) thousandths += HELVETICA[c] ?? 833
  // Helvetica Bold is about 6 % wider on the characters numbers use.
  return Math.ceil((thousandths * fontSize * (bold ? 1.06 : 1)) / 1000)
}

export interface LegendEntry {
  /** The numbers the edge carries, e.g. `12` or `3, 7`. */
  refs: string
  /** `TOKEN.RECEIVED [isMfaToken]: loggedIn → mfaRequired` */
  text: string
}

/** One entry per drawn transition that has numbers, in number order. */
export function legendEntries(chart: Chart): LegendEntry[] {
  const keyOf = new Map(chart.states.map((s) => [s.id, s.key.replace(/^→ /, '')]))
  const key = (id: string) => keyOf.get(id) ?? id
  const numbered = chart.transitions.filter((t): t is ChartTransition & { refs: number[] } =>
    Boolean(t.refs?.length),
  )
  return numbered
    .sort((a, b) => (a.refs[0] as number) - (b.refs[0] as number))
    .map((t) => ({
      refs: t.refs.join(', '),
      text: `${transitionLabel(t)}: ${key(t.sourceId)} → ${t.targetIds.length ? t.targetIds.map(key).join(', ') : key(t.sourceId)}`,
    }))
}

const FONT = 'font-family="Helvetica,sans-Serif" font-size="10.00"'
const LINE_PT = 13
const PAD_PT = 8
const GAP_PT = 24

function escapeXml(text: string): string {
  return text.replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string,
  )
}

/**
 * `svg` (Graphviz's, sized in points) with the legend under the drawing: a heading, then the entries in as many
 * columns as fit the drawing's width (at least 600pt, at most `MAX_DIAGRAM_WIDTH_PT`), filled top to bottom.
 */
export function withLegend(svg: string, entries: LegendEntry[]): string {
  if (entries.length === 0) return svg
  const size =
    /<svg width="([\d.]+)pt" height="([\d.]+)pt"\s+viewBox="([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+)"/.exec(svg)
  if (!size) throw new Error('withLegend: the SVG does not declare its size the way Graphviz does')
  const width = svgWidthPt(svg)
  const height = Number(size[2])
  const refsWidth = Math.max(...entries.map((e) => textWidthPt(e.refs, 10, true))) + 6
  const columnWidth = refsWidth + Math.max(...entries.map((e) => textWidthPt(e.text, 10))) + GAP_PT
  const available = Math.min(MAX_DIAGRAM_WIDTH_PT, Math.max(width, 600)) - 2 * PAD_PT + GAP_PT
  const columns = Math.max(1, Math.min(Math.floor(available / columnWidth), Math.ceil(entries.length / 6)))
  const rows = Math.ceil(entries.length / columns)
  const newWidth = Math.ceil(Math.max(width, 2 * PAD_PT + columns * columnWidth - GAP_PT))
  const legendHeight = PAD_PT + LINE_PT * (rows + 1) + PAD_PT
  const newHeight = Math.ceil(height + legendHeight)
  const lines: string[] = [
    `<g id="legend" class="legend" transform="translate(0 ${height})">`,
    `<rect x="0" y="0" width="${newWidth}" height="${legendHeight}" fill="white" stroke="none"/>`,
    `<text x="${PAD_PT}" y="${PAD_PT + 10}" ${FONT} font-weight="bold">The numbers on the arrows:</text>`,
  ]
  entries.forEach((entry, i) => {
    const x = PAD_PT + Math.floor(i / rows) * columnWidth
    const y = PAD_PT + 10 + LINE_PT * ((i % rows) + 1)
    lines.push(`<text x="${x}" y="${y}" ${FONT} font-weight="bold">${escapeXml(entry.refs)}</text>`)
    lines.push(`<text x="${x + refsWidth}" y="${y}" ${FONT}>${escapeXml(entry.text)}</text>`)
  })
  lines.push('</g>')
  const resized = svg.replace(
    size[0],
    `<svg width="${newWidth}pt" height="${newHeight}pt"\n viewBox="${size[3]} ${size[4]} ${newWidth}.00 ${newHeight}.00"`,
  )
  // The drawing's white background covers its own width only: a wider legend gets one behind everything.
  const background =
    newWidth > width
      ? `<rect x="0" y="0" width="${newWidth}" height="${newHeight}" fill="white" stroke="none"/>\n`
      : ''
  const withBackground = background ? resized.replace(/(<svg[^>]*>\n)/, `$1${background}`) : resized
  const end = withBackground.lastIndexOf('</svg>')
  return `${withBackground.slice(0, end)}${lines.join('\n')}\n${withBackground.slice(end)}`
}
