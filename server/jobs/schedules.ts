import { z } from "zod";
import type { Db, Queryable } from "../db/client";
import type { JobType } from "./queue";

/**
 * A recurring task. Each period has a slot key ("2026-11-21" for a daily task); a slot is
 * claimed in scheduled_runs before its job is queued, so it runs once however many
 * processes (or Inngest crons) reach it. A process that was down catches up the current slot.
 */
export interface Schedule {
  name: string;
  every: "hour" | "day" | "month";
  /** UTC hour at which a daily or monthly slot opens. */
  hourUtc?: number;
  /** Inngest drives this schedule through a function of its own (not the generic schedule-<name>). */
  dedicatedInngestFunction?: boolean;
  /** The kind of job a slot queues (scheduleJob sets it; the job catalogue checks it lists that kind). */
  jobKind?: string;
  enqueue(db: Queryable, slot: string): Promise<unknown>;
}

/** The payload of a schedule's job: its slot ("2026-11-21T13", "2026-11-21", "2026-11"; slotOf). */
export const slotPayload = z.object({ slot: z.string().regex(/^\d{4}-\d{2}(-\d{2}(T\d{2})?)?$/, "a schedule slot") });

/**
 * The usual schedule: each slot queues one job of `job` with the slot as its payload, deduplicated
 * per slot (`<schedule name>:<slot>`).
 */
export function scheduleJob(job: JobType<{ slot: string }>, schedule: Omit<Schedule, "enqueue" | "jobKind">): Schedule {
  return { ...schedule, jobKind: job.kind, enqueue: (db, slot) => job.enqueue(db, { slot }, { dedupeKey: `${schedule.name}:${slot}` }) };
}

/** The key of the period `now` falls in ("2026-11-21T13", "2026-11-21", "2026-11"), opened or not. */
export function slotOf(schedule: Schedule, now: Date): string {
  return now.toISOString().slice(0, { hour: 13, day: 10, month: 7 }[schedule.every]);
}

/** The slot open at `now`, or undefined while this period's slot has not opened yet. */
export function currentSlot(schedule: Schedule, now: Date): string | undefined {
  const hour = schedule.hourUtc ?? 0;
  const opened = schedule.every === "hour" || now.getUTCHours() >= hour || (schedule.every === "month" && now.getUTCDate() > 1);
  return opened ? slotOf(schedule, now) : undefined;
}

/** Claims a slot of the schedule in scheduled_runs; false when a process (or Inngest) claimed it already. */
export async function claimSlot(db: Queryable, schedule: Schedule, slot: string): Promise<boolean> {
  const claimed = await db.$executeRaw`
    INSERT INTO scheduled_runs (name, slot) VALUES (${schedule.name}, ${slot}) ON CONFLICT DO NOTHING`;
  return claimed > 0;
}

/** The Inngest cron expression of a schedule (UTC). */
export function cronOf(schedule: Schedule): string {
  const hour = schedule.hourUtc ?? 0;
  if (schedule.every === "hour") return "0 * * * *";
  if (schedule.every === "day") return `0 ${hour} * * *`;
  return `0 ${hour} 1 * *`;
}

/** Claims the schedule's current slot and queues its work in one transaction. */
export async function runScheduleIfDue(db: Db, schedule: Schedule, now = new Date()): Promise<boolean> {
  const slot = currentSlot(schedule, now);
  if (!slot) return false;
  return db.$transaction(async (tx) => {
    if (!(await claimSlot(tx, schedule, slot))) return false;
    await schedule.enqueue(tx, slot);
    return true;
  });
}

export async function runDueSchedules(db: Db, schedules: readonly Schedule[], now = new Date()): Promise<string[]> {
  const started: string[] = [];
  for (const schedule of schedules) {
    if (await runScheduleIfDue(db, schedule, now)) started.push(schedule.name);
  }
  return started;
}
