"use client";

import { useState, type FormEvent } from "react";
import type { EventType } from "@/server/events/outbox";
import { trpc, useAction } from "../_lib/client";
import { FormError, TextField } from "./fields";

/** Queues a signed sample event of one of the endpoint's types (one attempt); it appears in the log. */
export function SendTestEvent({ endpointId, eventTypes }: { endpointId: string; eventTypes: readonly string[] }) {
  const { run, pending, error } = useAction();
  const [sent, setSent] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSent(false);
    const eventType = String(new FormData(event.currentTarget).get("eventType")) as EventType;
    setSent(Boolean(await run(() => trpc.admin.webhooks.sendTest.mutate({ id: endpointId, eventType }))));
  }

  return (
    <form className="form-inline" onSubmit={submit} aria-label="Send a test event">
      <FormError error={error} />
      <div className="field">
        <label htmlFor="test-event-type">Event type</label>
        <select id="test-event-type" name="eventType">
          {eventTypes.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="button" disabled={pending}>
        Send test event
      </button>
      <span role="status">{sent && !pending ? "Test event queued: see the log below." : ""}</span>
    </form>
  );
}

/**
 * Queues a delivered or failed delivery again with a fresh round of attempts ("Re-queue"), or has a
 * pending one that waits for its next attempt attempted now ("Retry now").
 */
export function RequeueButton({ endpointId, deliveryId, waiting = false }: { endpointId: string; deliveryId: string; waiting?: boolean }) {
  const { run, pending, error } = useAction();
  return (
    <>
      <button
        type="button"
        className="button button-small"
        disabled={pending}
        onClick={() => run(() => trpc.admin.webhooks.requeueDelivery.mutate({ id: endpointId, deliveryId }))}
      >
        {waiting ? "Retry now" : "Re-queue"}
      </button>
      {error ? (
        <span className="field-error" role="alert">
          {error.message}
        </span>
      ) : null}
    </>
  );
}

/** Re-renders the page with the latest state of the log. */
export function RefreshButton() {
  const { run, pending } = useAction();
  return (
    <button type="button" className="button button-small" disabled={pending} onClick={() => run(async () => true)}>
      Refresh
    </button>
  );
}

/**
 * Queues every failed delivery created in the window again, each with a fresh round of attempts
 * (POST .../recover on the endpoint's own API surface does the same). Times are ISO 8601, like the
 * API's and the rest of this UI's (UTC).
 */
export function RecoverForm({ endpointId, suggestedSince }: { endpointId: string; suggestedSince?: string | null }) {
  const { run, pending, error } = useAction();
  const [queued, setQueued] = useState<number>();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setQueued(undefined);
    const form = new FormData(event.currentTarget);
    const since = String(form.get("since") ?? "").trim();
    const until = String(form.get("until") ?? "").trim();
    const result = await run(() => trpc.admin.webhooks.recover.mutate({ id: endpointId, since, ...(until ? { until } : {}) }));
    if (result) setQueued(result.queued);
  }

  return (
    <form className="card form" onSubmit={submit} noValidate aria-label="Recover failed deliveries">
      <FormError error={error} />
      <TextField
        name="since"
        label="Since"
        required
        defaultValue={suggestedSince ?? ""}
        placeholder="2026-11-25T10:00:00Z"
        hint="Failed deliveries created from this time on (ISO 8601, e.g. 2026-11-25T10:00:00Z)."
        error={error?.fieldErrors.since}
      />
      <TextField
        name="until"
        label="Until"
        placeholder="2026-11-25T12:00:00Z"
        hint="Up to this time (not included); empty: now."
        error={error?.fieldErrors.until}
      />
      <div className="form-actions">
        <button type="submit" className="button" disabled={pending}>
          Recover failed deliveries
        </button>
        <span role="status">
          {queued !== undefined && !pending ? `${queued} deliver${queued === 1 ? "y" : "ies"} queued again: see the log below.` : ""}
        </span>
      </div>
    </form>
  );
}
