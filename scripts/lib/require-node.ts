/**
 * The first thing the start script does: refuse, in one line, a Node.js older than package.json's
 * `engines` (Next.js would otherwise fail later with an error that names nothing of the cause).
 * In a checkout, `npm start` runs the Node.js 24 that `npm ci` installs (node_modules/.bin/node), so
 * the message says to use it; a production install (or a platform the project brings no Node for)
 * has none, so there it says which Node.js to install.
 */
import { existsSync } from "node:fs";
import path from "node:path";

export const MINIMUM_NODE = "22.19";

export function isSupportedNode(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
  const [needMajor = 0, needMinor = 0] = MINIMUM_NODE.split(".").map(Number);
  return major > needMajor || (major === needMajor && minor >= needMinor);
}

/** Whether the install in `directory` holds the project's own Node (a checkout's `npm ci`). */
export function bringsProjectNode(directory: string): boolean {
  const bin = path.join(directory, "node_modules", ".bin");
  return ["node", "node.cmd"].some((name) => existsSync(path.join(bin, name)));
}

export function unsupportedNodeMessage(version: string, projectNode: boolean): string {
  const what = `The service needs Node.js ${MINIMUM_NODE} or newer; this is ${version}. `;
  return projectNode
    ? what + "Start it with `npm start`, which runs the Node.js 24 that `npm ci` installed (node_modules/.bin/node)."
    : what + "Install Node.js 24 LTS (or 22.19 or newer) and start it again: this install brings no Node.js of its own.";
}

if (!isSupportedNode(process.version)) {
  console.error(unsupportedNodeMessage(process.version, bringsProjectNode(process.cwd())));
  process.exit(1);
}
