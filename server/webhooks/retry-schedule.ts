import { config } from "../config";

/**
 * When a failed attempt is tried again (docs/webhooks.md, "Retry schedule"). The schedule is
 * chosen so that a round's last attempt comes at least an hour after its first: a receiver that
 * is down for a deploy, a restart or a certificate renewal loses nothing. WEBHOOK_RETRY_BASE_MS
 * scales every delay in proportion (its default gives the schedule as written); what a receiver
 * asks for with Retry-After is honoured as it is, never scaled.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The WEBHOOK_RETRY_BASE_MS at which the schedule applies unscaled. */
export const DEFAULT_RETRY_BASE_MS = 30_000;

/** Delays before the 2nd, 3rd, ... attempt of a round, by the round's number of attempts. */
export const RETRY_SCHEDULES: Readonly<Record<number, readonly number[]>> = {
  1: [],
  2: [HOUR],
  3: [5 * MINUTE, HOUR],
  4: [5 * MINUTE, 30 * MINUTE, 2 * HOUR],
};

/**
 * Each scheduled delay is stretched by up to this share, so the retries of a burst do not arrive
 * together; only stretched, so the schedule's spacing is a floor.
 */
export const RETRY_JITTER = 0.2;

/** The longest wait a receiver's Retry-After can ask for. */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;

/** Statuses whose Retry-After is honoured. */
export const RETRY_AFTER_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** The scheduled delay (jitter included) before the attempt that follows `failedAttempts` failed ones. */
export function scheduledRetryDelayMs(failedAttempts: number, maxAttempts: number, random: () => number = Math.random): number {
  const schedule = RETRY_SCHEDULES[maxAttempts] ?? RETRY_SCHEDULES[4]!;
  const unscaled = schedule[Math.min(Math.max(failedAttempts, 1), schedule.length) - 1] ?? 0;
  const scaled = (unscaled * config.webhookRetryBaseMs()) / DEFAULT_RETRY_BASE_MS;
  return Math.round(scaled * (1 + random() * RETRY_JITTER));
}

/** The delay a Retry-After value asks for: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterDelayMs(value: string | undefined, now: number = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  let delay: number;
  if (/^\d+$/.test(text)) delay = Number(text) * 1000;
  else if (!/^[A-Za-z]{3}, /.test(text)) return undefined;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    delay = at - now;
  }
  return Math.min(Math.max(delay, 0), MAX_RETRY_AFTER_MS);
}

/** The delay before the next attempt: the schedule's, or longer when the receiver asked for it. */
export function nextAttemptDelayMs(failedAttempts: number, maxAttempts: number, retryAfterMs: number | undefined): number {
  return Math.max(scheduledRetryDelayMs(failedAttempts, maxAttempts), retryAfterMs ?? 0);
}
