// Sealing again, under the current data key, every value of a sealed text column that is under an older one:
// `cli db rotate-key` for the columns that hold one sealed value per row (the interviews' two columns and the
// files go through app/interviews/sealing.server.ts). docs/decisions/0033-secrets-and-rotation.md.
import { sql } from "kysely";
import type { Db } from "../../db/database";
import { type DataKeyring, openText, sealText, TEXT_PREFIX } from "./data-encryption.server";

/** A text column whose every non-null value is sealed (`enc1:`), bound to a place named by a column of its row. */
export interface SealedTextColumn {
  table: string;
  column: string;
  /** The row's key: batches are read in its order. */
  key: string;
  /** The column whose value the place is bound to, when not the key. */
  placeBy?: string;
  place(placeId: string): string;
}

export const RESEAL_BATCH_SIZE = 200;

/**
 * Seals again, in batches, every value of the column that is not under the current key; returns how many rows
 * were written. Safe beside running servers: a row is written only if its value has not changed since it was
 * read. A value that is not sealed, or opens under no configured key, throws DataDecryptionError naming its
 * place (never sealed as if it were plain text: it may be a secret in a format this code does not read).
 */
export async function resealTextColumn(db: Db, spec: SealedTextColumn, keys: DataKeyring, batchSize = RESEAL_BATCH_SIZE): Promise<number> {
  const settled = `${TEXT_PREFIX}${keys.current.id}:%`;
  const key = sql.ref(spec.key);
  const column = sql.ref(spec.column);
  const table = sql.table(spec.table);
  let written = 0;
  for (let after = ""; ; ) {
    const { rows } = await sql<{ id: string; place_id: string | null; value: string }>`
      select ${key} as id, ${sql.ref(spec.placeBy ?? spec.key)} as place_id, ${column} as value
      from ${table}
      where ${key} > ${after} and ${column} is not null and ${column} not like ${settled}
      order by ${key}
      limit ${batchSize}`.execute(db);
    if (!rows.length) break;
    after = rows.at(-1)!.id;
    const resealed = rows.map((row) => {
      const place = spec.place(row.place_id ?? "");
      return { row, value: sealText(openText(row.value, place, keys), place, keys) };
    });
    await db.transaction().execute(async (trx) => {
      for (const { row, value } of resealed) {
        const result = await sql`update ${table} set ${column} = ${value} where ${key} = ${row.id} and ${column} = ${row.value}`.execute(trx);
        written += Number(result.numAffectedRows ?? 0);
      }
    });
    if (rows.length < batchSize) break;
  }
  return written;
}
