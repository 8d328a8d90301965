import { isIP, type Socket, connect as connectTcp } from "node:net";
import { connect as connectTls } from "node:tls";
import { config } from "../../../config";
import { CHANNEL_TIMEOUT_MS } from "../../delivery-engine/limits";
import type { Exchange } from "../../delivery-engine/exchanges";
import { ALLOW_PRIVATE_SWITCH, AddressNotAllowedError, nonPublicReason, publicOnlyLookup } from "../../url-safety";
import type { ChannelTarget } from "../targets";

/**
 * One connection per delivery: every record framed by octet counting ("LEN SP MSG", RFC 6587
 * 3.4.1, the framing RFC 5425 requires over TLS), written, then the connection closed. Success
 * is every byte written and the connection closed without an error within the timeout. Like a
 * webhook request, it reaches only public addresses (checked at connect time, so a name that
 * turns private later is refused) unless WEBHOOK_ALLOW_PRIVATE_URLS=true.
 */
export function frame(record: string): Buffer {
  const bytes = Buffer.from(record, "utf8");
  return Buffer.concat([Buffer.from(`${bytes.length} `, "ascii"), bytes]);
}

export async function sendSyslogRecords(target: Extract<ChannelTarget, { type: "syslog" }>, records: readonly string[]): Promise<Exchange> {
  const started = performance.now();
  const done = (error?: string): Exchange => ({ durationMs: Math.round(performance.now() - started), error, signatureRefused: false });
  const allowPrivate = config.webhookAllowPrivateUrls();
  if (!allowPrivate && isIP(target.host)) {
    const reason = nonPublicReason(target.host);
    if (reason) return done(`Refused: ${reason} (${ALLOW_PRIVATE_SWITCH} allows private addresses)`);
  }
  const lookup = allowPrivate ? undefined : publicOnlyLookup;
  return new Promise<Exchange>((resolve) => {
    let settled = false;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(done(error));
    };
    const options = { host: target.host, port: target.port, lookup };
    const socket: Socket = target.tls
      ? connectTls({
          ...options,
          servername: isIP(target.host) ? undefined : target.host,
          ca: target.caCertificate,
          rejectUnauthorized: true,
        })
      : connectTcp(options);
    const timer = setTimeout(() => finish(`Timed out after ${CHANNEL_TIMEOUT_MS} ms`), CHANNEL_TIMEOUT_MS).unref();
    socket.once(target.tls ? "secureConnect" : "connect", () => {
      socket.end(Buffer.concat(records.map(frame)));
    });
    socket.on("error", (error) => finish(describe(error)));
    // the receiver sends nothing back; reading keeps a half-closed TLS session moving to its close
    socket.on("data", () => undefined);
    socket.once("close", (hadError) =>
      finish(
        hadError
          ? "Connection closed with an error"
          : socket.writableFinished
            ? undefined
            : "Connection closed before every record was sent",
      ),
    );
  });
}

function describe(error: Error): string {
  if (error instanceof AddressNotAllowedError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ECONNREFUSED") return "Connection refused";
  if (code === "ENOTFOUND") return "Host not found";
  if (code === "ECONNRESET") return "Connection reset by the receiver";
  return code ? `${code}: ${error.message}` : error.message;
}
