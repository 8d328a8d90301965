import { describe, expect, it } from "vitest";
import { rateLimitHeaders, rateLimitLeaseSize } from "../../server/rate-limit";

/** Rate-limit arithmetic (docs/api.md, "Rate limits"); the shared counters: test/api/rate-limit.test.ts. */
describe("rateLimitLeaseSize", () => {
  it.each([
    [1, 1],
    [60, 1],
    [199, 1],
    [200, 2],
    [1_000, 10],
    [10_000, 100],
    [1_000_000, 100],
  ])("limit %i -> %i calls per lease", (limit, lease) => expect(rateLimitLeaseSize(limit)).toBe(lease));
});

describe("rateLimitHeaders", () => {
  const decision = { limit: 60, windowSeconds: 60, remaining: 0, retryAfterSeconds: 17 };

  it("names the policy, its quota and window, what is left and when the window ends", () => {
    expect(rateLimitHeaders("breach-check", { ...decision, allowed: true, remaining: 12 })).toEqual({
      "RateLimit-Policy": '"breach-check";q=60;w=60',
      RateLimit: '"breach-check";r=12;t=17',
    });
  });

  it("adds Retry-After only to a refused call", () => {
    expect(rateLimitHeaders("breach-retrieve", { ...decision, allowed: false })).toEqual({
      "RateLimit-Policy": '"breach-retrieve";q=60;w=60',
      RateLimit: '"breach-retrieve";r=0;t=17',
      "Retry-After": "17",
    });
  });
});
