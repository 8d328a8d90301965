// The bare reference of the REST path: the least work an authenticated partner GET must do on
// this machine, with no service code. Plain node:http and pg answer
// `GET /customer/{id}/threat-score` the way the partner API's threat-score path does in its
// steady state (the key compared with a known value, one indexed row read, JSON out).
// bench/api-overhead.ts starts it on the service's own PostgreSQL database and prints the
// service's throughput as a ratio to it, taken in the same run (docs/measures.md, "Goals").
// It has nothing to share an embedded (PGlite) database with, so it runs on PostgreSQL only.
//   node bench/support/bare-rest.mjs PORT DATABASE_URL PARTNER_ID API_KEY
// Run from the project root (pg is loaded from its node_modules).
import http from "node:http";
import { createRequire } from "node:module";
const require = createRequire(process.cwd() + "/");
const pg = require("pg");
const [port, url, partnerId, apiKey] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: 10 });
http
  .createServer(async (req, res) => {
    const m = /^\/customer\/([0-9a-f-]{36})\/threat-score$/.exec(req.url);
    if (!m) {
      res.writeHead(404);
      return res.end();
    }
    if (req.headers["sw-partner-id"] !== partnerId || req.headers["sw-api-key"] !== apiKey) {
      res.writeHead(401, { "content-type": "application/json" });
      return res.end('{"success":false,"error":"Failed to verify org API key"}');
    }
    const r = await pool.query({
      name: "ts",
      text: "SELECT threat_score FROM customers WHERE id=$1 AND partner_id=$2",
      values: [m[1], partnerId],
    });
    const body = JSON.stringify({ success: true, customerId: m[1], threatScore: r.rows[0]?.threat_score ?? null });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  })
  .listen(Number(port), "127.0.0.1", () => console.log(`bare reference listening on ${port}`));
