import type { Db } from "./db/client";
import { AppError } from "./errors";
import { log } from "./log";

export async function checkDatabase(db: Db): Promise<void> {
  try {
    await db.$queryRawUnsafe("SELECT 1");
  } catch (error) {
    log.error("health check: database unreachable", { error });
    throw new AppError("UNAVAILABLE", "Database unavailable");
  }
}
