/**
 * Writes a Brotli (`.br`) and a gzip (`.gz`) copy beside every text file of the build (issue 21, item 1), so
 * the server sends compressed bytes without compressing anything per request (server/http/spa.ts). Both at
 * their highest level: the build pays once, every visitor on mobile data gains. Source maps are the exception:
 * only a developer's tools fetch them, and Brotli's top quality on them took 8 s of a 16 s build for 10% less
 * (quality 5: 0.2 s). A copy is kept only when it is smaller than the file; the server then sends the file itself.
 *
 * It walks the output directory once everything is written, so the files copied from public/ and those other
 * plugins emit (routes.json) get their copies too.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Plugin, ResolvedConfig } from 'vite'

/** The extensions the server may send compressed: everything the build writes as text. */
export const COMPRESSIBLE_EXTENSIONS = [
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.svg',
  '.json',
  '.webmanifest',
  '.txt',
  '.map',
]

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

export interface Precompressed {
  file: string
  size: number
  br?: number
  gz?: number
}

/** Writes the copies for one file; a copy no smaller than the file is not written. */
async function precompressFile(file: string): Promise<Precompressed> {
  const bytes = await readFile(file)
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: file.endsWith('.map') ? 5 : constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzipAsync(bytes, { level: constants.Z_BEST_COMPRESSION }),
  ])
  const result: Precompressed = { file, size: bytes.length }
  if (br.length < bytes.length) {
    await writeFile(`${file}.br`, br)
    result.br = br.length
  }
  if (gz.length < bytes.length) {
    await writeFile(`${file}.gz`, gz)
    result.gz = gz.length
  }
  return result
}

/** Every text file under `dir` (recursively), compressed copies and other files left out. */
async function textFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile() && COMPRESSIBLE_EXTENSIONS.includes(extname(entry.name)))
    .map((entry) => join(entry.parentPath, entry.name))
}

/** Compresses every text file of a directory; a few at a time, so a large build does not hold all in memory. */
export async function precompressDirectory(dir: string, parallel = 8): Promise<Precompressed[]> {
  const files = await textFiles(dir)
  const results: Precompressed[] = []
  let next = 0
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!
      // Skip empty files: nothing to gain, and a 0-byte file has no smaller copy.
      if ((await stat(file)).size > 0) results.push(await precompressFile(file))
    }
  }
  await Promise.all(Array.from({ length: Math.min(parallel, files.length) }, worker))
  return results
}

export function precompressPlugin(): Plugin {
  let config: ResolvedConfig
  return {
    name: 'hiram-precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved
    },
    writeBundle: {
      // After every other plugin has written its files.
      order: 'post',
      sequential: true,
      async handler(options) {
        const dir = options.dir ?? config.build.outDir
        const results = await precompressDirectory(dir)
        const brCount = results.filter((r) => r.br !== undefined).length
        config.logger.info(
          `precompressed ${results.length} text files (${brCount} with a smaller Brotli copy)`,
        )
      },
    },
  }
}
