import { describe, expect, it } from "vitest";
import { parseJobPayload, MalformedJobPayloadError } from "../../server/jobs/definition";
import { slotOf, slotPayload } from "../../server/jobs/schedules";
import { jobCatalogue } from "../../server/startup/job-catalogue";

/**
 * Every job type's one payload schema (ARCHITECTURE.md, "Background work"): what the code queues
 * passes, anything else is a MalformedJobPayloadError. The drivers refusing a stored payload:
 * test/jobs/jobs.test.ts, test/breaches/inngest.test.ts.
 */
const CUSTOMER = "0b7c3e1a-5d2f-4c8e-9a61-3f2d7e8b9c10";

/** A payload as the code that queues each kind writes it, and malformed ones. */
const PAYLOADS: Record<string, { good: unknown[]; bad: unknown[] }> = {
  "breaches.scan-customer": {
    good: [
      { customerId: CUSTOMER, reason: "daily" },
      { customerId: CUSTOMER, reason: "onboard" },
    ],
    bad: [{ customerId: CUSTOMER, reason: "whenever" }, { customerId: "nope", reason: "daily" }, { reason: "daily" }],
  },
  "breaches.match-new-exposures": {
    good: [{ importId: 7 }, { breachIds: ["0c1d", "9f2e"] }, { breachIds: [] }],
    bad: [{ importId: 1.5 }, { importId: "7" }, { breachIds: "0c1d" }, {}],
  },
  "breaches.index-range-prefixes": {
    good: [{ importId: 7 }, { fromPage: 0, toPage: 1200 }],
    bad: [{ importId: 0 }, { fromPage: -1, toPage: 3 }, { fromPage: 2 }, {}],
  },
  "directory.sync": { good: [{ connectionId: CUSTOMER }], bad: [{ connectionId: "nope" }, {}] },
  "psa.sync": { good: [{ connectionId: CUSTOMER }], bad: [{ connectionId: "nope" }, {}] },
  "psa.sync-at": { good: [{ connectionId: CUSTOMER }], bad: [{ connectionId: 7 }, {}] },
  "notifications.send": { good: [{ notificationId: CUSTOMER }], bad: [{ notificationId: 7 }, {}] },
  "notifications.monthly-report": {
    good: [{ customerId: CUSTOMER, period: "2026-10" }],
    bad: [
      { customerId: CUSTOMER, period: "2026-13" },
      { customerId: CUSTOMER, period: "October" },
    ],
  },
  "notifications.alert-digest": {
    good: [{ customerId: CUSTOMER, digest: "weekly", slot: "2026-12-07" }],
    bad: [
      { customerId: CUSTOMER, digest: "monthly", slot: "2026-12-07" },
      { customerId: CUSTOMER, digest: "daily", slot: "2026-12" },
    ],
  },
  "webhooks.channel-digest": {
    good: [{ channelId: CUSTOMER, digest: "daily", slot: "2026-12-07" }],
    bad: [
      { channelId: CUSTOMER, digest: "off", slot: "2026-12-07" },
      { channelId: "nope", digest: "weekly", slot: "2026-12-07" },
    ],
  },
  "webhooks.endpoint-health": {
    good: [{ endpointId: CUSTOMER, change: "failing", at: "2026-11-25T10:00:00.000Z" }],
    bad: [
      { endpointId: CUSTOMER, change: "broken", at: "2026-11-25T10:00:00.000Z" },
      { endpointId: CUSTOMER, change: "failing", at: "soon" },
    ],
  },
};

describe("job payload schemas", () => {
  it.each(jobCatalogue.jobs.map((job) => [job.kind, job] as const))("%s accepts what is queued and refuses the rest", (kind, job) => {
    // Schedules' jobs take their slot (slotOf), every other kind is listed above.
    const { good, bad } = PAYLOADS[kind] ?? { good: [{ slot: "2026-11-21" }], bad: [{ slot: "yesterday" }, {}, null, "2026-11-21"] };
    for (const payload of good) expect(parseJobPayload(job, payload)).toEqual(payload);
    for (const payload of bad) expect(() => parseJobPayload(job, payload), JSON.stringify(payload)).toThrow(MalformedJobPayloadError);
  });

  it("names the kind and what is wrong", () => {
    const job = jobCatalogue.definition("breaches.scan-customer")!;
    expect(() => parseJobPayload(job, { customerId: CUSTOMER })).toThrow(/^malformed breaches\.scan-customer payload: .*reason/);
  });

  it("takes every slot a schedule writes", () => {
    const now = new Date("2026-11-21T13:45:00Z");
    for (const every of ["hour", "day", "month"] as const) {
      const slot = slotOf({ name: "test", every, enqueue: async () => undefined }, now);
      expect(slotPayload.parse({ slot })).toEqual({ slot });
    }
  });
});
