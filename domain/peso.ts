/**
 * Money as text: the digits of a centavo amount, shared by the product's formats (format.ts) and the
 * calculator's own (calculator-format.ts) so both read an amount the same way, and the product's peso format,
 * which the calculator's configuration checks also use (a small module the home page can load without the
 * rest of format.ts: issue 21 item 3).
 */

/** The parts of a whole number of centavos; throws for anything else (a display never hides a bad amount). */
export function centavoParts(centavos: number): { negative: boolean; pesos: string; cents: string } {
  if (!Number.isSafeInteger(centavos))
    throw new RangeError(`cannot display ${String(centavos)} as money: not a whole number of centavos`)
  const abs = Math.abs(centavos)
  return {
    negative: centavos < 0,
    pesos: String((abs - (abs % 100)) / 100),
    cents: String(abs % 100).padStart(2, '0'),
  }
}

export const group = (digits: string, separator: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, separator)

/** `₱5,393.76` for 539376; `-₱12.50` for -1250 (ASCII minus, as every screen and document prints it). */
export function formatPhp(centavos: number): string {
  const { negative, pesos, cents } = centavoParts(centavos)
  return `${negative ? '-' : ''}₱${group(pesos, ',')}.${cents}`
}
