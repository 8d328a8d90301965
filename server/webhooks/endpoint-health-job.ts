import { z } from "zod";
import { jobType } from "../jobs/queue";

/**
 * One change of an endpoint's health (it started failing, or the service disabled it), queued
 * by the delivery engine in the statement that records the outcome and run by endpointHealthJob
 * (health-notices.ts). Declared apart from both so that each can import it.
 */
export const endpointHealthJobType = jobType(
  "webhooks.endpoint-health",
  // As the engine writes it (`at`: the endpoint's failing_since or disabled_at).
  z.object({
    endpointId: z.uuid(),
    change: z.enum(["failing", "disabled"]),
    at: z.string().refine((value) => !Number.isNaN(Date.parse(value))),
  }),
);
export type EndpointHealthChange = z.infer<typeof endpointHealthJobType.payload>;
