import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONTRIBUTOR_DOCS, INSTANCE_ORIGIN, listGuides, renderGuide } from "../../server/docs/guides";

/**
 * The guides served at /docs/<name> are for the people using the API and running the service,
 * not for the repository's developers: no source paths, no benchmark tables, no pointers to the
 * contributor docs (ARCHITECTURE.md, docs/flow.md, docs/measures.md, docs/adr/), which hold those.
 * Examples name the instance by INSTANCE_ORIGIN, which the served page replaces with its own origin.
 */
const DOCS = path.resolve(import.meta.dirname, "../../docs");
const guides = listGuides();
const markdown = new Map(guides.map((guide) => [guide.name, readFileSync(path.join(DOCS, `${guide.name}.md`), "utf8")]));

/** Files a guide hands its reader to save and run (docs/examples/), named as the reader names them. */
const READER_FILES = new Set(readdirSync(path.join(DOCS, "examples")));

// Inngest's event names (`app/jobs.due`) are not paths.
const SOURCE_FOLDER = /(?<![\w./@-])(?!app\/[\w-]+\.due\b)(?:server|app|scripts|inngest|bench|test|e2e|prisma)\/[\w.[\]()/-]*/g;
const SOURCE_FILE = /[\w./[\]()-]+\.(?:ts|tsx|mjs)\b/g;
const CONTRIBUTOR_DOC = /ARCHITECTURE\.md|\b(?:flow|measures)\.md|docs\/adr\b|\badr\/\d{4}/g;
/** The columns of a benchmark's table: its goals, its results and their percentiles. */
const BENCHMARK_COLUMN = /^(?:goal|measured|measures|result|results|latest figure|median|p50|p95|p99|req\/s)$/i;
const BENCHMARK_HEADING = /^#{1,6} .*\b(?:measures|benchmarks?|figures)\b/i;

function lines(name: string): Array<{ at: string; line: string }> {
  return markdown
    .get(name)!
    .split("\n")
    .map((line, index) => ({ at: `${name}.md:${index + 1}`, line }));
}

function tableHeaders(name: string): Array<{ at: string; cells: string[] }> {
  const all = lines(name);
  return all
    .filter(({ line }, index) => line.startsWith("|") && !all[index - 1]?.line.startsWith("|"))
    .map(({ at, line }) => ({
      at,
      cells: line
        .split("|")
        .slice(1, -1)
        .map((cell) => cell.trim()),
    }));
}

/** The guide's fenced code blocks, each as its text. */
function codeBlocks(name: string): string[] {
  const blocks: string[] = [];
  let open: string[] | undefined;
  for (const line of markdown.get(name)!.split("\n")) {
    if (line.startsWith("```")) {
      if (open) blocks.push(open.join("\n"));
      open = open ? undefined : [];
    } else open?.push(line);
  }
  return blocks;
}

/** Source paths, source file names, benchmark tables and contributor-doc pointers in a guide's text. */
function contributorContent(name: string): string[] {
  const found: string[] = [];
  for (const { at, line } of lines(name)) {
    for (const [match] of line.matchAll(SOURCE_FOLDER)) found.push(`${at}: source path ${match}`);
    for (const [match] of line.matchAll(SOURCE_FILE)) {
      if (!READER_FILES.has(path.basename(match))) found.push(`${at}: source file ${match}`);
    }
    for (const [match] of line.matchAll(CONTRIBUTOR_DOC)) found.push(`${at}: contributor doc ${match}`);
    if (/\bnpm run bench\b|\bnpx tsx bench\b/.test(line)) found.push(`${at}: benchmark command`);
    if (BENCHMARK_HEADING.test(line)) found.push(`${at}: benchmark heading ${line}`);
  }
  for (const { at, cells } of tableHeaders(name)) {
    if (cells.some((cell) => BENCHMARK_COLUMN.test(cell))) found.push(`${at}: benchmark table | ${cells.join(" | ")} |`);
  }
  return found;
}

describe("the served guides", () => {
  it("are the guides for users; the contributor docs and the ADRs are not served", () => {
    const served = guides.map((guide) => guide.name);
    expect(served).toEqual(expect.arrayContaining(["api", "customers", "breaches", "webhooks", "operations", "security"]));
    for (const name of CONTRIBUTOR_DOCS) {
      expect(served).not.toContain(name);
      expect(renderGuide(name)).toBeUndefined();
    }
    expect(renderGuide("adr")).toBeUndefined();
  });

  it.each(guides.map((guide) => guide.name))("%s carries no source paths, benchmark tables or contributor notes", (name) => {
    expect(contributorContent(name)).toEqual([]);
  });

  it("examples name the instance by its placeholder origin, never localhost:3000", () => {
    for (const name of markdown.keys()) {
      expect(
        codeBlocks(name).filter((block) => block.includes("localhost:3000")),
        name,
      ).toEqual([]);
    }
    expect(codeBlocks("webhooks").filter((block) => block.includes(`${INSTANCE_ORIGIN}/api/v1/integrations/webhooks`))).toHaveLength(1);
  });

  it("serves the examples with the instance's own origin", () => {
    const html = renderGuide("webhooks", "https://monitor.example.com/")!.html;
    expect(html).toContain("https://monitor.example.com/api/v1/integrations/webhooks");
    expect(html).not.toContain(INSTANCE_ORIGIN);
    const local = renderGuide("webhooks", "http://127.0.0.1:3311")!.html;
    expect(local).toContain("http://127.0.0.1:3311/api/v1/integrations/webhooks/&lt;webhook id&gt;/test");
    // Without an origin (the repository's reader), the placeholder stays as written.
    expect(renderGuide("webhooks")!.html).toContain(`${INSTANCE_ORIGIN}/api/v1/integrations/webhooks`);
  });

  it("lead from the top of the webhooks guide to receiving webhooks", () => {
    const top = markdown.get("webhooks")!.split("\n## ")[0]!;
    expect(top).toContain("(#receive-webhooks)");
  });

  it("the checks find what they refuse", () => {
    const sample = (text: string) => {
      markdown.set("sample", text);
      try {
        return contributorContent("sample");
      } finally {
        markdown.delete("sample");
      }
    };
    expect(sample("Code: `server/webhooks/` and inngest/webhooks.ts.")).toHaveLength(3);
    expect(sample("Tests: `e2e/ui/docs.spec.ts`, prisma/schema.prisma")).toHaveLength(3);
    expect(sample("See docs/measures.md and ARCHITECTURE.md.")).toHaveLength(2);
    expect(sample("## Measures (`npx tsx bench/admin.ts`)")).not.toEqual([]);
    expect(sample("Intro\n\n| Measure | Goal | Result |\n|---|---|---|\n| x | y | z |")).toHaveLength(1);
    expect(sample("Run `npx tsx webhook-receiver.ts`; see /api/v1/integrations/webhooks and app/jobs")).toHaveLength(1);
    expect(sample("| Field | Type | Meaning |\n|---|---|---|")).toEqual([]);
  });
});
