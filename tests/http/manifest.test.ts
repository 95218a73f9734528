/**
 * The web app manifest's builder and its icons (issue 22 item 3, docs/decisions/0045-installable-app.md): what
 * Chrome needs to install the site (name, start URL, standalone, PNG icons of 192 and 512 plain and maskable),
 * the related Play app only for an enabled Android entry with a Play address carrying an application id, and the
 * committed PNGs exactly the pixels scripts/app-icons.ts draws. The HTTP side is in tests/api/installable-app.test.ts.
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { ICONS, iconPixels } from '../../scripts/app-icons'
import { BACKGROUND_COLOR, playStoreId, THEME_COLOR, webManifest } from '../../server/http/manifest'

const root = resolve(import.meta.dirname, '../..')
const PLAY = 'https://play.google.com/store/apps/details?id=ph.hiram.app'

describe('the manifest builder', () => {
  it('makes the site installable: name, short name, start URL and scope, standalone, the design colours', () => {
    const manifest = webManifest([])
    expect(manifest).toMatchObject({
      short_name: 'Hiram',
      start_url: '/',
      scope: '/',
      id: '/',
      display: 'standalone',
      theme_color: '#0b5d4b',
      lang: 'en',
    })
    expect(manifest.name).toMatch(/^Hiram/)
    // The colours are the design's: the theme colour index.html already declares, the page background token.
    const tokens = readFileSync(join(root, 'src/ui/styles/tokens.css'), 'utf8')
    expect(tokens).toContain(`--color-primary: ${THEME_COLOR};`)
    expect(tokens).toContain(`--color-bg: ${BACKGROUND_COLOR};`)
    expect(readFileSync(join(root, 'index.html'), 'utf8')).toContain(`content="${THEME_COLOR}"`)
  })

  it('lists PNG icons of 192 and 512, plain and maskable, and the SVG mark, each a file of public/', () => {
    const { icons } = webManifest([])
    for (const size of ['192x192', '512x512'])
      for (const purpose of ['any', 'maskable'])
        expect(
          icons.filter((i) => i.sizes === size && i.type === 'image/png' && i.purpose === purpose),
        ).toHaveLength(1)
    expect(icons.some((i) => i.type === 'image/svg+xml' && i.sizes === 'any')).toBe(true)
    for (const icon of icons) expect(() => readFileSync(join(root, 'public', icon.src))).not.toThrow()
  })

  it('names the enabled Android entry as the related Play app, and prefers nothing over the site', () => {
    const manifest = webManifest([{ platform: 'android', url: PLAY }])
    expect(manifest.related_applications).toEqual([{ platform: 'play', url: PLAY, id: 'ph.hiram.app' }])
    expect(manifest.prefer_related_applications).toBe(false)
  })

  it('names no related app without an Android entry, or when its address is not a Play listing with an id', () => {
    expect(webManifest([]).related_applications).toEqual([])
    expect(
      webManifest([{ platform: 'ios', url: 'https://apps.apple.com/ph/app/hiram/id1' }]).related_applications,
    ).toEqual([])
    expect(
      webManifest([{ platform: 'android', url: 'https://hiram.ph/app.apk' }]).related_applications,
    ).toEqual([])
  })

  it('reads the application id only from a Google Play details address', () => {
    expect(playStoreId(PLAY)).toBe('ph.hiram.app')
    expect(playStoreId('https://play.google.com/store/apps/details?hl=en&id=com.example.loan_2')).toBe(
      'com.example.loan_2',
    )
    for (const url of [
      'https://play.google.com/store/apps/details', // no id
      'https://play.google.com/store/apps/details?id=', // empty id
      'https://play.google.com/store/apps/details?id=nodots', // not a package name
      'https://play.google.com/store/apps/details?id=ph.hiram.app%22%3E', // not a package name
      'http://play.google.com/store/apps/details?id=ph.hiram.app', // not https
      'https://play.google.com.evil.example/store/apps/details?id=ph.hiram.app', // another host
      'https://evil.example/?u=https://play.google.com/store/apps/details?id=ph.hiram.app',
      'https://play.google.com/store/search?q=hiram&id=ph.hiram.app', // not a details page
      'not a url',
    ])
      expect(playStoreId(url), url).toBeUndefined()
  })
})

/** The pixels of a PNG of scripts/app-icons.ts (8-bit RGBA, filter none): its IHDR and its inflated rows. */
function decodePng(bytes: Buffer): { width: number; height: number; pixels: Uint8Array } {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  let at = 8
  let width = 0
  let height = 0
  const data: Buffer[] = []
  while (at < bytes.length) {
    const length = bytes.readUInt32BE(at)
    const type = bytes.toString('latin1', at + 4, at + 8)
    const body = bytes.subarray(at + 8, at + 8 + length)
    if (type === 'IHDR') {
      width = body.readUInt32BE(0)
      height = body.readUInt32BE(4)
      expect([body[8], body[9]]).toEqual([8, 6])
    }
    if (type === 'IDAT') data.push(body)
    at += 12 + length
  }
  const raw = inflateSync(Buffer.concat(data))
  const pixels = new Uint8Array(width * height * 4)
  for (let y = 0; y < height; y++) {
    expect(raw[y * (width * 4 + 1)]).toBe(0)
    pixels.set(raw.subarray(y * (width * 4 + 1) + 1, (y + 1) * (width * 4 + 1)), y * width * 4)
  }
  return { width, height, pixels }
}

describe('the icons', () => {
  it.each(
    ICONS.map((icon) => [icon.file, icon] as const),
  )('public/icons/%s is the PNG scripts/app-icons.ts draws', (file, icon) => {
    const png = decodePng(readFileSync(join(root, 'public/icons', file)))
    expect([png.width, png.height]).toEqual([icon.size, icon.size])
    expect(Buffer.from(png.pixels).equals(Buffer.from(iconPixels(icon.size, icon.kind)))).toBe(true)
  })

  it('fills a maskable icon to its corners and leaves the plain one rounded', () => {
    const corner = (pixels: Uint8Array) => pixels[3]
    const centre = (pixels: Uint8Array, size: number) =>
      Array.from(pixels.subarray(((size / 2) * size + size / 2) * 4, ((size / 2) * size + size / 2) * 4 + 4))
    expect(corner(iconPixels(192, 'maskable'))).toBe(255)
    expect(corner(iconPixels(192, 'any'))).toBe(0)
    // The middle of the "H" bar: the gold of the accent, opaque.
    expect(centre(iconPixels(192, 'any'), 192)).toEqual([0xf4, 0xc5, 0x42, 255])
  })
})
