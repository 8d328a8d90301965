import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import { createServer, connect } from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * A real rsyslog (Debian's rsyslogd) of the test's own: its own configuration, work directory
 * and ports, receiving RFC 5424 over TCP (imtcp) and, when the gtls driver is installed
 * (rsyslog-gnutls), over TLS with a throwaway certificate made here with openssl. Every message
 * it receives is written to a file twice over: as received (rawmsg) and as rsyslog parsed it.
 */
export const RSYSLOGD = "/usr/sbin/rsyslogd";
const GTLS = "/usr/lib/x86_64-linux-gnu/rsyslog/lmnsd_gtls.so";
export const rsyslogAvailable = existsSync(RSYSLOGD);
export const rsyslogTlsAvailable = rsyslogAvailable && existsSync(GTLS);

export interface ReceivedRecord {
  raw: string;
  severity: number;
  facility: number;
  appName: string;
  msgId: string;
  msg: string;
}

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

async function listening(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`rsyslogd did not listen on ${port}`);
}

export async function startRsyslog() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "rsyslog-test-"));
  const tcpPort = await freePort();
  const tlsPort = rsyslogTlsAvailable ? await freePort() : undefined;
  const out = path.join(dir, "received.log");
  const cert = path.join(dir, "cert.pem");
  const key = path.join(dir, "key.pem");
  if (tlsPort) {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        key,
        "-out",
        cert,
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=DNS:localhost,IP:127.0.0.1",
      ],
      { stdio: "ignore" },
    );
  }
  const config = [
    `global(workDirectory="${dir}" maxMessageSize="64k"${tlsPort ? ` defaultNetstreamDriverCAFile="${cert}" defaultNetstreamDriverCertFile="${cert}" defaultNetstreamDriverKeyFile="${key}"` : ""})`,
    `module(load="imtcp" maxSessions="50")`,
    `input(type="imtcp" port="${tcpPort}" address="127.0.0.1" ruleset="all")`,
    ...(tlsPort
      ? [
          `input(type="imtcp" port="${tlsPort}" address="127.0.0.1" ruleset="all" streamDriver.name="gtls" streamDriver.mode="1" streamDriver.authMode="anon")`,
        ]
      : []),
    `template(name="both" type="string" string="%syslogseverity%\\t%syslogfacility%\\t%app-name%\\t%msgid%\\t%msg%\\t%rawmsg%\\n")`,
    `ruleset(name="all") { action(type="omfile" file="${out}" template="both" flushOnTXEnd="on" asyncWriting="off") }`,
  ].join("\n");
  writeFileSync(path.join(dir, "rsyslog.conf"), config);
  const child: ChildProcess = spawn(RSYSLOGD, ["-n", "-f", path.join(dir, "rsyslog.conf"), "-i", path.join(dir, "rsyslogd.pid")], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    await listening(tcpPort);
    if (tlsPort) await listening(tlsPort);
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`${(error as Error).message}: ${stderr}`);
  }
  const read = (): ReceivedRecord[] =>
    existsSync(out)
      ? readFileSync(out, "utf8")
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => {
            const [severity, facility, appName, msgId, msg, ...raw] = line.split("\t");
            return {
              severity: Number(severity),
              facility: Number(facility),
              appName: appName!,
              msgId: msgId!,
              msg: msg!.trim(),
              raw: raw.join("\t"),
            };
          })
      : [];
  return {
    tcpPort,
    tlsPort,
    caCertificate: tlsPort ? readFileSync(cert, "utf8") : undefined,
    stderr: () => stderr,
    read,
    /** Waits until rsyslog has written at least `count` records. */
    async waitFor(count: number, timeoutMs = 10_000): Promise<ReceivedRecord[]> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const records = read();
        if (records.length >= count || Date.now() > deadline) return records;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await new Promise((resolve) => child.once("exit", resolve));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type TestRsyslog = Awaited<ReturnType<typeof startRsyslog>>;
