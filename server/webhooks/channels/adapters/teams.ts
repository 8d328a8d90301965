import { findingsSummary, type ChannelFinding, type ChannelMessage } from "../message";
import type { ChannelTarget } from "../targets";
import { capped, clip, SEVERITY_LABEL, type ChannelAdapter } from "./adapter";
import { postChatMessage } from "./chat-post";

/**
 * Microsoft Teams: a Workflows webhook ("When a Teams webhook request is received", the
 * successor of the retired Office 365 connectors) posting one Adaptive Card, version 1.4 (what
 * Teams renders in channels and chats), kept well under the 28 KB a Teams message may carry.
 */
const CARD_VERSION = "1.4";
const MAX_BREACHES = 20;
const MAX_EMAILS_PER_BREACH = 10;

type Element = Record<string, unknown>;

const text = (value: string, extra: Element = {}): Element => ({ type: "TextBlock", text: value, wrap: true, ...extra });

function breachContainer(finding: ChannelFinding): Element {
  const { shown, more } = capped(finding.emails, MAX_EMAILS_PER_BREACH);
  return {
    type: "Container",
    separator: true,
    items: [
      text(`${finding.breachName ?? "Breach details withheld until the customer is onboarded"} (${SEVERITY_LABEL[finding.severity]})`, {
        weight: "Bolder",
      }),
      ...(finding.dataClasses.length > 0 ? [text(`Exposed: ${finding.dataClasses.join(", ")}`, { isSubtle: true, spacing: "None" })] : []),
      text([...shown, ...(more > 0 ? [`…and ${more} more`] : [])].join("\n\n"), { spacing: "Small" }),
    ],
  };
}

export function adaptiveCard(message: ChannelMessage): Element {
  const summary = message.findings.length > 0 ? findingsSummary(message.findings) : "";
  const { shown, more } = capped(message.findings, MAX_BREACHES);
  const urgent = message.severity === "high" || message.severity === "critical";
  return {
    $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
    type: "AdaptiveCard",
    version: CARD_VERSION,
    body: [
      text(clip(message.title, 300), { weight: "Bolder", size: "Medium", ...(urgent ? { color: "Attention" } : {}) }),
      ...(summary ? [text(summary, { spacing: "Small" })] : []),
      {
        type: "FactSet",
        facts: [
          { title: "Customer", value: `${message.customer.name} (${message.customer.reference})` },
          { title: "Severity", value: SEVERITY_LABEL[message.severity] },
          { title: "Event", value: message.eventType },
          { title: "At", value: message.occurredAt.toISOString() },
          ...message.details.map((line) => {
            const [title, ...rest] = line.split(": ");
            return { title: title!, value: rest.join(": ") };
          }),
        ],
      },
      ...shown.map(breachContainer),
      ...(more > 0 ? [text(`…and ${more} more breaches in the admin console`, { isSubtle: true })] : []),
    ],
    actions: [{ type: "Action.OpenUrl", title: "Open customer", url: message.link }],
  };
}

/** The Workflows webhook's body: a message with the card as its one attachment. */
export function teamsPayload(message: ChannelMessage): Element {
  return {
    type: "message",
    attachments: [{ contentType: "application/vnd.microsoft.card.adaptive", contentUrl: null, content: adaptiveCard(message) }],
  };
}

export const teamsAdapter: ChannelAdapter<Extract<ChannelTarget, { type: "slack" | "teams" }>> = {
  format: (message) => JSON.stringify(teamsPayload(message)),
  send: postChatMessage,
};
