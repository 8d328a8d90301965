import { config } from "./config";

type Level = "debug" | "info" | "warn" | "error";
const RANK: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * One JSON object per line. Callers pass facts, never secrets: no API keys, tokens, magic-link
 * URLs or request bodies reach this function.
 */
function write(level: Level, message: string, fields: Record<string, unknown> = {}) {
  if (RANK[level] < RANK[config.logLevel()]) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...fields }, errorReplacer);
  if (level === "error" || level === "warn") process.stderr.write(line + "\n");
  else process.stdout.write(line + "\n");
}

function errorReplacer(_key: string, value: unknown) {
  if (value instanceof Error) {
    return { name: value.name, message: value.message, stack: value.stack, cause: value.cause };
  }
  return value;
}

export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};
