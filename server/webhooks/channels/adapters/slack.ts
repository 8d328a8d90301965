import type { ActionsBlock, ContextBlock, HeaderBlock, KnownBlock, SectionBlock } from "@slack/types";
import { findingsSummary, type ChannelFinding, type ChannelMessage } from "../message";
import type { ChannelTarget } from "../targets";
import { capped, clip, SEVERITY_LABEL, type ChannelAdapter } from "./adapter";
import { postChatMessage } from "./chat-post";

/**
 * Slack: an incoming webhook (https://hooks.slack.com/services/...) posting a Block Kit
 * message, within Slack's published limits (docs.slack.dev, "Blocks"): at most 50 blocks, a
 * header's plain text 150 characters, a section's text 3,000, a button's text 75.
 */
const MAX_BREACH_SECTIONS = 40;
const MAX_EMAILS_PER_BREACH = 20;

/** mrkdwn's three control characters (docs.slack.dev, "Formatting text for app surfaces"). */
const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const mrkdwn = (text: string) => ({ type: "mrkdwn" as const, text });

function breachSection(finding: ChannelFinding): SectionBlock {
  const { shown, more } = capped(finding.emails, MAX_EMAILS_PER_BREACH);
  const lines = [
    `*${escape(finding.breachName ?? "Breach details withheld until the customer is onboarded")}* (${SEVERITY_LABEL[finding.severity]})`,
    ...(finding.dataClasses.length > 0 ? [`Exposed: ${escape(finding.dataClasses.join(", "))}`] : []),
    ...shown.map((email) => `• ${escape(email)}`),
    ...(more > 0 ? [`…and ${more} more`] : []),
  ];
  return { type: "section", text: mrkdwn(clip(lines.join("\n"), 3000)) };
}

export function slackPayload(message: ChannelMessage): { text: string; blocks: KnownBlock[] } {
  const summary = message.findings.length > 0 ? findingsSummary(message.findings) : message.details.join(", ");
  const header: HeaderBlock = { type: "header", text: { type: "plain_text", text: clip(message.title, 150), emoji: false } };
  const overview: SectionBlock = {
    type: "section",
    ...(summary ? { text: mrkdwn(clip(escape(summary), 3000)) } : {}),
    fields: [
      mrkdwn(clip(`*Customer*\n${escape(`${message.customer.name} (${message.customer.reference})`)}`, 2000)),
      mrkdwn(`*Severity*\n${SEVERITY_LABEL[message.severity]}`),
    ],
  };
  const { shown, more } = capped(message.findings, MAX_BREACH_SECTIONS);
  const details: SectionBlock[] =
    message.findings.length === 0 && message.details.length > 0
      ? [{ type: "section", text: mrkdwn(clip(message.details.map((line) => `• ${escape(line)}`).join("\n"), 3000)) }]
      : [];
  const actions: ActionsBlock = {
    type: "actions",
    elements: [{ type: "button", text: { type: "plain_text", text: "Open customer" }, url: message.link, action_id: "open-customer" }],
  };
  const context: ContextBlock = {
    type: "context",
    elements: [
      mrkdwn(
        escape(
          `${message.eventType} · ${message.occurredAt.toISOString()} · ${message.eventId}${more > 0 ? ` · ${more} more breaches in the admin console` : ""}`,
        ),
      ),
    ],
  };
  return {
    text: clip(`${message.title}${summary ? ` (${summary})` : ""}: ${SEVERITY_LABEL[message.severity]}`, 3000),
    blocks: [header, overview, ...details, ...shown.map(breachSection), actions, context],
  };
}

export const slackAdapter: ChannelAdapter<Extract<ChannelTarget, { type: "slack" | "teams" }>> = {
  format: (message) => JSON.stringify(slackPayload(message)),
  send: postChatMessage,
};
