import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, REDACTED } from "../../server/log";

/** A destination that keeps each JSON line pino writes. */
function collector() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

function loggerAt(level: string) {
  const out = collector();
  const err = collector();
  return { logger: createLogger(level, { out: out.stream, err: err.stream }), out: out.lines, err: err.lines };
}

describe("the log (pino)", () => {
  it("writes one JSON object per line: ISO time, level name, message, fields; warn and error on stderr only", () => {
    const { logger, out, err } = loggerAt("info");
    logger.info({ customerId: "c1" }, "customer onboarded");
    logger.warn({ attempt: 2 }, "retrying");
    logger.error({}, "failed");
    expect(out).toEqual([
      {
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        level: "info",
        message: "customer onboarded",
        customerId: "c1",
      },
    ]);
    expect(err.map((line) => [line.level, line.message])).toEqual([
      ["warn", "retrying"],
      ["error", "failed"],
    ]);
  });

  it("drops lines below LOG_LEVEL", () => {
    const { logger, out, err } = loggerAt("warn");
    logger.debug({}, "detail");
    logger.info({}, "fact");
    logger.warn({}, "warning");
    expect(out).toEqual([]);
    expect(err.map((line) => line.message)).toEqual(["warning"]);
  });

  it("redacts keys, secrets, tokens and passwords, at the top level and one object down", () => {
    const { logger, out } = loggerAt("info");
    logger.info(
      {
        apiKey: "sk_live_1",
        secret: "whsec_2",
        token: "tok_3",
        password: "hunter2",
        partnerId: "p1",
        request: { authorization: "Bearer abc", refreshToken: "rt_4", path: "/api/v1/health" },
      },
      "call",
    );
    const line = out[0]!;
    expect(JSON.stringify(line)).not.toMatch(/sk_live_1|whsec_2|tok_3|hunter2|Bearer abc|rt_4/);
    expect(line).toMatchObject({
      apiKey: REDACTED,
      secret: REDACTED,
      token: REDACTED,
      password: REDACTED,
      partnerId: "p1",
      request: { authorization: REDACTED, refreshToken: REDACTED, path: "/api/v1/health" },
    });
  });

  it("serializes an error with its message, stack and cause", () => {
    const { logger, err } = loggerAt("info");
    logger.error({ error: new Error("outer", { cause: new Error("inner") }) }, "failed");
    expect(err[0]!.error).toMatchObject({
      type: "Error",
      message: expect.stringContaining("outer"),
      stack: expect.stringContaining("outer"),
    });
  });

  it("a child logger carries its bindings (the request's requestId) on every line", () => {
    const { logger, out } = loggerAt("info");
    const request = logger.child({ requestId: "7f1c" });
    request.info({}, "first");
    request.info({ step: 2 }, "second");
    expect(out.map((line) => [line.requestId, line.message])).toEqual([
      ["7f1c", "first"],
      ["7f1c", "second"],
    ]);
  });
});
