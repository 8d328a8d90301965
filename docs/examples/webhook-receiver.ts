// A complete webhook receiver (docs/webhooks.md, "Receive webhooks"). Node 20+, no packages:
//   EXPOSURE_SIGNING_TOKEN=<token> PORT=8080 npx tsx webhook-receiver.ts
// The token is the one shown once by secrets/generate or secrets/cycle (or webhook.secret on create).
// After secrets/cycle a receiver still on the previous token keeps receiving: what it refuses with 401
// is sent again at once, signed with the previous token (the fallback), until you deactivate it.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";

const token = process.env.EXPOSURE_SIGNING_TOKEN ?? "";
const port = Number(process.env.PORT ?? 8080);
const seen = new Set<string>(); // use your database: an event may arrive more than once

const hmac = (data: string, encoding: "hex" | "base64") => createHmac("sha256", token).update(data, "utf8").digest(encoding);
const same = (given: string, expected: string) => {
  const [a, b] = [Buffer.from(given), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
};
const header = (headers: IncomingHttpHeaders, name: string) => String(headers[name] ?? "");

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8"); // verify the raw body, before parsing it
    const answer: Record<string, string> = {};
    if (req.headers["webhook-signature"]) {
      // Standard Webhooks: v1,<base64 HMAC of "id.timestamp.body">, any 2xx is success
      const id = header(req.headers, "webhook-id");
      const timestamp = header(req.headers, "webhook-timestamp");
      const expected = "v1," + hmac(`${id}.${timestamp}.${body}`, "base64");
      const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) <= 300;
      if (
        !fresh ||
        !header(req.headers, "webhook-signature")
          .split(" ")
          .some((given) => same(given, expected))
      ) {
        return res.writeHead(401).end();
      }
    } else {
      // X-Signature (the default): check the request, then sign the answer with X-Token
      if (!same(header(req.headers, "x-signature").toLowerCase(), hmac(body, "hex"))) return res.writeHead(401).end();
      answer["X-Signature"] = hmac(`${header(req.headers, "x-token")}:${body}`, "hex");
    }
    const event = JSON.parse(body) as { idempotencyToken: string; type: string; data: unknown };
    if (!seen.has(event.idempotencyToken)) {
      seen.add(event.idempotencyToken);
      process.stdout.write(`received ${event.type} ${event.idempotencyToken}\n`); // act on the event here
    }
    res.writeHead(200, answer).end();
  });
}).listen(port, () => process.stdout.write(`listening on ${port}\n`));
