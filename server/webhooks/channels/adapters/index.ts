import type { Exchange } from "../../delivery-engine/exchanges";
import type { ChannelMessage } from "../message";
import type { ChannelTarget, ChannelType } from "../targets";
import type { ChannelAdapter } from "./adapter";
import { slackAdapter } from "./slack";
import { syslogAdapter } from "./syslog";
import { teamsAdapter } from "./teams";

const ADAPTERS = { slack: slackAdapter, teams: teamsAdapter, syslog: syslogAdapter } satisfies Record<ChannelType, ChannelAdapter<never>>;

/** The delivery body a channel of this type gets for the message. */
export function formatForChannel(type: ChannelType, message: ChannelMessage): string {
  return ADAPTERS[type].format(message);
}

/** Sends a channel delivery's body: the delivery engine's exchange for protocol `channel`. */
export function exchangeChannel(target: ChannelTarget, body: string): Promise<Exchange> {
  return target.type === "syslog" ? syslogAdapter.send(target, body) : ADAPTERS[target.type].send(target, body);
}
