import { afterEach, describe, expect, it, vi } from "vitest";
import {
  MAX_RETRY_AFTER_MS,
  nextAttemptDelayMs,
  RETRY_SCHEDULES,
  retryAfterDelayMs,
  scheduledRetryDelayMs,
} from "../../server/webhooks/retry-schedule";

/** The webhook retry schedule and Retry-After (docs/webhooks.md); the engine keeping it: test/webhooks/retry-schedule.test.ts. */
afterEach(() => {
  vi.unstubAllEnvs();
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe("the retry schedule", () => {
  it("puts a round's last attempt at least an hour after its first, for every number of attempts", () => {
    vi.stubEnv("WEBHOOK_RETRY_BASE_MS", "30000");
    for (const maxAttempts of [2, 3, 4]) {
      let earliestLast = 0;
      for (let failed = 1; failed < maxAttempts; failed++) earliestLast += scheduledRetryDelayMs(failed, maxAttempts, () => 0);
      expect(earliestLast, `maxAttempts ${maxAttempts}`).toBeGreaterThanOrEqual(HOUR);
    }
    expect(RETRY_SCHEDULES[3]).toEqual([5 * MINUTE, HOUR]);
  });

  it("stretches each delay by up to 20 %, never shortens it", () => {
    vi.stubEnv("WEBHOOK_RETRY_BASE_MS", "30000");
    expect(scheduledRetryDelayMs(1, 3, () => 0)).toBe(5 * MINUTE);
    expect(scheduledRetryDelayMs(1, 3, () => 0.5)).toBe(5.5 * MINUTE);
    expect(scheduledRetryDelayMs(1, 3, () => 0.999999)).toBeCloseTo(6 * MINUTE, -2);
    expect(scheduledRetryDelayMs(2, 3, () => 0)).toBe(HOUR);
    expect(scheduledRetryDelayMs(3, 4, () => 0)).toBe(2 * HOUR);
    expect(scheduledRetryDelayMs(1, 2, () => 0)).toBe(HOUR);
  });

  it("scales every delay with WEBHOOK_RETRY_BASE_MS", () => {
    vi.stubEnv("WEBHOOK_RETRY_BASE_MS", "300");
    expect(scheduledRetryDelayMs(1, 3, () => 0)).toBe(3_000);
    expect(scheduledRetryDelayMs(2, 3, () => 0)).toBe(36_000);
    vi.stubEnv("WEBHOOK_RETRY_BASE_MS", "0");
    expect(scheduledRetryDelayMs(2, 3, () => 0.5)).toBe(0);
  });

  it("reads Retry-After as seconds or an HTTP date, at most 24 hours, never negative", () => {
    const now = Date.parse("2026-11-25T12:00:00Z");
    expect(retryAfterDelayMs("120", now)).toBe(120_000);
    expect(retryAfterDelayMs(" 0 ", now)).toBe(0);
    expect(retryAfterDelayMs("Wed, 25 Nov 2026 12:05:00 GMT", now)).toBe(5 * MINUTE);
    expect(retryAfterDelayMs("Wed, 25 Nov 2026 11:00:00 GMT", now)).toBe(0);
    expect(retryAfterDelayMs("999999999", now)).toBe(MAX_RETRY_AFTER_MS);
    expect(retryAfterDelayMs("soon", now)).toBeUndefined();
    expect(retryAfterDelayMs("-5", now)).toBeUndefined();
    expect(retryAfterDelayMs("2026", now)).toBe(2_026_000);
    expect(retryAfterDelayMs(undefined, now)).toBeUndefined();
  });
});

describe("the next attempt", () => {
  it("waits the schedule's delay, or longer when the receiver's Retry-After asks for it (never shorter)", () => {
    vi.stubEnv("WEBHOOK_RETRY_BASE_MS", "30000");
    const random = vi.spyOn(Math, "random").mockReturnValue(0);
    try {
      expect(nextAttemptDelayMs(1, 3, undefined)).toBe(5 * MINUTE);
      expect(nextAttemptDelayMs(1, 3, 10 * MINUTE)).toBe(10 * MINUTE);
      expect(nextAttemptDelayMs(1, 3, 1_000)).toBe(5 * MINUTE);
      vi.stubEnv("WEBHOOK_RETRY_BASE_MS", "0");
      expect(nextAttemptDelayMs(2, 3, 2_000)).toBe(2_000);
    } finally {
      random.mockRestore();
    }
  });

  it("uses the longest schedule for attempt counts it has none for", () => {
    vi.stubEnv("WEBHOOK_RETRY_BASE_MS", "30000");
    expect(scheduledRetryDelayMs(3, 9, () => 0)).toBe(scheduledRetryDelayMs(3, 4, () => 0));
    expect(scheduledRetryDelayMs(7, 4, () => 0)).toBe(2 * HOUR);
  });
});
