/**
 * The most calls one /api/trpc request may batch: the portal's client batches at most this many
 * (imported by the browser bundle, so this file imports nothing), and the handler refuses a larger
 * batch with 400 before any call runs, so one request cannot queue hundreds of calls' work.
 */
export const UI_MAX_BATCH_SIZE = 8;
