import { jobType } from "../jobs/queue";
import type { EndpointHealthChange } from "./health-notices";

/**
 * One change of an endpoint's health (it started failing, or the service disabled it), queued
 * by the delivery engine in the statement that records the outcome and run by endpointHealthJob
 * (health-notices.ts). Declared apart from both so that each can import it.
 */
export const endpointHealthJobType = jobType<EndpointHealthChange>("webhooks.endpoint-health");
