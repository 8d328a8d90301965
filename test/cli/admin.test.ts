import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { verify } from "@node-rs/argon2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateStaff } from "../../server/auth/staff";
import { resetStaffPassword } from "../../server/auth/staff-password-reset";
import { adminCommands, adminUsage, parseAdminCommand, UsageError } from "../../server/cli/admin";
import { acquireEmbeddedLock } from "../../server/db/embedded-lock";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { startRestServer } from "../helpers/rest";

const run = promisify(execFile);
const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PARTNER_KEY = /^expmon_p_[0-9A-Za-z]{46}$/;
const DISTRIBUTOR_KEY = /^expmon_d_[0-9A-Za-z]{46}$/;

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb?.close();
});

async function admin(...argv: string[]) {
  const { command, values } = parseAdminCommand(argv);
  return command.run(testDb.db, values) as Promise<Record<string, unknown>>;
}

describe("admin commands", () => {
  it("create-distributor and create-partner return an id and a working API key", async () => {
    const distributor = await admin("create-distributor", "--name", "Northwind");
    expect(Object.keys(distributor).sort()).toEqual(["apiKey", "id"]);
    expect(distributor.id).toMatch(UUID);
    expect(distributor.apiKey).toMatch(DISTRIBUTOR_KEY);
    const partner = await admin("create-partner", "--distributor", String(distributor.id), "--name", "Acme IT");
    expect(partner.id).toMatch(UUID);
    expect(partner.apiKey).toMatch(PARTNER_KEY);

    const server = await startRestServer(testDb.db);
    try {
      const asPartner = await server.api.get("/api/v1/integrations/partner/plans", {
        "SW-PARTNER-ID": String(partner.id),
        "SW-API-KEY": String(partner.apiKey),
      });
      expect(asPartner.status).toBe(200);
      const asDistributor = await server.api.get("/api/v1/distributors/plans", {
        "SW-DISTRIBUTOR-ID": String(distributor.id),
        "SW-API-KEY": String(distributor.apiKey),
      });
      expect(asDistributor.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("create-distributor takes a domain policy (default verified), and set-domain-policy changes it", async () => {
    const policyOf = async (id: unknown) =>
      (await testDb.db.distributor.findUniqueOrThrow({ where: { id: String(id) }, select: { domainPolicy: true } })).domainPolicy;
    const byDefault = await admin("create-distributor", "--name", "Policy default");
    expect(await policyOf(byDefault.id)).toBe("verified");
    const trusted = await admin("create-distributor", "--name", "Policy trusted", "--domain-policy", "trusted");
    expect(await policyOf(trusted.id)).toBe("trusted");
    expect(await admin("set-domain-policy", "--distributor", String(trusted.id), "--policy", "verified")).toEqual({
      id: trusted.id,
      domainPolicy: "verified",
    });
    expect(await policyOf(trusted.id)).toBe("verified");
  });

  it("create-api-key issues a further key for a partner or a distributor", async () => {
    const distributor = await admin("create-distributor", "--name", "D2");
    const partner = await admin("create-partner", "--distributor", String(distributor.id), "--name", "P2");
    const forPartner = await admin("create-api-key", "--partner", String(partner.id));
    expect(Object.keys(forPartner)).toEqual(["apiKey"]);
    expect(forPartner.apiKey).not.toBe(partner.apiKey);
    const forDistributor = await admin("create-api-key", "--distributor", String(distributor.id));
    expect(forDistributor.apiKey).toMatch(DISTRIBUTOR_KEY);
    expect(await testDb.db.apiKey.count({ where: { partnerId: String(partner.id) } })).toBe(2);
  });

  it("create-staff stores an argon2id hash of the password, never the password", async () => {
    const distributor = await admin("create-distributor", "--name", "D3");
    const staff = await admin(
      "create-staff",
      "--distributor",
      String(distributor.id),
      "--email",
      "Ops@Example.com",
      "--password",
      "correct horse battery",
    );
    expect(staff.id).toMatch(UUID);
    const row = await testDb.db.staffUser.findUniqueOrThrow({ where: { id: String(staff.id) } });
    expect(row.email).toBe("ops@example.com");
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verify(row.passwordHash!, "correct horse battery")).toBe(true);
    await expect(
      admin("create-staff", "--distributor", String(distributor.id), "--email", "ops@example.com", "--password", "another password"),
    ).rejects.toThrow("already exists");
    await expect(
      admin("create-staff", "--distributor", String(distributor.id), "--email", "x@example.com", "--password", "short"),
    ).rejects.toThrow("at least 12 characters");
    await expect(
      admin("create-staff", "--distributor", String(distributor.id), "--email", "x@example.com", "--password", "qwerty123456"),
    ).rejects.toThrow("most common passwords");
  });

  it("reset-staff-password prints a one-time link with which the staff member sets a new password", async () => {
    const distributor = await admin("create-distributor", "--name", "D5");
    await admin(
      "create-staff",
      "--distributor",
      String(distributor.id),
      "--email",
      "reset@example.com",
      "--password",
      "correct horse battery",
    );
    const printed = await admin("reset-staff-password", "--email", "Reset@Example.com");
    expect(Object.keys(printed).sort()).toEqual(["expiresAt", "url"]);
    expect(printed.url).toMatch(/^http:\/\/localhost:\d+\/admin\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(String(printed.expiresAt)) - Date.now()).toBeGreaterThan(59 * 60 * 1000);

    const token = new URL(String(printed.url)).searchParams.get("token")!;
    await resetStaffPassword(testDb.db, { token, newPassword: "a fresh staff passphrase" });
    expect(await authenticateStaff(testDb.db, { email: "reset@example.com", password: "a fresh staff passphrase" })).toMatchObject({
      ok: true,
    });
    await expect(admin("reset-staff-password", "--email", "nobody@example.com")).rejects.toThrow(
      "No staff user with e-mail nobody@example.com",
    );
  });

  it("remove-staff removes the account", async () => {
    const distributor = await admin("create-distributor", "--name", "D6");
    const staff = await admin(
      "create-staff",
      "--distributor",
      String(distributor.id),
      "--email",
      "gone@example.com",
      "--password",
      "correct horse battery",
    );
    expect(await admin("remove-staff", "--email", "gone@example.com")).toEqual({ id: staff.id });
    expect(await testDb.db.staffUser.count({ where: { email: "gone@example.com" } })).toBe(0);
    await expect(admin("remove-staff", "--email", "gone@example.com")).rejects.toThrow("No staff user with e-mail gone@example.com");
  });

  it("create-billing-code returns an integer id and refuses a duplicate code", async () => {
    const distributor = await admin("create-distributor", "--name", "D4");
    const code = await admin("create-billing-code", "--distributor", String(distributor.id), "--code", "SW-A", "--price", "9.5");
    expect(Number.isInteger(code.id)).toBe(true);
    const row = await testDb.db.billingCode.findUniqueOrThrow({ where: { id: Number(code.id) } });
    expect(row.price.toNumber()).toBe(9.5);
    await expect(admin("create-billing-code", "--distributor", String(distributor.id), "--code", "SW-A", "--price", "1")).rejects.toThrow(
      "already exists",
    );
  });

  it.each([
    [["nope"], 'unknown command "nope"'],
    [["create-distributor"], "--name is required"],
    [["create-partner", "--distributor", "abc", "--name", "x"], "--distributor must be a distributor id"],
    [["create-api-key"], "exactly one of --partner or --distributor"],
    [["reset-staff-password"], "--email is required"],
    [["create-billing-code", "--distributor", crypto.randomUUID(), "--code", "X", "--price", "cheap"], "--price must be a number"],
    [["create-distributor", "--name", "x", "--colour", "red"], "Unknown option"],
    [["create-distributor", "--name", "x", "--domain-policy", "open"], '--domain-policy must be one of verified, trusted (got "open")'],
    [["set-domain-policy", "--distributor", crypto.randomUUID(), "--policy", "trusted"], "no distributor with id"],
    [["set-domain-policy", "--distributor", crypto.randomUUID()], "--policy is required"],
  ])("refuses %j with a usage error", async (argv, message) => {
    const attempt = (async () => {
      const { command, values } = parseAdminCommand(argv);
      await command.run(testDb.db, values);
    })();
    await expect(attempt).rejects.toBeInstanceOf(UsageError);
    await expect(attempt).rejects.toThrow(message);
  });

  it("lists every command in --help", () => {
    for (const name of Object.keys(adminCommands)) expect(adminUsage()).toContain(name);
  });
});

describe("the admin script", { timeout: 120_000 }, () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "admin-cli-"));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  const script = (...argv: string[]) =>
    run(process.execPath, [tsxCli, "scripts/admin.ts", ...argv], {
      // LOG_LEVEL as an operator has it (the tests' own default is warn): no info line may reach stdout.
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "info" },
    });

  it("prints exactly one JSON object on stdout and nothing else, on a fresh embedded database", async () => {
    const { stdout } = await script("create-distributor", "--name", "Script Co");
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const parsed = JSON.parse(lines[0]!);
    expect(Object.keys(parsed).sort()).toEqual(["apiKey", "id"]);
    const partner = JSON.parse((await script("create-partner", "--distributor", parsed.id, "--name", "P")).stdout);
    expect(partner.id).toMatch(UUID);
    await script("create-staff", "--distributor", parsed.id, "--email", "script@example.com", "--password", "correct horse battery");
    const reset = (await script("reset-staff-password", "--email", "script@example.com")).stdout.trim().split("\n");
    expect(reset).toHaveLength(1);
    expect(Object.keys(JSON.parse(reset[0]!)).sort()).toEqual(["expiresAt", "url"]);
  });

  it("exits 2 with a message on stderr for a wrong command line", async () => {
    const failure = await script("create-partner", "--name", "x").then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stdout).toBe("");
    expect(failure?.stderr).toContain("--distributor is required");
  });

  it("stops with a clear message, exit 1, while another process holds the embedded database", async () => {
    const release = acquireEmbeddedLock(dataDir);
    try {
      const failure = await script("create-distributor", "--name", "Blocked").then(
        () => undefined,
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stdout).toBe("");
      expect(failure?.stderr).toContain("is in use by another process");
      expect(failure?.stderr).toContain("DATABASE_URL");
    } finally {
      release();
    }
    // nothing was corrupted: the database opens and works afterwards
    expect(JSON.parse((await script("create-distributor", "--name", "After")).stdout).id).toMatch(UUID);
  });
});
