/**
 * `npm run runtime-payload -- <directory>`: after `npm run build`, assembles into <directory> the
 * files the production server needs and nothing else: the container image's runtime stage is this
 * directory (Dockerfile), and CI starts the server from it (.ci/run, "runtime payload").
 *
 * The packages are the ones the running code loads, found by Node file tracing (@vercel/nft, the
 * tracer Next.js's `output: "standalone"` uses):
 * - Next.js's own traces of its server and of every route (`.next/**\/*.nft.json`, written by
 *   every `next build`), which hold the packages the routes load at run time
 *   (`serverExternalPackages`: PGlite's WebAssembly and data files, argon2's native build, ...);
 * - a trace of the server's entry points in dist/ (start.js, serve.js, db-migrate.js with the
 *   schema engine's WebAssembly build, admin.js), which load packages from node_modules too.
 * What building and testing need (the Prisma CLI, Next.js's compilers, tsx, ...) is never loaded
 * by these, so it is not there. Nor are the build cache, the source maps and the trace files.
 *
 * The directory is emptied first. `--without inngest` leaves Inngest out (a deployment that
 * never sets INNGEST_*: the package is imported only in Inngest mode, docs/operations.md).
 */
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** The files and directories copied as they are, beside the traced ones. */
const APP_FILES = ["package.json", "next.config.js", "dist", "prisma", "data", "docs", "scripts/prestart.mjs"];
/**
 * Files loaded in ways a tracer cannot follow: the schema engine is imported by a path resolved at
 * run time, and reads its WebAssembly build beside it (server/db/schema-engine.ts); next() resolves
 * its webpack build's files by computed names when it loads next.config.js (the standalone server
 * skips that step, this server does not).
 */
const UNTRACEABLE = [
  "node_modules/@prisma/schema-engine-wasm",
  "node_modules/next/dist/compiled/webpack",
  "node_modules/next/dist/compiled/@babel/runtime/package.json",
];
/** What of .next/ is for building, tracing or debugging, not for serving. */
const BUILD_ONLY = [/^trace(-build)?$/, /^diagnostics\//, /^types\//, /\.nft\.json$/, /\.map$/];
/**
 * What Next.js's own server trace leaves out (next/dist/build/collect-build-traces.js): the
 * development and webpack builds of its runtime, type declarations, source maps. (React's
 * development builds stay: Node's ES module loader reads both branches of react/jsx-runtime.js when
 * @react-email/render imports it by name.)
 */
const TRACE_IGNORES = [
  "**/next/dist/compiled/next-server/**/*.dev.js",
  "**/next/dist/compiled/webpack/*",
  "**/node_modules/webpack5/**/*",
  "**/next/dist/server/lib/route-resolver*",
  "**/next/dist/lib/upgrade/**/*",
  "**/next/dist/compiled/@mswjs/interceptors/ClientRequest/LICENSE",
  "**/next/dist/compiled/@mswjs/interceptors/ClientRequest/llhttp/**/*",
  "**/next/dist/pages/**/*",
  "**/*.d.ts",
  "**/*.map",
];
/** The server's entry points (scripts/build.ts), traced for the packages they load themselves. */
const ENTRY_POINTS = ["dist/start.js", "dist/serve.js", "dist/db-migrate.js", "dist/admin.js"];

const root = process.cwd();
const args = process.argv.slice(2);
const withoutIndex = args.indexOf("--without");
const without = withoutIndex >= 0 ? (args.splice(withoutIndex, 2)[1] ?? "").split(",").filter(Boolean) : [];
const [outArgument] = args;
if (!outArgument) {
  console.error("usage: npm run runtime-payload -- <directory> [--without inngest]");
  process.exit(2);
}
for (const name of without) {
  if (name !== "inngest") {
    console.error(`--without takes only inngest, not ${name}`);
    process.exit(2);
  }
}
const out = path.resolve(outArgument);
if (!path.relative(out, root).startsWith("..") || out === path.parse(out).root) {
  console.error(`${out} holds the project: give a directory of its own`);
  process.exit(2);
}
if (!existsSync(path.join(root, "dist", "BUILD"))) {
  console.error("No build in dist/: run `npm run build` first.");
  process.exit(1);
}

/** Paths relative to the project root: files, and the symbolic links met on the way to them. */
const files = new Set<string>();
const links = new Map<string, string>();

function isInside(relative: string): boolean {
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}

function isPackageFile(relative: string): boolean {
  const [first, second] = relative.split(path.sep);
  return first === "node_modules" || (first === ".next" && second === "node_modules");
}

/** Adds a path (relative to the root), following symbolic links in any of its parts. */
function addPath(relative: string): void {
  const parts = relative.split(path.sep);
  let resolved = "";
  for (const [index, part] of parts.entries()) {
    const candidate = resolved ? path.join(resolved, part) : part;
    const stats = lstatSync(path.join(root, candidate), { throwIfNoEntry: false });
    if (!stats) return;
    if (stats.isSymbolicLink()) {
      const target = readlinkSync(path.join(root, candidate));
      const targetRelative = path.relative(root, path.resolve(path.dirname(path.join(root, candidate)), target));
      if (!isInside(targetRelative)) throw new Error(`${candidate} links outside the project (${target})`);
      links.set(candidate, path.relative(path.dirname(path.join(root, candidate)), path.join(root, targetRelative)));
      // A link to a package directory (.next/node_modules/<package>-<hash>, Turbopack's names for
      // the external packages): the traces name the files of it that are loaded.
      const rest = parts.slice(index + 1);
      if (rest.length === 0 && statSync(path.join(root, targetRelative)).isDirectory() && targetRelative.startsWith("node_modules")) return;
      addPath(path.join(targetRelative, ...rest));
      return;
    }
    resolved = candidate;
  }
  const stats = lstatSync(path.join(root, resolved));
  if (stats.isDirectory()) for (const child of readdirSync(path.join(root, resolved))) addPath(path.join(resolved, child));
  else files.add(resolved);
}

/** Visits the files (and links) of the build output, not those of its build cache. */
function walkBuild(visit: (relative: string) => void, directory = ".next"): void {
  for (const entry of readdirSync(path.join(root, directory), { withFileTypes: true })) {
    const relative = path.join(directory, entry.name);
    if (relative === path.join(".next", "cache")) continue;
    if (entry.isDirectory()) walkBuild(visit, relative);
    else visit(relative);
  }
}

// The build output, without what only building needs.
walkBuild((relative) => {
  const inBuild = path.relative(".next", relative).split(path.sep).join("/");
  if (!BUILD_ONLY.some((pattern) => pattern.test(inBuild))) addPath(relative);
});
for (const entry of [...APP_FILES, ...UNTRACEABLE]) addPath(entry);

// Next.js's traces of its server and of each route: paths relative to the trace file.
const traceFiles: string[] = [];
walkBuild((relative) => {
  if (relative.endsWith(".nft.json")) traceFiles.push(relative);
});
for (const traceFile of traceFiles) {
  const trace = JSON.parse(readFileSync(path.join(root, traceFile), "utf8")) as { files: string[] };
  for (const file of trace.files) {
    const relative = path.relative(root, path.resolve(root, path.dirname(traceFile), file));
    // Only the packages: Turbopack's traces also name sources and documents the routes read from
    // the project directory, which APP_FILES holds (or the build compiled in).
    if (isPackageFile(relative)) addPath(relative);
  }
}

// The entry points' own trace, with the copy of @vercel/nft that Next.js ships (the one it traces with).
const { nodeFileTrace } = createRequire(import.meta.url)("next/dist/compiled/@vercel/nft") as {
  nodeFileTrace(
    files: string[],
    options: { base: string; processCwd: string; mixedModules: boolean; ignore: (file: string) => boolean },
  ): Promise<{ fileList: Set<string> }>;
};
const isIgnored = (
  createRequire(import.meta.url)("next/dist/compiled/picomatch") as (globs: string[], options: object) => (file: string) => boolean
)(TRACE_IGNORES, { dot: true, contains: true });
const { fileList } = await nodeFileTrace(
  ENTRY_POINTS.map((entry) => path.join(root, entry)),
  { base: root, processCwd: root, mixedModules: true, ignore: isIgnored },
);
for (const file of fileList) if (isPackageFile(file)) addPath(file);

// Without Inngest: its package goes, and so does every package that only it (or packages gone with
// it) depends on, by the lockfile's dependency graph (the app's own dependencies always stay).
if (without.includes("inngest")) {
  const gone = packagesOnlyFor("node_modules/inngest");
  for (const file of [...files]) if (gone.has(packageOf(file) ?? "")) files.delete(file);
  for (const link of [...links.keys()]) if (gone.has(packageOf(links.get(link)!, link) ?? "")) links.delete(link);
}

rmSync(out, { recursive: true, force: true });
for (const file of files) {
  mkdirSync(path.dirname(path.join(out, file)), { recursive: true });
  copyFileSync(path.join(root, file), path.join(out, file));
}
for (const [link, target] of links) {
  mkdirSync(path.dirname(path.join(out, link)), { recursive: true });
  rmSync(path.join(out, link), { recursive: true, force: true });
  symlinkSync(target, path.join(out, link));
}
console.log(`runtime payload: ${files.size} files in ${out}`);

/** The lockfile path of the package a file belongs to (`node_modules/a/node_modules/@b/c`). */
function packageOf(file: string, linkedFrom?: string): string | undefined {
  const relative = linkedFrom ? path.relative(root, path.resolve(root, path.dirname(linkedFrom), file)) : file;
  const match = relative
    .split(path.sep)
    .join("/")
    .match(/^((?:node_modules\/(?:@[^/]+\/)?[^/]+\/)*node_modules\/(?:@[^/]+\/)?[^/]+)/);
  return match?.[1];
}

function packagesOnlyFor(removed: string): Set<string> {
  type LockEntry = {
    dependencies?: Record<string, string>;
    optionalDependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
  const present = new Set([...files].map((file) => packageOf(file)).filter((name): name is string => name !== undefined));
  // Node's resolution within the lockfile's tree: the nearest node_modules/<name> up from the dependent.
  const resolve = (from: string, name: string): string | undefined => {
    for (let base = from; ;) {
      const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
      if (lock.packages[candidate]) return candidate;
      if (!base) return undefined;
      const cut = base.lastIndexOf("/node_modules/");
      base = cut < 0 ? "" : base.slice(0, cut);
    }
  };
  const dependents = new Map<string, Set<string>>();
  for (const [from, entry] of Object.entries(lock.packages)) {
    if (from !== "" && !present.has(from)) continue;
    const names = Object.keys({ ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies });
    for (const name of names) {
      const target = resolve(from, name);
      if (target) dependents.set(target, (dependents.get(target) ?? new Set()).add(from));
    }
  }
  const gone = new Set([removed]);
  for (let changed = true; changed;) {
    changed = false;
    for (const name of present) {
      const by = dependents.get(name);
      if (gone.has(name) || !by || by.size === 0) continue;
      if ([...by].every((dependent) => gone.has(dependent))) {
        gone.add(name);
        changed = true;
      }
    }
  }
  return gone;
}
