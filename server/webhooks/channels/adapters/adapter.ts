import type { Exchange } from "../../delivery-engine/exchanges";
import type { ChannelMessage } from "../message";
import type { ChannelTarget } from "../targets";

/**
 * One kind of channel: how a message becomes the delivery's body (kept in the delivery log and
 * sent unchanged on every attempt) and how that body reaches the receiver. The delivery engine
 * does the rest (retries, health, auto-disable) as for any webhook endpoint.
 */
export interface ChannelAdapter<Target extends ChannelTarget = ChannelTarget> {
  format(message: ChannelMessage): string;
  send(target: Target, body: string): Promise<Exchange>;
}

/** At most `limit` items, and how many were left out. */
export function capped<T>(items: readonly T[], limit: number): { shown: T[]; more: number } {
  return { shown: items.slice(0, limit), more: Math.max(0, items.length - limit) };
}

/** `text` cut to `max` characters, an ellipsis marking the cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export const SEVERITY_LABEL = { info: "Info", low: "Low", medium: "Medium", high: "High", critical: "Critical" } as const;
