import { existsSync, readFileSync, rmSync } from "node:fs";
import { dropDatabase } from "../scripts/lib/scratch-database";
import { E2E_DATABASE, SERVER_PID } from "./global-setup";

export default async function globalTeardown() {
  if (existsSync(SERVER_PID)) {
    try {
      process.kill(-Number(readFileSync(SERVER_PID, "utf8")), "SIGTERM");
    } catch {
      // already gone
    }
    rmSync(SERVER_PID);
  }
  if (existsSync(E2E_DATABASE)) {
    const { adminUrl, name } = JSON.parse(readFileSync(E2E_DATABASE, "utf8")) as { adminUrl: string; name: string };
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await dropDatabase(adminUrl, name);
    rmSync(E2E_DATABASE);
  }
}
