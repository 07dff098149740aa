// Rows a part keeps in Koishi's database under `storage: database` (SPEC §25: tasks that instances
// sharing the database fire once): one table per part, whose rows are one runtime's (the edge adds
// and filters the runtime's key, so a part never sees another runtime's rows). A conditional update
// (`update` with the fields a row must still have) is how instances agree on who does what.

/**
 * A column's kind: 'string' up to 255 characters as the database stores them (upper case, spaces
 * and non-ASCII take 3 per UTF-8 byte: src/koishi/record-values.ts), 'text' any length.
 */
export type RecordField = 'string' | 'text' | 'double' | 'integer' | 'json'

export interface RecordTableSpec<R> {
  /** the table's name after `kotodama_` */
  name: string
  fields: { readonly [K in keyof R]-?: RecordField }
  /** unique within a runtime */
  primary: keyof R & string
}

/** Equality on each field named (a row matches when all are equal): 'string', 'integer' and 'double' fields only. */
export type RecordWhere<R> = Partial<R>

/** Every method throws with the table's name and the driver's words when the database fails. */
export interface RecordTable<R> {
  find(where?: RecordWhere<R>): Promise<R[]>
  create(row: R): Promise<void>
  /** changes the rows that match `where`; how many did (0: another instance changed it first) */
  update(where: RecordWhere<R>, patch: Partial<R>): Promise<number>
  /** how many were removed */
  remove(where: RecordWhere<R>): Promise<number>
}

/** One runtime's tables on Koishi's database. */
export interface PartRecords {
  table<R extends object>(spec: RecordTableSpec<R>): RecordTable<R>
}
