"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import styles from "../portal.module.css";
import { uiClient, withFreshAccess } from "./ui-client";

const MAILBOXES = ["security", "postmaster", "hostmaster", "webmaster", "admin"] as const;

interface Labels {
  check: string;
  notYet: string;
  mailbox: string;
  send: string;
  sent: string;
}

/** "Check now" for the TXT record, and the e-mailed link to a mailbox at the domain. */
export function DomainActions({ domain, labels }: { domain: string; labels: Labels }) {
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

  const check = () =>
    act(async () => {
      const result = await uiClient.portal.checkDomainDns.mutate({ domain });
      return result.status === "verified" ? null : labels.notYet.replace("{reason}", result.reason);
    });

  const send = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const mailbox = String(new FormData(event.currentTarget).get("mailbox")) as (typeof MAILBOXES)[number];
    void act(async () => {
      const result = await uiClient.portal.sendDomainLink.mutate({ domain, mailbox });
      return result.emailSentTo ? labels.sent.replace("{email}", result.emailSentTo) : null;
    });
  };

  return (
    <div>
      <button type="button" className={styles.primaryButton} onClick={check} disabled={busy}>
        {labels.check}
      </button>
      <form onSubmit={send} aria-label={labels.send}>
        <label>
          {labels.mailbox}{" "}
          <select name="mailbox" defaultValue="security">
            {MAILBOXES.map((mailbox) => (
              <option key={mailbox} value={mailbox}>
                {mailbox}@{domain}
              </option>
            ))}
          </select>
        </label>{" "}
        <button type="submit" className={styles.secondaryButton} disabled={busy}>
          {labels.send}
        </button>
      </form>
      <p role="status" className={message?.failed ? styles.errorText : styles.muted}>
        {message?.text ?? ""}
      </p>
    </div>
  );
}
