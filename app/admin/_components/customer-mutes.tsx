"use client";

import { useState, type FormEvent } from "react";
import { trpc, useAction } from "../_lib/client";
import { DateTime } from "./date-time";
import { FormError, TextField } from "./fields";

interface MuteView {
  id: string;
  email: string | null;
  breachName: string | null;
  until: string | null;
  mutedBy: string;
}

/**
 * The customer's mutes in force (docs/notifications.md, "Quiet by design"): listed for everyone;
 * agents and above add one (a mailbox, a breach, or one mailbox in one breach; until a time or
 * for good) and end one, with the partner API's rules and messages.
 */
export function CustomerMutes({
  customerId,
  mutes,
  breaches,
  mailboxes,
  canEdit,
}: {
  customerId: string;
  mutes: MuteView[];
  breaches: Array<{ id: string; title: string }>;
  mailboxes: string[];
  canEdit: boolean;
}) {
  const { run, pending, error } = useAction();
  const [notice, setNotice] = useState<string>();

  async function mute(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNotice(undefined);
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const email = String(form.get("email") ?? "").trim();
    const breachId = String(form.get("breachId") ?? "");
    const untilLocal = String(form.get("until") ?? "");
    // datetime-local is the browser's local time; the server takes an instant.
    const untilDate = untilLocal ? new Date(untilLocal) : undefined;
    const until = untilDate && !Number.isNaN(untilDate.getTime()) ? untilDate.toISOString() : untilLocal || undefined;
    const created = await run(() =>
      trpc.admin.customers.mute.mutate({ customerId, email: email || undefined, breachId: breachId || undefined, until }),
    );
    if (created) {
      formElement.reset();
      setNotice(`Muted ${created.email ?? "every mailbox"} in ${created.breachName ?? "every breach"}.`);
    }
  }

  async function end(muteRow: MuteView) {
    setNotice(undefined);
    if (await run(() => trpc.admin.customers.unmute.mutate({ customerId, muteId: muteRow.id })))
      setNotice(`Mute of ${muteRow.email ?? "every mailbox"} in ${muteRow.breachName ?? "every breach"} ended.`);
  }

  const untilError = error?.fieldErrors.until ?? (error?.message.startsWith("until ") ? error.message : undefined);
  return (
    <div>
      {notice ? <p role="status">{notice}</p> : null}
      {mutes.length > 0 ? (
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">Mutes in force</caption>
            <thead>
              <tr>
                <th scope="col">Mailbox</th>
                <th scope="col">Breach</th>
                <th scope="col">Until</th>
                <th scope="col">By</th>
                {canEdit ? (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {mutes.map((muteRow) => (
                <tr key={muteRow.id}>
                  <th scope="row" className="wrap">
                    {muteRow.email ?? "every mailbox"}
                  </th>
                  <td>{muteRow.breachName ?? "every breach"}</td>
                  <td className="nowrap">{muteRow.until ? <DateTime iso={muteRow.until} /> : "for good"}</td>
                  <td>{muteRow.mutedBy}</td>
                  {canEdit ? (
                    <td>
                      <button type="button" className="button" onClick={() => end(muteRow)} disabled={pending}>
                        End mute
                        <span className="visually-hidden">
                          {" "}
                          of {muteRow.email ?? "every mailbox"} in {muteRow.breachName ?? "every breach"}
                        </span>
                      </button>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">Nothing is muted.</p>
      )}
      {canEdit ? (
        <form className="card form" onSubmit={mute} noValidate aria-label="Mute notices">
          <h3>Mute</h3>
          <FormError error={error && !error.fieldErrors.email && !untilError ? error : undefined} />
          <div className="form-grid">
            <TextField
              name="email"
              label="Mailbox"
              type="email"
              list="mute-mailboxes"
              autoComplete="off"
              hint="Empty: every mailbox (then choose a breach)."
              error={error?.fieldErrors.email}
            />
            <datalist id="mute-mailboxes">
              {mailboxes.map((mailbox) => (
                <option key={mailbox} value={mailbox} />
              ))}
            </datalist>
            <div className="field">
              <label htmlFor="field-breachId">Breach</label>
              <select id="field-breachId" name="breachId" defaultValue="">
                <option value="">every breach</option>
                {breaches.map((breach) => (
                  <option key={breach.id} value={breach.id}>
                    {breach.title}
                  </option>
                ))}
              </select>
            </div>
            <TextField name="until" label="Until" type="datetime-local" hint="Your local time; empty: for good." error={untilError} />
          </div>
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={pending}>
              Mute
            </button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
