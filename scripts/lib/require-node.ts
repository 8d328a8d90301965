/**
 * The first thing the start script does: refuse, in one line, a Node.js older than package.json's
 * `engines` (Next.js would otherwise fail later with an error that names nothing of the cause).
 * `npm start` runs the Node.js that `npm ci` installs (node_modules/.bin/node); this catches
 * `node dist/start.js` run with a machine's older one.
 */
export const MINIMUM_NODE = "22.19";

export function isSupportedNode(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
  const [needMajor = 0, needMinor = 0] = MINIMUM_NODE.split(".").map(Number);
  return major > needMajor || (major === needMajor && minor >= needMinor);
}

if (!isSupportedNode(process.version)) {
  console.error(
    `The service needs Node.js ${MINIMUM_NODE} or newer; this is ${process.version}. ` +
      "Start it with `npm start`, which runs the Node.js that `npm ci` installs (node_modules/.bin/node).",
  );
  process.exit(1);
}
