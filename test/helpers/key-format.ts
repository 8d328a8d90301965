import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";

/** The pattern docs/security.md gives secret-scanning programmes. */
export function documentedPattern(): RegExp {
  const doc = readFileSync(path.resolve(import.meta.dirname, "../../docs/security.md"), "utf8");
  const pattern = /```regex\n(.+)\n```/.exec(doc)?.[1];
  expect(pattern, "docs/security.md has a ```regex block").toBeDefined();
  return new RegExp(`^(?:${pattern!})$`);
}

/** The same key with one character of its random part changed (the checksum no longer matches). */
export function withRandomCharChanged(key: string, index: number): string {
  const at = key.indexOf("_", 7) + 1 + index;
  return key.slice(0, at) + (key[at] === "A" ? "B" : "A") + key.slice(at + 1);
}
