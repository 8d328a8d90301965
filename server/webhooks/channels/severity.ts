/**
 * How serious a channel message is (docs/integrations.md, "Chat and SIEM channels"): a channel
 * takes the events of its types at or above its lowest severity.
 */
export const CHANNEL_SEVERITIES = ["info", "low", "medium", "high", "critical"] as const;
export type ChannelSeverity = (typeof CHANNEL_SEVERITIES)[number];

export function atLeast(severity: ChannelSeverity, lowest: ChannelSeverity): boolean {
  return CHANNEL_SEVERITIES.indexOf(severity) >= CHANNEL_SEVERITIES.indexOf(lowest);
}

export function highest(severities: readonly ChannelSeverity[]): ChannelSeverity {
  return severities.reduce<ChannelSeverity>((top, next) => (atLeast(next, top) ? next : top), "info");
}

/** What a catalogue breach exposed, as far as its severity goes. */
export interface BreachFacts {
  dataClasses: readonly string[];
  isSensitive: boolean;
  isStealerLog: boolean;
}

const SECRET_CLASSES = new Set([
  "passwords",
  "password hints",
  "auth tokens",
  "security questions and answers",
  "credit cards",
  "bank account numbers",
]);

/**
 * A found breach: critical when it is a stealer log (live credentials) or exposed passwords on a
 * sensitive site, high with passwords or other secrets or when sensitive, medium otherwise.
 */
export function breachSeverity(breach: BreachFacts): ChannelSeverity {
  const secrets = breach.dataClasses.some((dataClass) => SECRET_CLASSES.has(dataClass.toLowerCase()));
  if (breach.isStealerLog || (secrets && breach.isSensitive)) return "critical";
  if (secrets || breach.isSensitive) return "high";
  return "medium";
}

/**
 * One breach's severity in an event: found as the breach itself; unresolved (reopened) one step
 * lower, low at the least; resolved low. Events without breaches (customers, assets, domains) are info.
 */
export function findingSeverity(eventType: string, breach: BreachFacts): ChannelSeverity {
  if (eventType === "customer.breach.resolved") return "low";
  const found = breachSeverity(breach);
  if (eventType !== "customer.breach.unresolved") return found;
  return CHANNEL_SEVERITIES[Math.max(1, CHANNEL_SEVERITIES.indexOf(found) - 1)]!;
}
