import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Marked, Renderer, type Tokens } from "marked";

/**
 * The guides (docs/*.md) as the running instance serves them at /docs/<name> (docs/api.md, "Other
 * HTTP paths"), so a partner with only the instance can read them: links between guides become
 * /docs/ paths, headings get the ids GitHub gives them (the anchors the guides link to), images
 * under docs/screens/ are served at /docs/screens/, and links to other repository files keep
 * their text only. The pages are rendered when the app is built.
 */

const DOCS_DIR = path.join(/*turbopackIgnore: true*/ process.cwd(), "docs");
const GUIDE_NAME = /^[a-z0-9][a-z0-9-]*$/;

export interface GuideEntry {
  name: string;
  title: string;
  group: GuideGroup;
}

export type GuideGroup = "Partner developers" | "Distributors" | "Running the service";

/** The order and group of the known guides; any other docs/*.md comes last in "Running the service". */
const ORDER: Array<[string, GuideGroup]> = [
  ["api", "Partner developers"],
  ["customers", "Partner developers"],
  ["breaches", "Partner developers"],
  ["threat-score", "Partner developers"],
  ["webhooks", "Partner developers"],
  ["directory", "Partner developers"],
  ["integrations", "Partner developers"],
  ["portal", "Partner developers"],
  ["notifications", "Partner developers"],
  ["security", "Partner developers"],
  ["distributors", "Distributors"],
  ["admin-ui", "Distributors"],
  ["operations", "Running the service"],
  ["measures", "Running the service"],
];

export function listGuides(): GuideEntry[] {
  const names = readdirSync(DOCS_DIR)
    .filter((file) => file.endsWith(".md"))
    .map((file) => file.slice(0, -3))
    .filter((name) => GUIDE_NAME.test(name));
  const rank = (name: string) => {
    const index = ORDER.findIndex(([known]) => known === name);
    return index === -1 ? ORDER.length : index;
  };
  return names
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((name) => ({
      name,
      title: titleOf(readGuide(name)) ?? name,
      group: ORDER.find(([known]) => known === name)?.[1] ?? "Running the service",
    }));
}

export interface RenderedGuide {
  name: string;
  title: string;
  html: string;
}

/** The guide's HTML, or undefined when docs/ has no such guide. */
export function renderGuide(name: string): RenderedGuide | undefined {
  if (!GUIDE_NAME.test(name)) return undefined;
  const guides = new Set(listGuides().map((guide) => guide.name));
  if (!guides.has(name)) return undefined;
  const markdown = readGuide(name);
  const slugs = new Map<string, number>();
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth }: Tokens.Heading) {
        const id = uniqueSlug(slugs, plainText(tokens));
        return `<h${depth} id="${id}"><a class="anchor" href="#${id}" aria-hidden="true" tabindex="-1">#</a>${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
      link({ href, title, tokens }: Tokens.Link) {
        const text = this.parser.parseInline(tokens);
        const target = guideHref(href, guides);
        if (target === undefined) return `<span class="repo-ref">${text}</span>`;
        const titleAttribute = title ? ` title="${escapeAttribute(title)}"` : "";
        return `<a href="${escapeAttribute(target)}"${titleAttribute}>${text}</a>`;
      },
      image({ href, text }: Tokens.Image) {
        const file = /^(?:\.\/)?screens\/([\w.-]+\.(?:png|jpe?g|webp))$/i.exec(href)?.[1];
        if (!file) return escapeHtml(text);
        return `<img src="/docs/screens/${file}" alt="${escapeAttribute(text)}" loading="lazy">`;
      },
      table(token: Tokens.Table) {
        // Wide tables scroll inside their own box, never the page (phones).
        return `<div class="table-scroll">${Renderer.prototype.table.call(this, token)}</div>\n`;
      },
    },
  });
  return { name, title: titleOf(markdown) ?? name, html: marked.parse(markdown, { async: false }) };
}

function readGuide(name: string): string {
  return readFileSync(path.join(DOCS_DIR, `${name}.md`), "utf8");
}

function titleOf(markdown: string): string | undefined {
  return /^# (.+)$/m.exec(markdown)?.[1]?.replace(/`/g, "").trim();
}

/**
 * Where a link in a guide leads on the instance: another guide (`webhooks.md#events`,
 * `docs/webhooks.md`) at /docs/<name>, an anchor or an outside address as written; undefined for
 * a file of the repository, which the instance does not serve.
 */
export function guideHref(href: string, guides: ReadonlySet<string>): string | undefined {
  if (/^(https?:|mailto:)/i.test(href) || href.startsWith("#")) return href;
  const match = /^(?:\.\/|(?:\.\.\/)?docs\/)?([a-z0-9-]+)\.md(#[^\s]*)?$/i.exec(href);
  if (match && guides.has(match[1]!)) return `/docs/${match[1]}${match[2] ?? ""}`;
  if (href.startsWith("/docs/") || href.startsWith("/api/")) return href;
  return undefined;
}

/** GitHub's heading ids: lower-case, punctuation dropped, each space a hyphen; repeats get -1, -2, ... */
export function headingSlug(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function uniqueSlug(seen: Map<string, number>, text: string): string {
  const base = headingSlug(text);
  const count = seen.get(base) ?? 0;
  seen.set(base, count + 1);
  return count === 0 ? base : `${base}-${count}`;
}

function plainText(tokens: Tokens.Generic[]): string {
  return tokens
    .map((token) => (Array.isArray(token.tokens) ? plainText(token.tokens) : decodeEntities(String(token.text ?? token.raw ?? ""))))
    .join("");
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[name]!);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!);
}

const escapeAttribute = escapeHtml;
