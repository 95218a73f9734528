/**
 * The installable app's PNG icons (issue 22 item 3, docs/decisions/0045-installable-app.md), drawn from the same
 * geometry as public/favicon.svg (the green tile, rounded 8/32, and the gold "H"), with no image library: the
 * pixels are computed here and written as PNG with node's zlib. Chrome wants PNGs of 192 and 512 pixels to offer
 * installing the site; the maskable ones fill the whole square (the launcher cuts its own shape), the letter
 * well inside the safe zone (a circle of 40% of the size: the letter's corners are at 33%).
 *
 * Usage: tsx scripts/app-icons.ts   (writes public/icons/*.png; the files are committed, the build copies them)
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { deflateSync } from 'node:zlib'

const TILE: readonly [number, number, number] = [0x0b, 0x5d, 0x4b] // --color-primary
const LETTER: readonly [number, number, number] = [0xf4, 0xc5, 0x42] // --color-accent

/** The "H" of the favicon, in its 32-unit square: two posts and the bar (M9 8h4v6h6V8h4v16h-4v-6h-6v6H9z). */
const LETTER_RECTS = [
  [9, 8, 13, 24],
  [19, 8, 23, 24],
  [13, 14, 19, 18],
] as const

export type IconKind = 'any' | 'maskable'

export const ICONS: readonly { size: number; kind: IconKind; file: string }[] = [
  { size: 192, kind: 'any', file: 'icon-192.png' },
  { size: 512, kind: 'any', file: 'icon-512.png' },
  { size: 192, kind: 'maskable', file: 'maskable-192.png' },
  { size: 512, kind: 'maskable', file: 'maskable-512.png' },
]

/** Whether a point of the 32-unit square is inside the tile (rounded by 8 units, or square when maskable). */
function inTile(x: number, y: number, kind: IconKind): boolean {
  if (kind === 'maskable') return true
  const r = 8
  const cx = Math.min(Math.max(x, r), 32 - r)
  const cy = Math.min(Math.max(y, r), 32 - r)
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r
}

const inLetter = (x: number, y: number) =>
  LETTER_RECTS.some(([x0, y0, x1, y1]) => x >= x0 && x < x1 && y >= y0 && y < y1)

/** Samples per pixel side: the rounded corners are smoothed over 4 x 4 samples. */
const SAMPLES = 4

/** The icon's pixels, RGBA, row after row (straight, not premultiplied, alpha). */
export function iconPixels(size: number, kind: IconKind): Uint8Array {
  const pixels = new Uint8Array(size * size * 4)
  const unit = 32 / size
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let tile = 0
      let letter = 0
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const x = (px + (sx + 0.5) / SAMPLES) * unit
          const y = (py + (sy + 0.5) / SAMPLES) * unit
          if (!inTile(x, y, kind)) continue
          if (inLetter(x, y)) letter++
          else tile++
        }
      }
      const covered = tile + letter
      const at = (py * size + px) * 4
      if (covered === 0) continue
      for (let c = 0; c < 3; c++)
        pixels[at + c] = Math.round((TILE[c]! * tile + LETTER[c]! * letter) / covered)
      pixels[at + 3] = Math.round((255 * covered) / (SAMPLES * SAMPLES))
    }
  }
  return pixels
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** An RGBA image as a PNG file: 8 bits per channel, no filter, deflated at the highest level. */
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = 6 // colour type: RGBA
  // compression, filter and interlace methods: 0
  const raw = Buffer.alloc((width * 4 + 1) * height)
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0 // filter: none
    raw.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (width * 4 + 1) + 1)
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', new Uint8Array(0)),
  ])
}

export const iconPng = (size: number, kind: IconKind) => encodePng(size, size, iconPixels(size, kind))

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons')
  mkdirSync(dir, { recursive: true })
  for (const icon of ICONS) {
    const png = iconPng(icon.size, icon.kind)
    writeFileSync(join(dir, icon.file), png)
    console.info(`${icon.file}: ${png.length} bytes`)
  }
}
