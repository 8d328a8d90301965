import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../server/api/openapi";
import { guideHref, headingSlug, listGuides, renderGuide } from "../../server/docs/guides";

/**
 * The guides as the instance serves them at /docs/<name> (server/docs/guides.ts): every link
 * between guides and from the OpenAPI document's descriptions leads to a guide and a heading
 * that exist, and none to a repository file.
 */
const guides = listGuides();
const rendered = new Map(guides.map((guide) => [guide.name, renderGuide(guide.name)!]));
const ids = new Map([...rendered].map(([name, guide]) => [name, new Set([...guide.html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!))]));

function brokenLinks(hrefs: Iterable<string>): string[] {
  const broken: string[] = [];
  for (const href of hrefs) {
    const match = /^\/docs\/([a-z0-9-]+)(?:#(.+))?$/.exec(href);
    if (!match) continue;
    const [, name, anchor] = match;
    if (name === "reference" || name === "screens") continue;
    if (!ids.has(name!) || (anchor !== undefined && !ids.get(name!)!.has(decodeURIComponent(anchor)))) broken.push(href);
  }
  return broken;
}

describe("the guides served at /docs/<name>", () => {
  it("lists the partner guides first, with their titles", () => {
    expect(guides.slice(0, 5).map((guide) => guide.name)).toEqual(["api", "customers", "breaches", "threat-score", "webhooks"]);
    expect(guides.find((guide) => guide.name === "webhooks")).toMatchObject({
      title: "Webhooks: endpoints, signing secrets, delivery",
      group: "Partner developers",
    });
    for (const name of ["customers", "breaches", "webhooks", "portal", "distributors"]) expect(rendered.has(name)).toBe(true);
  });

  it("gives headings GitHub's ids, so the guides' anchors work", () => {
    expect(headingSlug("Status changes: offboard, reactivate, upgrade, downgrade")).toBe(
      "status-changes-offboard-reactivate-upgrade-downgrade",
    );
    expect(headingSlug("Get a customer's details")).toBe("get-a-customers-details");
    expect(headingSlug("Measures (`bench/webhook-delivery.ts`)")).toBe("measures-benchwebhook-deliveryts");
    expect(ids.get("webhooks")).toContain("receive-webhooks");
    expect(ids.get("customers")).toContain("onboard-a-customer");
  });

  it("turns links between guides into /docs/ paths, and repository files into plain text", () => {
    const names = new Set(guides.map((guide) => guide.name));
    expect(guideHref("customers.md#paths", names)).toBe("/docs/customers#paths");
    expect(guideHref("docs/webhooks.md", names)).toBe("/docs/webhooks");
    expect(guideHref("../docs/portal.md#sessions", names)).toBe("/docs/portal#sessions");
    expect(guideHref("#events", names)).toBe("#events");
    expect(guideHref("https://haveibeenpwned.com", names)).toBe("https://haveibeenpwned.com");
    expect(guideHref("../README.md", names)).toBeUndefined();
    expect(guideHref("../server/config.ts", names)).toBeUndefined();
    expect(guideHref("nosuchguide.md", names)).toBeUndefined();
  });

  it.each(guides.map((guide) => guide.name))("%s links only to guides and headings that exist, never to a .md file", (name) => {
    const hrefs = [...rendered.get(name)!.html.matchAll(/ href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
    expect(hrefs.filter((href) => /\.md($|#)/.test(href))).toEqual([]);
    const local = hrefs.filter((href) => href.startsWith("#")).map((href) => `/docs/${name}${href}`);
    expect(brokenLinks([...hrefs, ...local])).toEqual([]);
  });

  it("keeps wide tables in a box of their own (phones)", () => {
    expect(rendered.get("api")!.html).toMatch(/<div class="table-scroll"><table>/);
  });

  it("answers undefined for a name that is not a guide", () => {
    expect(renderGuide("nosuchguide")).toBeUndefined();
    expect(renderGuide("../README")).toBeUndefined();
  });
});

describe("the OpenAPI document's descriptions", () => {
  const text = JSON.stringify(buildOpenApiDocument("http://localhost:3000"));
  const links = [...text.matchAll(/\]\((http:\/\/localhost:3000)?(\/docs\/[^)\s"]+)\)/g)].map((m) => ({
    absolute: Boolean(m[1]),
    href: m[2]!,
  }));

  it("link to the guides on the instance, absolute, and every link resolves", () => {
    expect(links.length).toBeGreaterThan(5);
    expect(links.filter((link) => !link.absolute)).toEqual([]);
    expect(links.map((link) => link.href)).toContain("/docs/webhooks#receive-webhooks");
    expect(brokenLinks(links.map((link) => link.href))).toEqual([]);
  });

  it("never point at a repository file", () => {
    expect(text.match(/[\w/-]+\.md\b/g) ?? []).toEqual([]);
  });
});
