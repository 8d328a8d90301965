/**
 * The bare reference of webhook delivery: what this machine can do with no service code. Plain
 * pg + undici doing the least that durable signed delivery needs, with the same components as the
 * service (node:http, pg, undici, PostgreSQL): claim 200 rows with FOR UPDATE SKIP LOCKED,
 * HMAC-sign each body, POST it to a local receiver (a child process that signs its answer),
 * verify that signature, mark the batch done in the same transaction; two workers. It creates and
 * drops its own database.
 *
 * bench/webhook-delivery.ts runs it in the same run as the service and prints the service's
 * figure as a ratio of this one (the machine is shared and noisy: absolute figures drift by tens
 * of percent between runs, ratios much less; docs/measures.md). Plain JavaScript so that it runs
 * on bare Node with nothing loaded but pg and undici:
 *
 *   node bench/support/bare-delivery.mjs [DELIVERIES=30000] [ADMIN_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres]
 *
 * Its last line is `bare delivery: N in S s = R deliveries/s`.
 */
import crypto from "node:crypto";
import { fork } from "node:child_process";
import http from "node:http";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);

if (process.argv[2] === "--receiver") {
  // Child: answers each POST with an X-Signature over X-Token + body, as a partner's receiver must.
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      const signature = crypto.createHmac("sha256", "secret").update(`${req.headers["x-token"]}:${body}`).digest("hex");
      res.writeHead(200, { "x-signature": signature, "content-length": 0 });
      res.end();
    });
  });
  server.listen(0, "127.0.0.1", () => process.send(server.address().port));
} else {
  const pg = require("pg");
  const { Pool: HttpPool } = require("undici");
  const deliveries = Number(process.argv[2] ?? 30000);
  const adminUrl = process.argv[3] ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const name = `bare_delivery_${process.pid}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.href, max: 4 });
  pool.on("error", (error) => console.error(`idle connection failed: ${error.message}`));
  try {
    await pool.query(
      "CREATE TABLE deliveries (id bigserial PRIMARY KEY, token uuid NOT NULL, body text NOT NULL, status smallint NOT NULL DEFAULT 0, attempted_at timestamptz)",
    );
    await pool.query("CREATE INDEX ON deliveries (status, id)");
    await pool.query(
      `INSERT INTO deliveries (token, body)
       SELECT gen_random_uuid(), json_build_object('eventType','customer.created','customerId',gen_random_uuid(),'idempotencyToken',gen_random_uuid(),'occurredAt',now())::text
       FROM generate_series(1, $1)`,
      [deliveries],
    );
    await pool.query("VACUUM ANALYZE deliveries");
    const receiver = fork(fileURLToPath(import.meta.url), ["--receiver"]);
    const port = await new Promise((resolve) => receiver.once("message", resolve));
    const requests = new HttpPool(`http://127.0.0.1:${port}`, { connections: 32, pipelining: 1 });
    let done = 0;
    const started = performance.now();
    const worker = async () => {
      for (;;) {
        const client = await pool.connect();
        try {
          await client.query("BEGIN");
          const { rows } = await client.query(
            "SELECT id, token, body FROM deliveries WHERE status = 0 ORDER BY id LIMIT 200 FOR UPDATE SKIP LOCKED",
          );
          if (rows.length === 0) {
            await client.query("COMMIT");
            return;
          }
          const answered = await Promise.all(
            rows.map(async (row) => {
              const signature = crypto.createHmac("sha256", "secret").update(`${row.token}:${row.body}`).digest("hex");
              const response = await requests.request({
                path: "/hook",
                method: "POST",
                body: row.body,
                headers: { "content-type": "application/json", "x-token": row.token, "x-signature": signature },
              });
              await response.body.dump();
              return response.statusCode === 200 && response.headers["x-signature"] === signature ? row.id : null;
            }),
          );
          await client.query("UPDATE deliveries SET status = 1, attempted_at = now() WHERE id = ANY($1::bigint[])", [
            answered.filter((id) => id !== null),
          ]);
          await client.query("COMMIT");
          done += rows.length;
        } finally {
          client.release();
        }
      }
    };
    await Promise.all([worker(), worker()]);
    const seconds = (performance.now() - started) / 1000;
    console.log(`bare delivery: ${done} in ${seconds.toFixed(1)} s = ${Math.round(done / seconds)} deliveries/s`);
    await requests.close();
    receiver.kill();
  } finally {
    await pool.end();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
