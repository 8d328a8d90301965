import { existsSync, readFileSync, rmSync } from "node:fs";
import pg from "pg";
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
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.end();
    rmSync(E2E_DATABASE);
  }
}
