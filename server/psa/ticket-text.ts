import { createHash } from "node:crypto";
import type { TicketDraft, TicketPriority } from "./adapter";

/** What a ticket says (docs/integrations.md, "What a ticket says"), in English: the PSA's staff read it. */
export interface TicketFacts {
  customerName: string;
  breach: { title: string; breachDate: Date; dataClasses: string[]; isSensitive: boolean; isStealerLog: boolean; descriptionText: string };
}

/** The key written into a ticket: the same for the same instance and mailbox, so a search finds it again. */
export function ticketKeyOf(breachInstanceId: string, mailbox: string): string {
  return `EXM-${createHash("sha256").update(`${breachInstanceId}\n${mailbox}`).digest("hex").slice(0, 20).toUpperCase()}`;
}

/** Sensitive breaches, exposed passwords and stealer logs are high priority. */
export function priorityOf(breach: TicketFacts["breach"]): TicketPriority {
  const passwords = breach.dataClasses.some((dataClass) => /password/i.test(dataClass));
  return breach.isSensitive || breach.isStealerLog || passwords ? "high" : "normal";
}

export function ticketDraft(facts: TicketFacts, key: string, companyId: string, mailboxes: readonly string[]): TicketDraft {
  const { breach } = facts;
  const steps = [
    "Reset the password of each mailbox listed, and of every other account where the same password was used.",
    "Require multi-factor authentication on these accounts.",
    "Review recent sign-ins, mailbox rules and forwarding for signs of misuse.",
    ...(breach.isStealerLog ? ["Check the users' devices for malware: stealer logs are taken from infected devices."] : []),
    "Mark the breach resolved in exposure monitoring when done, or close this ticket: either resolves it.",
  ];
  const description = [
    `${facts.customerName}: ${mailboxes.length} mailbox${mailboxes.length === 1 ? "" : "es"} found in the ${breach.title} breach (${breach.breachDate.toISOString().slice(0, 10)}).`,
    breach.dataClasses.length > 0 ? `Exposed data: ${breach.dataClasses.join(", ")}.` : "",
    breach.descriptionText ? `\n${breach.descriptionText.slice(0, 1500)}` : "",
    "\nAffected mailboxes:",
    ...mailboxes.map((mailbox) => `- ${mailbox}`),
    "\nSteps to take:",
    ...steps.map((step, index) => `${index + 1}. ${step}`),
    `\nReference: ${key}`,
  ].filter((line) => line !== "");
  return {
    key,
    companyId,
    summary: `Breach exposure: ${breach.title} (${facts.customerName})`,
    description: description.join("\n"),
    priority: priorityOf(breach),
  };
}

/**
 * The key written into a note: the ticket's key and a hash of what the note lists, so a note
 * whose answer was lost is found again among the ticket's notes (and never sent twice).
 */
export function noteKeyOf(ticketKey: string, mailboxes: readonly string[]): string {
  const what = mailboxes.length === 0 ? "closed" : [...mailboxes].sort().join("\n");
  return `${ticketKey}-${createHash("sha256").update(what).digest("hex").slice(0, 8).toUpperCase()}`;
}

export function newMailboxesNote(breachTitle: string, mailboxes: readonly string[], key: string): string {
  return [
    `Found since in ${breachTitle}; take the same steps for:`,
    ...mailboxes.map((mailbox) => `- ${mailbox}`),
    `\nReference: ${key}`,
  ].join("\n");
}

export const RESOLVED_NOTE = "Every affected mailbox was marked resolved in exposure monitoring; the ticket is closed.";

export function resolvedNote(key: string): string {
  return `${RESOLVED_NOTE}\n\nReference: ${key}`;
}
