import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

export class EmbeddedDatabaseInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by another process (pid ${pid}), usually the running server. ` +
        `PGlite allows one process per directory: stop that process first, or set DATABASE_URL to a PostgreSQL ` +
        `database, which the server and the admin CLI can share.`,
    );
    this.name = "EmbeddedDatabaseInUseError";
  }
}

/**
 * PGlite opens its directory in one process only; a second process would corrupt it. This lock
 * file (holding the owner's pid) makes a second opener fail with a clear message instead.
 * A lock left by a process that no longer exists is taken over.
 */
export function acquireEmbeddedLock(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, "pglite.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (readFileSync(lockPath, "utf8").trim() === String(process.pid)) unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number(readFileSync(lockPath, "utf8").trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new EmbeddedDatabaseInUseError(dataDir, owner);
      }
      unlinkSync(lockPath);
    }
  }
  throw new Error(`Could not lock the embedded database in ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
