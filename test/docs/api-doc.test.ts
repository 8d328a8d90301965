import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildRouteTable, type Route } from "../../server/api/rest/dispatcher";
import { appRouter } from "../../server/api/root";
import { LEGACY_EVENT_TYPES } from "../../server/events/legacy";
import { EVENT_TYPES } from "../../server/events/outbox";

/**
 * The API contract lives in docs/ (docs/api.md, "Path index", and the per-domain references it
 * links to). These checks keep it from falling behind the code: every REST path the router serves
 * is in the index and nothing else is, each index link lands on a heading whose section names the
 * path's method and last segment and quotes every message the path's metadata declares.
 */
const DOCS = path.resolve(import.meta.dirname, "../../docs");
const read = (file: string) => readFileSync(path.join(DOCS, file), "utf8");

interface IndexRow {
  method: string;
  path: string;
  file: string;
  anchor: string;
}

const INDEX_ROW = /^\| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \| [^|]+ \| \[[^\]]+\]\(([^)#]*)#([^)]+)\) \|$/;

function pathIndex(): IndexRow[] {
  return read("api.md")
    .split("\n")
    .map((line) => INDEX_ROW.exec(line))
    .filter((match) => match !== null)
    .map(([, method, routePath, file, anchor]) => ({ method: method!, path: routePath!, file: file || "api.md", anchor: anchor! }));
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, "")
    .replace(/ /g, "-");
}

/** A doc's sections by anchor: from the heading to the next heading of the same or a higher level. */
function sections(file: string): Map<string, string> {
  const lines = read(file).split("\n");
  const found = new Map<string, string>();
  let inCode = false;
  const headings: Array<{ line: number; level: number; anchor: string }> = [];
  lines.forEach((line, index) => {
    if (line.startsWith("```")) inCode = !inCode;
    const match = !inCode && /^(#{1,6}) (.+)$/.exec(line);
    if (match) headings.push({ line: index, level: match[1]!.length, anchor: slug(match[2]!) });
  });
  headings.forEach((heading, index) => {
    const next = headings.slice(index + 1).find((other) => other.level <= heading.level);
    found.set(heading.anchor, lines.slice(heading.line, next?.line ?? lines.length).join("\n"));
  });
  return found;
}

const key = (method: string, routePath: string) => `${method} ${routePath}`;
const routes = buildRouteTable(appRouter);
const rows = pathIndex();

function sectionOf(row: IndexRow): string | undefined {
  if (!existsSync(path.join(DOCS, row.file))) return undefined;
  return sections(row.file).get(row.anchor);
}

function declaredMessages(route: Route): string[] {
  const { failure, invalidJson } = route.errors;
  const declared = Object.values(route.meta.responses ?? {}).flat();
  return [failure, ...(invalidJson ? [invalidJson] : []), ...declared];
}

describe("the API contract in docs/", () => {
  it("indexes every REST path the router serves, and no other", () => {
    const served = new Set(routes.map((route) => key(route.method, route.pathTemplate)));
    const indexed = rows.map((row) => key(row.method, row.path));
    expect(indexed.length).toBeGreaterThan(0);
    expect(
      [...served].filter((route) => !indexed.includes(route)),
      "served but missing from docs/api.md, Path index",
    ).toEqual([]);
    expect(
      indexed.filter((route) => !served.has(route)),
      "in docs/api.md, Path index, but not served",
    ).toEqual([]);
    expect(
      indexed.filter((route, index) => indexed.indexOf(route) !== index),
      "indexed twice",
    ).toEqual([]);
  });

  it("links each path to a section that names its method and last segment", () => {
    const problems: string[] = [];
    for (const row of rows) {
      const section = sectionOf(row);
      if (section === undefined) {
        problems.push(`${key(row.method, row.path)}: no heading #${row.anchor} in docs/${row.file}`);
        continue;
      }
      const lastSegment = row.path.split("/").at(-1)!;
      if (!section.includes(row.method) || !section.includes(lastSegment)) {
        problems.push(`${key(row.method, row.path)}: docs/${row.file}#${row.anchor} does not name ${row.method} and ${lastSegment}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("quotes, in each path's section, every message the path's metadata declares", () => {
    const problems: string[] = [];
    for (const route of routes) {
      const row = rows.find((candidate) => candidate.method === route.method && candidate.path === route.pathTemplate);
      const section = row && sectionOf(row);
      if (!section) continue; // reported by the tests above
      for (const message of declaredMessages(route)) {
        if (!section.includes(`\`${message}\``)) problems.push(`${key(route.method, route.pathTemplate)}: \`${message}\``);
      }
    }
    expect(problems).toEqual([]);
  });

  it("describes every webhook event of both protocols", () => {
    const events = sections("webhooks.md").get("events") ?? "";
    const missing = [...EVENT_TYPES, ...LEGACY_EVENT_TYPES].filter((type) => !events.includes(`\`${type}\``));
    expect(missing).toEqual([]);
  });
});
