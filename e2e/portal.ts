import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { partnerHeaders } from "./demo";

/** The demo customers `npm start` created (server/demo.ts), by reference. */
export const DEMO_ACTIVE = "DEMO-NORTHWIND";
export const DEMO_PROSPECT = "DEMO-FABRIKAM";

export async function demoCustomerId(request: APIRequestContext, reference: string): Promise<string> {
  const response = await request.get("/api/v1/integrations/partner/customers?pageSize=100", { headers: partnerHeaders() });
  const customer = (await response.json()).customers.find((entry: { customerRef: string }) => entry.customerRef === reference);
  if (!customer) throw new Error(`no demo customer ${reference}`);
  return customer.customerId;
}

/** A fresh magic link of the partner's customer, over the partner API. */
export async function createMagicLink(request: APIRequestContext, customerId: string): Promise<string> {
  const response = await request.post(`/api/v1/integrations/customer/${customerId}/magic-link`, { headers: partnerHeaders() });
  expect(response.status()).toBe(200);
  const body = await response.json();
  expect(body).toEqual({ success: true, url: expect.stringMatching(/\/auth\/confirm\?token_hash=[A-Za-z0-9_-]{43}&type=magiclink$/) });
  return body.url;
}

export function tokenOf(url: string): string {
  return new URL(url).searchParams.get("token_hash")!;
}

export type PartnerBreach = { id: string; title: string; resolved: boolean; emails: string[]; breachDate: string };

export async function partnerBreaches(request: APIRequestContext, customerId: string) {
  const response = await request.get(`/api/v1/integrations/customer/${customerId}/breaches`, { headers: partnerHeaders() });
  expect(response.status()).toBe(200);
  return response.json();
}

/** Everything the service process has written so far (e2e/global-setup.ts sends it to this file). */
export function serverLog(): string {
  return readFileSync(path.resolve("e2e/artifacts/server.log"), "utf8");
}

export const SESSION_COOKIE = "portal-session";

const AXE_SCRIPT = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** Runs axe-core's WCAG 2.2 A/AA rules on the page as it is now; lists what fails. */
export async function expectAccessible(page: Page) {
  // Next streams a page's metadata after its content (on client navigation too): the title
  // arrives a moment after the heading; check the page once it has settled.
  await expect(page).toHaveTitle(/\S/);
  // Evaluated through the DevTools protocol: an added <script> would be refused by the page's CSP.
  await page.evaluate(`${readFileSync(AXE_SCRIPT, "utf8")}\n;undefined`);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<any> } }).axe;
    const result = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] } });
    return result.violations.map((violation: any) => ({
      rule: violation.id,
      impact: violation.impact,
      nodes: violation.nodes.slice(0, 3).map((node: any) => node.target.join(" ")),
    }));
  });
  expect(violations, `accessibility violations on ${page.url()}`).toEqual([]);
}
