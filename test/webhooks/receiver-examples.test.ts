import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { SignatureScheme } from "../../server/webhooks/endpoints";
import { updateEndpoint } from "../../server/webhooks/endpoints";
import { cycleSecret, deactivateSecret, listSecrets } from "../../server/webhooks/secrets";
import { requireTool, type OptionalTool } from "../helpers/optional-tool";
import { createEndpointFixture, deliveriesOf, drainWebhooks, recordTestEvent } from "../helpers/webhook-fixtures";
import { webhookTestBed } from "../helpers/webhook-test-bed";

/**
 * The receivers docs/webhooks.md shows ("Receive webhooks", files in docs/examples/), each run as
 * its own process (tsx, python3, php from Debian's php-cli) and sent real deliveries by the real
 * engine, on both signature schemes: the service must count each delivery as received (on the
 * X-Signature scheme that means the receiver's signed answer verified), the receiver must report
 * the event, and a delivery signed with another organization's token must be refused. Then
 * through a rotation as the guide describes it: cycle, the receiver still on the previous token,
 * then switched to the new one, then the fallback deactivated. python3 and php are optional for
 * `npm test` (README.md, "Tests"): without one, its receiver's deliveries are skipped with the
 * reason, except under CI=true, where they fail.
 */
const testDb = webhookTestBed();
const EXAMPLES = path.resolve("docs/examples");

const RECEIVERS: Array<{ name: string; file: string; interpreter?: OptionalTool; command: (port: number) => [string, string[]] }> = [
  { name: "TypeScript", file: "webhook-receiver.ts", command: () => [path.resolve("node_modules/.bin/tsx"), ["webhook-receiver.ts"]] },
  {
    name: "Python",
    file: "webhook_receiver.py",
    interpreter: { command: "python3", install: "python3" },
    command: () => ["python3", ["webhook_receiver.py"]],
  },
  {
    name: "PHP",
    file: "webhook-receiver.php",
    interpreter: { command: "php", install: "php-cli" },
    command: (port) => ["php", ["-S", `127.0.0.1:${port}`, "webhook-receiver.php"]],
  },
];

const processes: ChildProcess[] = [];
afterAll(() => {
  for (const child of processes) child.kill();
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface RunningReceiver {
  output: () => string;
}

async function startReceiver(receiver: (typeof RECEIVERS)[number], port: number, token: string): Promise<RunningReceiver> {
  const [command, args] = receiver.command(port);
  const child = spawn(command, args, {
    cwd: EXAMPLES,
    env: { NODE_ENV: "production", PATH: process.env.PATH, HOME: process.env.HOME, EXPOSURE_SIGNING_TOKEN: token, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  processes.push(child);
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  // Ready once it accepts connections.
  for (let tries = 0; ; tries++) {
    if (child.exitCode !== null) throw new Error(`${receiver.name} receiver exited: ${output}`);
    const ready = await fetch(`http://127.0.0.1:${port}/`, { method: "GET" }).then(
      () => true,
      () => false,
    );
    if (ready) break;
    if (tries > 300) throw new Error(`${receiver.name} receiver did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { output: () => output };
}

async function waitForOutput(receiver: RunningReceiver, text: string): Promise<void> {
  for (let tries = 0; tries < 100 && !receiver.output().includes(text); tries++) await new Promise((r) => setTimeout(r, 50));
  expect(receiver.output()).toContain(text);
}

describe.each(RECEIVERS)("the $name receiver of docs/webhooks.md", (receiver) => {
  it("is shown in the guide exactly as in docs/examples/", () => {
    const guide = readFileSync("docs/webhooks.md", "utf8");
    expect(guide).toContain(readFileSync(path.join(EXAMPLES, receiver.file), "utf8").trim());
  });

  it.for<SignatureScheme>(["x-signature", "standard-webhooks"])(
    "receives and verifies a real delivery signed with %s, and refuses one signed with another token",
    async (signatureScheme, context) => {
      requireTool(context, receiver.interpreter);
      const port = await freePort();
      const url = `http://127.0.0.1:${port}/exposure-webhooks`;
      const { customer, endpointId, secret } = await createEndpointFixture(testDb.db, url, {
        customer: { emails: ["a@acme.example"] },
        endpoint: { maxAttempts: 1, signatureScheme },
      });
      const running = await startReceiver(receiver, port, secret);

      const eventId = await recordTestEvent(testDb.db, customer, "customer.created", {});
      await drainWebhooks(testDb.db);
      const [delivery] = await deliveriesOf(testDb.db, endpointId);
      expect(delivery).toMatchObject({ status: "delivered", lastError: null });
      expect(delivery!.attempts.map((attempt) => attempt.statusCode)).toEqual([200]);
      await waitForOutput(running, `received customer.created ${eventId}`);

      // Another partner's endpoint at the same receiver: signed with a token the receiver does not hold.
      const foreign = await createEndpointFixture(testDb.db, url, {
        customer: { emails: ["b@other.example"] },
        endpoint: { maxAttempts: 1, signatureScheme },
      });
      const foreignEventId = await recordTestEvent(testDb.db, foreign.customer, "customer.created", {});
      await drainWebhooks(testDb.db);
      const [refused] = await deliveriesOf(testDb.db, foreign.endpointId);
      expect(refused).toMatchObject({ status: "failed" });
      expect(refused!.attempts.map((attempt) => attempt.statusCode)).toEqual([401]);
      expect(running.output()).not.toContain(foreignEventId);
    },
  );

  it.for<SignatureScheme>(["x-signature", "standard-webhooks"])(
    "keeps receiving through a rotation of the signing secret (%s)",
    async (signatureScheme, context) => {
      requireTool(context, receiver.interpreter);
      const oldPort = await freePort();
      const {
        org,
        customer,
        endpointId,
        secret: oldToken,
      } = await createEndpointFixture(testDb.db, `http://127.0.0.1:${oldPort}/hooks`, {
        customer: { emails: ["a@acme.example"] },
        endpoint: { maxAttempts: 1, signatureScheme },
      });
      const owner = { partnerId: org.partner.id };
      const onOldToken = await startReceiver(receiver, oldPort, oldToken);
      const { token: newToken } = await cycleSecret(testDb.db, owner);

      // still on the previous token: delivered, at once, by the request signed with the fallback
      const duringSwitch = await recordTestEvent(testDb.db, customer, "customer.created", {});
      await drainWebhooks(testDb.db);
      const [first] = await deliveriesOf(testDb.db, endpointId);
      expect(first).toMatchObject({ status: "delivered", attemptCount: 1 });
      expect(first!.attempts.map((attempt) => [attempt.statusCode, attempt.fallbackSecret])).toEqual(
        signatureScheme === "x-signature"
          ? [
              [401, false],
              [200, true],
            ]
          : [[200, false]], // the request carries both signatures
      );
      await waitForOutput(onOldToken, `received customer.created ${duringSwitch}`);

      // switched to the new token, then the fallback deactivated: delivered by the first request
      const newPort = await freePort();
      const onNewToken = await startReceiver(receiver, newPort, newToken);
      await updateEndpoint(testDb.db, owner, "current", endpointId, { url: `http://127.0.0.1:${newPort}/hooks` });
      const fallback = (await listSecrets(testDb.db, owner)).find((secret) => secret.status === "fallback")!;
      await deactivateSecret(testDb.db, owner, fallback.id);
      const afterSwitch = await recordTestEvent(testDb.db, customer, "customer.created", {});
      await drainWebhooks(testDb.db);
      const latest = (await deliveriesOf(testDb.db, endpointId)).find((delivery) => delivery.idempotencyToken === afterSwitch);
      expect(latest).toMatchObject({ status: "delivered", attemptCount: 1 });
      expect(latest!.attempts.map((attempt) => [attempt.statusCode, attempt.fallbackSecret])).toEqual([[200, false]]);
      await waitForOutput(onNewToken, `received customer.created ${afterSwitch}`);
    },
  );
});
