import { Inngest } from "inngest";

/** Sent after a transaction queued jobs; starts the drain function at once. */
export const JOBS_DUE_EVENT = "app/jobs.due";

export const inngest = new Inngest({ id: "exposure-monitor" });
