import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

export const projectRoot = path.join(import.meta.dirname, "../..");

/** The version Node's resolution finds for `name` from `from`'s directory (several packages export no package.json). */
export function installedVersion(name: string, from = projectRoot): string {
  for (let directory = from; ; directory = path.dirname(directory)) {
    const file = path.join(directory, "node_modules", name, "package.json");
    if (existsSync(file)) return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
    if (directory === path.dirname(directory)) throw new Error(`${name} is not installed`);
  }
}

/** Where an installed package's directory is. */
export const packageDirectory = (name: string) => path.join(projectRoot, "node_modules", name);
