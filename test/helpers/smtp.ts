import type { AddressInfo } from "node:net";
import PostalMime, { type Email } from "postal-mime";
import { SMTPServer } from "smtp-server";

/** One message as a real SMTP server on 127.0.0.1 received it: envelope, raw source and its parse. */
export interface ReceivedMail {
  envelopeFrom: string;
  envelopeTo: string[];
  raw: string;
  parsed: Email;
  header(name: string): string | undefined;
}

/**
 * A real SMTP server for tests (the `smtp-server` package, plain SMTP on 127.0.0.1). It keeps
 * what it receives; `rejectNext(n)` answers the next n messages with a temporary failure.
 */
export async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  let rejections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (rejections > 0) {
          rejections--;
          const error = Object.assign(new Error("Try again later"), { responseCode: 451 });
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks).toString("utf8");
        PostalMime.parse(raw).then(
          (parsed) => {
            received.push({
              envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              raw,
              parsed,
              header: (name) => parsed.headers.find((header) => header.key === name.toLowerCase())?.value,
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Messages to one address. */
    to: (address: string) => received.filter((mail) => mail.envelopeTo.includes(address)),
    rejectNext(count: number) {
      rejections = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TestSmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;
