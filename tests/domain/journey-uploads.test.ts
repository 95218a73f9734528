import { describe, expect, it } from 'vitest'
import { imageAgeProblem, sniffMime } from '../../domain/journey/uploads'

const bytes = (...values: number[]) => new Uint8Array(values)

describe('sniffMime', () => {
  it('recognises JPEG, PNG and PDF by their first bytes', () => {
    expect(sniffMime(bytes(0xff, 0xd8, 0xff, 0xdb, 0))).toBe('image/jpeg')
    expect(sniffMime(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe('image/png')
    expect(sniffMime(new TextEncoder().encode('%PDF-1.7\n'))).toBe('application/pdf')
  })
  it('refuses anything else, including near misses and empty files', () => {
    expect(sniffMime(bytes())).toBeNull()
    expect(sniffMime(bytes(0xff, 0xd8))).toBeNull()
    expect(sniffMime(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0b))).toBeNull()
    expect(sniffMime(new TextEncoder().encode('GIF89a'))).toBeNull()
    expect(sniffMime(new TextEncoder().encode('%PDF'))).toBeNull()
    expect(sniffMime(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull()
  })
})

describe('imageAgeProblem', () => {
  const now = new Date('2026-11-22T05:00:00Z')
  const ago = (ms: number) => new Date(now.getTime() - ms)
  it('0 means no limit, even without a capture time', () => {
    expect(imageAgeProblem(null, now, 0)).toBeNull()
    expect(imageAgeProblem(ago(86_400_000), now, 0)).toBeNull()
  })
  it('with a limit: a capture time is needed and must be within it, inclusive', () => {
    expect(imageAgeProblem(null, now, 30)).toBe('error-file-age')
    expect(imageAgeProblem(ago(30_000), now, 30)).toBeNull()
    expect(imageAgeProblem(ago(30_001), now, 30)).toBe('error-file-age')
  })
  it('tolerates 5 seconds of clock skew into the future, not more', () => {
    expect(imageAgeProblem(ago(-5_000), now, 30)).toBeNull()
    expect(imageAgeProblem(ago(-5_001), now, 30)).toBe('error-file-age')
  })
})
