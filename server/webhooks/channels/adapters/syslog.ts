import { hostname } from "node:os";
import type { ChannelMessage } from "../message";
import type { ChannelSeverity } from "../severity";
import type { ChannelTarget } from "../targets";
import type { ChannelAdapter } from "./adapter";
import { sendSyslogRecords } from "./syslog-transport";

/**
 * Syslog for SIEMs: RFC 5424 messages carrying ArcSight CEF, one record per mailbox and breach
 * (one per event for the other events), sent over TCP or TLS with octet-counting framing
 * (RFC 6587, RFC 5425). The body is the records, one per line; CEF escapes every line break.
 */
export const CEF_VENDOR = "Exposure Monitor";
export const CEF_PRODUCT = "exposure-monitor";
export const CEF_VERSION = "1.0";
const APP_NAME = "exposure-monitor";
/** Security/authorization messages (RFC 5424, table 1). */
const FACILITY = 10;

const SYSLOG_SEVERITY: Record<ChannelSeverity, number> = { critical: 2, high: 3, medium: 4, low: 5, info: 6 };
const CEF_SEVERITY: Record<ChannelSeverity, number> = { critical: 10, high: 8, medium: 5, low: 3, info: 1 };

/** CEF header fields escape `\` and `|`; extension values `\`, `=` and line breaks. */
const headerField = (value: string) =>
  value
    .replace(/\\/g, "\\\\")
    .replace(/\|/g, "\\|")
    .replace(/[\r\n]+/g, " ");
const extensionValue = (value: string) =>
  value
    .replace(/\\/g, "\\\\")
    .replace(/=/g, "\\=")
    .replace(/\r\n|\n/g, "\\n")
    .replace(/\r/g, "\\r");

function cef(message: ChannelMessage, severity: ChannelSeverity, extension: Record<string, string | number | undefined>): string {
  const fields = Object.entries(extension)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => `${key}=${extensionValue(String(value))}`)
    .join(" ");
  const header = [CEF_VENDOR, CEF_PRODUCT, CEF_VERSION, message.eventType, message.title].map(headerField).join("|");
  return `CEF:0|${header}|${CEF_SEVERITY[severity]}|${fields}`;
}

/** RFC 5424's printable US-ASCII header fields, at most `max` characters, "-" when empty. */
const headerToken = (value: string, max: number) => value.replace(/[^\x21-\x7e]/g, "").slice(0, max) || "-";

function rfc5424(message: ChannelMessage, severity: ChannelSeverity, payload: string): string {
  const pri = FACILITY * 8 + SYSLOG_SEVERITY[severity];
  return `<${pri}>1 ${message.occurredAt.toISOString()} ${headerToken(hostname(), 255)} ${APP_NAME} - ${headerToken(message.eventType, 32)} - ${payload}`;
}

export function syslogRecords(message: ChannelMessage): string[] {
  const common = {
    rt: message.occurredAt.getTime(),
    externalId: message.eventId,
    cs1Label: "customer",
    cs1: message.customer.name,
    cs2Label: "customerReference",
    cs2: message.customer.reference,
    cs3Label: "customerId",
    cs3: message.customer.id,
    request: message.link,
  };
  if (message.findings.length === 0) {
    return [
      rfc5424(message, message.severity, cef(message, message.severity, { ...common, msg: message.details.join("; ") || undefined })),
    ];
  }
  return message.findings.flatMap((finding) =>
    finding.emails.map((email) =>
      rfc5424(
        message,
        finding.severity,
        cef(message, finding.severity, {
          ...common,
          duser: email,
          cs4Label: "breach",
          cs4: finding.breachName ?? "withheld",
          cs5Label: "breachId",
          cs5: finding.breachInstanceId,
          cs6Label: finding.dataClasses.length > 0 ? "dataClasses" : undefined,
          cs6: finding.dataClasses.join(", ") || undefined,
        }),
      ),
    ),
  );
}

export const syslogAdapter: ChannelAdapter<Extract<ChannelTarget, { type: "syslog" }>> = {
  format: (message) => syslogRecords(message).join("\n"),
  send: (target, body) => sendSyslogRecords(target, body.split("\n")),
};
