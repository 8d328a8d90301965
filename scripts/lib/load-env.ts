/**
 * The .env files, read by Next.js's own loader (@next/env) so every entry point (the server, the
 * migrations, the admin CLI, the benchmarks) sees the same variables with the same precedence as
 * the Next.js server: the process's environment, then .env.$NODE_ENV.local, .env.local (not in
 * tests), .env.$NODE_ENV, .env; NODE_ENV is development with --dev, else production (or test).
 * Imported first by each entry point, before any module that reads the environment.
 */
import nextEnv from "@next/env";

nextEnv.loadEnvConfig(process.cwd(), process.argv.includes("--dev"), {
  info: () => {}, // the admin CLI's stdout carries only its JSON answer
  error: (...args: unknown[]) => console.error(...args),
});

// Next.js's anonymous telemetry stays off unless the environment or a .env file turns it on.
process.env.NEXT_TELEMETRY_DISABLED ??= "1";
