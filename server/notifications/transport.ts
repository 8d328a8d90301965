import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import type Mail from "nodemailer/lib/mailer";
import { config } from "../config";
import type { MailAttachment } from "./render";

/** A rendered message on its way out. */
export interface OutgoingMail {
  notificationId: string;
  to: string;
  /** The From header's display name (a partner's brand); the address is always MAIL_FROM's. */
  senderName?: string | null;
  replyTo: string | null;
  subject: string;
  html: string;
  text: string;
  attachments: MailAttachment[];
  /** The RFC 8058 one-click URL of the List-Unsubscribe header (customers' e-mails; none for an organization's operational ones). */
  unsubscribeUrl?: string;
}

export interface MailTransport {
  readonly name: "smtp" | "file";
  /** Sends the message; resolves with its Message-ID, rejects when it was not accepted. */
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
}

/** The directory of the embedded default's .eml files. */
export function mailDirectory(): string {
  return path.join(config.dataDir(), "mail");
}

function fromAddress(): string {
  const from = config.mailFrom();
  return from.match(/<([^>]+)>/)?.[1] ?? from;
}

/**
 * The message as nodemailer builds it. The Message-ID is derived from the message's row, so
 * a retry after an attempt whose outcome was lost carries the same id (receivers can drop it).
 */
function mailOptions(mail: OutgoingMail): Mail.Options {
  return {
    from: mail.senderName ? { name: mail.senderName, address: fromAddress() } : config.mailFrom(),
    to: mail.to,
    replyTo: mail.replyTo ?? undefined,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    attachments: mail.attachments,
    messageId: `<${mail.notificationId}@${fromAddress().split("@")[1] ?? "localhost"}>`,
    ...(mail.unsubscribeUrl ? { list: { unsubscribe: mail.unsubscribeUrl } } : {}),
    headers: {
      ...(mail.unsubscribeUrl ? { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } : {}),
      "Auto-Submitted": "auto-generated",
    },
  };
}

const smtpTransports = new Map<string, Transporter>();

/** SMTP_URL: a pooled nodemailer transport per URL, with timeouts well inside a job's lease. */
function smtpTransport(url: string): MailTransport {
  let transporter = smtpTransports.get(url);
  if (!transporter) {
    transporter = nodemailer.createTransport({
      url,
      pool: true,
      maxConnections: 4,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 60_000,
    });
    smtpTransports.set(url, transporter);
  }
  const smtp = transporter;
  return {
    name: "smtp",
    async send(mail) {
      const info = await smtp.sendMail(mailOptions(mail));
      return { messageId: info.messageId };
    },
  };
}

/** The embedded default: each message as an .eml file under DATA_DIR/mail (open it in any mail program). */
const fileTransport: MailTransport = {
  name: "file",
  async send(mail) {
    const info = await nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" }).sendMail(mailOptions(mail));
    const directory = mailDirectory();
    await mkdir(directory, { recursive: true });
    const stamp = new Date()
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d+Z$/, "Z");
    await writeFile(path.join(directory, `${stamp}-${mail.notificationId}.eml`), info.message as Buffer);
    return { messageId: info.messageId };
  },
};

export function configuredTransport(): MailTransport {
  const url = config.smtpUrl();
  return url ? smtpTransport(url) : fileTransport;
}

/** Closes pooled SMTP connections (tests, shutdown). */
export function closeMailTransports(): void {
  for (const transporter of smtpTransports.values()) transporter.close();
  smtpTransports.clear();
}
