import { z } from "zod";

/**
 * The portal procedures' outputs. tRPC parses every answer with them and zod drops unknown keys,
 * so whatever a service returns, a prospect's answer carries only the redacted fields.
 */
const redactedBreach = z.object({ id: z.string(), emails: z.array(z.string()), resolved: z.boolean(), number: z.number().int() });

const fullBreach = z.object({
  id: z.string(),
  breachName: z.string(),
  title: z.string(),
  emails: z.array(z.string()),
  breachDate: z.string(),
  breachCategories: z.array(z.string()),
  resolved: z.boolean(),
  generatedDescription: z.string(),
  nextSteps: z.array(z.string()),
});

const listPage = { total: z.number().int(), page: z.number().int(), pageSize: z.number().int() };

export const breachListOutput = z.discriminatedUnion("redacted", [
  z.object({ redacted: z.literal(true), breaches: z.array(redactedBreach), ...listPage }),
  z.object({ redacted: z.literal(false), breaches: z.array(fullBreach), ...listPage }),
]);

export const breachDetailOutput = z.discriminatedUnion("redacted", [
  z.object({ redacted: z.literal(true), breach: redactedBreach }),
  z.object({
    redacted: z.literal(false),
    breach: fullBreach.extend({
      description: z.string(),
      /** A stealer-log breach: the websites captured, by address (only addresses at verified domains). */
      capturedSites: z.array(z.object({ email: z.string(), websiteDomains: z.array(z.string()) })).optional(),
    }),
  }),
]);

export const overviewOutput = z.object({
  threatScore: z.number().int(),
  maxThreatScore: z.number().int(),
  unresolved: z.number().int(),
  resolved: z.number().int(),
  exposedEmails: z.number().int(),
  lastScannedAt: z.string().nullable(),
  timeline: z
    .array(z.object({ year: z.number().int(), includesEarlier: z.boolean(), unresolved: z.number().int(), resolved: z.number().int() }))
    .nullable(),
});
