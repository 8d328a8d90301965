import type { Db } from "../../db/client";
import { performAttempt } from "./attempt";
import { claimAttempts } from "./claim";
import { ResultWriter } from "./outcomes";

/** Claims, sends and records one batch, `concurrency` requests at a time. Returns how many it claimed. */
export async function deliverDueBatch(db: Db, { limit = 100, concurrency = 16 } = {}): Promise<number> {
  const { claimed, started: attempts } = await claimAttempts(db, { limit });
  const writer = new ResultWriter(db);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, attempts.length) }, async () => {
      while (next < attempts.length) await performAttempt(db, writer, attempts[next++]!);
    }),
  );
  return claimed;
}
