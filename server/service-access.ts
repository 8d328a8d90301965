import { randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, openSync, readFileSync, closeSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import { config } from "./config";

/**
 * How the admin CLI reaches a running server that holds the embedded database (one process per
 * directory): at start the server writes its address and a random token into
 * DATA_DIR/service-access.json, readable and writable by the server's own user only (mode 0600),
 * and accepts the token on the breach-data upload paths as the CLI's credential. Whoever can read
 * the file can read the database files beside it, so the token grants nothing the file system
 * does not already give; it is new on every start and the file is removed at shutdown.
 */
export interface ServiceAccess {
  url: string;
  token: string;
  pid: number;
}

export const SERVICE_ACCESS_FILE = "service-access.json";

export function serviceAccessPath(dataDir = config.dataDir()): string {
  return path.join(dataDir, SERVICE_ACCESS_FILE);
}

/** Writes a fresh token for this process; returns the function that removes the file again. */
export function writeServiceAccess(url: string, dataDir = config.dataDir()): () => void {
  const file = serviceAccessPath(dataDir);
  const access: ServiceAccess = { url, token: randomBytes(32).toString("base64url"), pid: process.pid };
  try {
    unlinkSync(file);
  } catch {
    // none yet
  }
  // Created 0600 ("wx": never through a link someone else placed there).
  const fd = openSync(file, "wx", 0o600);
  try {
    writeSync(fd, JSON.stringify(access));
  } finally {
    closeSync(fd);
  }
  chmodSync(file, 0o600);
  return () => {
    try {
      if (readServiceAccess(dataDir)?.pid === process.pid) unlinkSync(file);
    } catch {
      // already gone
    }
  };
}

/** The running server's address and token, or undefined when no server wrote one. */
export function readServiceAccess(dataDir = config.dataDir()): ServiceAccess | undefined {
  try {
    const parsed = JSON.parse(readFileSync(serviceAccessPath(dataDir), "utf8")) as Partial<ServiceAccess>;
    if (typeof parsed.url !== "string" || typeof parsed.token !== "string" || typeof parsed.pid !== "number") return undefined;
    return { url: parsed.url, token: parsed.token, pid: parsed.pid };
  } catch {
    return undefined;
  }
}

/** Whether `presented` is the token this server process wrote (compared in constant time). */
export function isServiceAccessToken(presented: string, dataDir = config.dataDir()): boolean {
  const access = readServiceAccess(dataDir);
  if (!access || access.pid !== process.pid) return false;
  const expected = Buffer.from(access.token);
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
