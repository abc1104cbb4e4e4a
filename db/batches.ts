/** How many rows a purge deletes in one statement: a first run on a big old table never locks it for long. */
export const PURGE_BATCH_SIZE = 1000;

/**
 * Runs `deleteBatch` (one statement deleting at most `batchSize` rows, returning how many it deleted) until a
 * batch deletes fewer than `batchSize`; returns the total. Each batch is its own statement, not one transaction.
 */
export async function deleteInBatches(
  deleteBatch: (batchSize: number) => Promise<number | bigint>,
  batchSize = PURGE_BATCH_SIZE,
): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = Number(await deleteBatch(batchSize));
    total += deleted;
    if (deleted < batchSize) return total;
  }
}
