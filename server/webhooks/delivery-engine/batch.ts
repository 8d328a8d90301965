import type { Db } from "../../db/client";
import { performAttempt } from "./attempt";
import { claimAttempts } from "./claim";
import { ResultWriter } from "./outcomes";
import { forEachConcurrently } from "../../concurrently";

/** Claims, sends and records one batch, `concurrency` requests at a time. Returns how many it claimed. */
export async function deliverDueBatch(db: Db, { limit = 100, concurrency = 16 } = {}): Promise<number> {
  const { claimed, started: attempts } = await claimAttempts(db, { limit });
  const writer = new ResultWriter(db);
  await forEachConcurrently(attempts, concurrency, (attempt) => performAttempt(db, writer, attempt));
  return claimed;
}
