/**
 * The column helpers every schema file uses: times are UTC `timestamptz`, money is integer centavos in `bigint`
 * (read as a JS number: centavos stay far below 2^53), row ids are identity `bigint`s.
 */
import { bigint, timestamp } from 'drizzle-orm/pg-core'

export const ts = (name: string) => timestamp(name, { withTimezone: true })
export const money = (name: string) => bigint(name, { mode: 'number' })
export const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity()
export const ref = (name: string) => bigint(name, { mode: 'number' })
