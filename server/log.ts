import pino, { type DestinationStream, type Logger } from "pino";
import { config } from "./config";

type Fields = Record<string, unknown>;

/** Key names whose values never reach a log line, at the top level or one object down. */
const SECRET_KEYS = [
  "apiKey",
  "key",
  "secret",
  "signingSecret",
  "token",
  "accessToken",
  "refreshToken",
  "password",
  "authorization",
  "cookie",
];
export const REDACTED = "[redacted]";

/**
 * pino, one JSON object per line: time (ISO), level (its name), message, then the fields; debug and
 * info on stdout, warn and error on stderr. Callers pass facts, never secrets; what looks like one
 * by its key (SECRET_KEYS) is redacted all the same.
 */
export function createLogger(level: string, destinations?: { out: DestinationStream; err: DestinationStream }): Logger {
  const out = destinations?.out ?? process.stdout;
  const err = destinations?.err ?? process.stderr;
  return pino(
    {
      level,
      messageKey: "message",
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { error: pino.stdSerializers.errWithCause },
      redact: { paths: SECRET_KEYS.flatMap((key) => [key, `*.${key}`]), censor: REDACTED },
    },
    pino.multistream(
      [
        { level: "debug", stream: out },
        { level: "warn", stream: err },
      ],
      { dedupe: true },
    ),
  );
}

let root: Logger | undefined;

/** Created on first use, after the entry point has read the .env files; follows LOG_LEVEL if it changes later. */
function rootLogger(): Logger {
  const level = config.logLevel();
  root ??= createLogger(level);
  if (root.level !== level) root.level = level;
  return root;
}

export interface Log {
  debug(message: string, fields?: Fields): void;
  info(message: string, fields?: Fields): void;
  warn(message: string, fields?: Fields): void;
  error(message: string, fields?: Fields): void;
  /** A logger whose every line also carries `bindings` (e.g. the request's requestId). */
  child(bindings: Fields): Log;
}

/**
 * A Log over a pino logger made on first use: a request's child logger costs one small object
 * until it writes a line (most requests never do).
 */
class LazyLog implements Log {
  private logger: Logger | undefined;
  constructor(
    private readonly make: () => Logger,
    private readonly parent?: LazyLog,
    private readonly bindings?: Fields,
  ) {}

  private resolve(): Logger {
    if (this.parent) return (this.logger ??= this.parent.resolve().child(this.bindings!));
    return this.make();
  }

  debug(message: string, fields?: Fields): void {
    this.resolve().debug(fields ?? {}, message);
  }
  info(message: string, fields?: Fields): void {
    this.resolve().info(fields ?? {}, message);
  }
  warn(message: string, fields?: Fields): void {
    this.resolve().warn(fields ?? {}, message);
  }
  error(message: string, fields?: Fields): void {
    this.resolve().error(fields ?? {}, message);
  }
  child(bindings: Fields): Log {
    return new LazyLog(this.make, this, bindings);
  }
}

export const log: Log = new LazyLog(rootLogger);
