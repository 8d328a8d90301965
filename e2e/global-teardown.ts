import { existsSync, readFileSync } from "node:fs";
import { SERVER_PID } from "./global-setup";

export default async function globalTeardown() {
  if (!existsSync(SERVER_PID)) return;
  const pid = Number(readFileSync(SERVER_PID, "utf8"));
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    // already gone
  }
}
