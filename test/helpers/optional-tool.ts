import { spawnSync } from "node:child_process";

/**
 * The interpreters README.md ("Tests") lists as optional for `npm test` (php, python3): a test that
 * needs one is skipped with a one-line reason on a machine without it, and fails under CI=true,
 * where .ci/run installs it, so CI never passes by skipping.
 */
export interface OptionalTool {
  command: string;
  /** What provides it, for the message (Debian's package name). */
  install: string;
}

export function isInstalled(command: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return spawnSync(command, ["--version"], { stdio: "ignore", env }).error === undefined;
}

/** Why a test needing `tool` cannot run here: undefined when it can; CI=true makes a missing tool an error. */
export function missingToolReason(tool: OptionalTool, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (isInstalled(tool.command, env)) return undefined;
  if (env.CI === "true") {
    throw new Error(`${tool.command} is not installed, and under CI=true the tests that need it must run (install ${tool.install})`);
  }
  return `${tool.command} is not installed (optional, README.md "Tests": install ${tool.install} to run this test)`;
}

const reported = new Set<string>();

/**
 * Skips the running test when `tool` is missing (outside CI), with the reason as the skip's note and,
 * once per tool, as a line on stderr (the default reporter does not list skipped tests).
 */
export function requireTool(context: { skip: (note?: string) => never }, tool: OptionalTool | undefined): void {
  if (!tool) return;
  const reason = missingToolReason(tool);
  if (!reason) return;
  if (!reported.has(tool.command)) console.warn(`skipped: ${reason}`);
  reported.add(tool.command);
  context.skip(reason);
}
