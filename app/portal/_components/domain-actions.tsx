"use client";

import { useRouter } from "next/navigation";
import { useRef, useState, type FormEvent } from "react";
import styles from "../portal.module.css";
import domainStyles from "./domain-actions.module.css";
import { uiClient, withFreshAccess } from "./ui-client";

const MAILBOXES = ["security", "postmaster", "hostmaster", "webmaster", "admin"] as const;

/** A call of the Domains page: busy while it runs, then what it said (or why it failed), and the page refreshed. */
function useDomainAction(announce: "status" | "live") {
  const router = useRouter();
  const [message, setMessage] = useState<{ text: string; failed: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  async function act(call: () => Promise<string | null>) {
    setBusy(true);
    try {
      const text = await withFreshAccess(call, router);
      setMessage(text ? { text, failed: false } : null);
      router.refresh();
    } catch (error) {
      setMessage({ text: error instanceof Error ? error.message : String(error), failed: true });
    } finally {
      setBusy(false);
    }
  }
  // The e-mail form's answer is the card's status; the others are announced as polite live regions.
  const status = (
    <p
      role={announce === "status" ? "status" : undefined}
      aria-live={announce === "live" ? "polite" : undefined}
      className={message?.failed ? styles.errorText : styles.muted}
    >
      {message?.text ?? ""}
    </p>
  );
  return { act, busy, status };
}

/** Option 1's button: the TXT record looked up at once. */
export function CheckDnsButton({ domain, labels }: { domain: string; labels: { check: string; notYet: string } }) {
  const { act, busy, status } = useDomainAction("live");
  const check = () =>
    act(async () => {
      const result = await uiClient.portal.checkDomainDns.mutate({ domain });
      return result.status === "verified" ? null : labels.notYet.replace("{reason}", result.reason);
    });
  return (
    <div className={domainStyles.action}>
      <button type="button" className={styles.primaryButton} onClick={check} disabled={busy}>
        {labels.check}
      </button>
      {status}
    </div>
  );
}

/** Option 2's form: the mailbox at the domain, and the button that e-mails the link. */
export function SendLinkForm({ domain, labels }: { domain: string; labels: { mailbox: string; send: string; sent: string } }) {
  const { act, busy, status } = useDomainAction("status");
  const id = `mailbox-${domain}`;
  const send = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const mailbox = String(new FormData(event.currentTarget).get("mailbox")) as (typeof MAILBOXES)[number];
    void act(async () => {
      const result = await uiClient.portal.sendDomainLink.mutate({ domain, mailbox });
      return result.emailSentTo ? labels.sent.replace("{email}", result.emailSentTo) : null;
    });
  };
  return (
    <form onSubmit={send} aria-label={labels.send} className={domainStyles.action}>
      <div className={domainStyles.field}>
        <label htmlFor={id}>{labels.mailbox}</label>
        <select id={id} name="mailbox" defaultValue="security" className={domainStyles.select}>
          {MAILBOXES.map((mailbox) => (
            <option key={mailbox} value={mailbox}>
              {mailbox}@{domain}
            </option>
          ))}
        </select>
      </div>
      <div>
        <button type="submit" className={styles.primaryButton} disabled={busy}>
          {labels.send}
        </button>
      </div>
      {status}
    </form>
  );
}

/** A value to paste elsewhere (the TXT record's): wraps on a narrow screen, with a copy button. */
export function CopyValue({ value, labels }: { value: string; labels: { copy: string; copied: string } }) {
  const [copied, setCopied] = useState(false);
  const code = useRef<HTMLElement>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a refused permission): select it for a manual copy.
      const selection = window.getSelection();
      if (code.current && selection) selection.selectAllChildren(code.current);
    }
  }
  return (
    <span className={domainStyles.copyValue}>
      <code ref={code} className={domainStyles.value}>
        {value}
      </code>
      <button type="button" className={styles.secondaryButton} onClick={copy}>
        {labels.copy}
      </button>
      <span aria-live="polite" className={styles.muted}>
        {copied ? labels.copied : ""}
      </span>
    </span>
  );
}
