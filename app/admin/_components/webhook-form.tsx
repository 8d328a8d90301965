"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { EventType } from "@/server/events/outbox";
import type { SignatureScheme } from "@/server/webhooks/endpoints";
import { trpc, useAction } from "../_lib/client";
import { OneTimeSecret } from "./copy-button";
import { CheckboxField, FormError, TextField } from "./fields";

interface Endpoint {
  id: string;
  url: string;
  eventTypes: string[];
  enabled: boolean;
  maxAttempts: number;
  signatureScheme: SignatureScheme;
}

/** The signature schemes (server/webhooks/endpoints.ts), named here: that module is server code. */
const SCHEME_LABELS: Record<SignatureScheme, string> = {
  "x-signature": "X-Signature (the receiver signs its answer)",
  "standard-webhooks": "Standard Webhooks (any 2xx answer is success)",
};
const SIGNATURE_SCHEMES = Object.keys(SCHEME_LABELS) as SignatureScheme[];

/**
 * Registers a distributor webhook endpoint or edits one, with the distributor API's fields and
 * checks (https and a public address unless the service allows private URLs). A new endpoint's
 * answer carries the distributor's active signing secret, shown here once.
 */
export function WebhookForm({ endpoint, eventTypes }: { endpoint?: Endpoint; eventTypes: readonly EventType[] }) {
  const router = useRouter();
  const { run, pending, error } = useAction();
  const [created, setCreated] = useState<{ id: string; secret: string }>();
  const [saved, setSaved] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const fields = {
      url: String(form.get("url") ?? "").trim(),
      eventTypes: form.getAll("eventTypes").map(String) as EventType[],
      enabled: form.get("enabled") === "on",
      maxAttempts: Number(form.get("maxAttempts")),
      signatureScheme: String(form.get("signatureScheme")) as SignatureScheme,
    };
    if (endpoint) {
      setSaved(Boolean(await run(() => trpc.admin.webhooks.update.mutate({ id: endpoint.id, ...fields }))));
      return;
    }
    const result = await run(() => trpc.admin.webhooks.create.mutate(fields));
    if (result) {
      setCreated({ id: result.webhook.id, secret: result.secret });
      formElement.reset();
    }
  }

  async function remove() {
    if (!endpoint || !window.confirm(`Delete the endpoint ${endpoint.url} and its delivery log?`)) return;
    const deleted = await run(() => trpc.admin.webhooks.delete.mutate({ id: endpoint.id }), { refresh: false });
    if (deleted) router.push("/admin/webhooks");
  }

  const eventTypesError =
    error?.fieldErrors.eventTypes ?? Object.entries(error?.fieldErrors ?? {}).find(([key]) => key.startsWith("eventTypes."))?.[1];
  return (
    <form className="card form" onSubmit={submit} noValidate aria-label={endpoint ? "Endpoint settings" : "New endpoint"}>
      <FormError error={error} />
      {created ? (
        <OneTimeSecret
          title="Signing secret"
          value={created.secret}
          note="your distributor's active signing secret, shown when an endpoint is added. Copy it into your receiver and keep it safe."
        >
          <p className="field-hint">
            Deliveries are signed with it (<code>X-Signature</code>); your receiver answers with its own signature over the{" "}
            <code>X-Token</code> and the body. <Link href={`/admin/webhooks/${created.id}`}>Open the endpoint and its delivery log</Link>
          </p>
        </OneTimeSecret>
      ) : null}
      <TextField
        name="url"
        label="URL"
        type="url"
        required
        placeholder="https://hooks.example.com/exposure"
        defaultValue={endpoint?.url}
        hint="https, reachable from the internet."
        error={error?.fieldErrors.url}
      />
      <fieldset aria-describedby={eventTypesError ? "event-types-error" : undefined}>
        <legend>Events</legend>
        <div className="checkbox-grid">
          {eventTypes.map((type) => (
            <CheckboxField
              key={type}
              name="eventTypes"
              value={type}
              label={type}
              defaultChecked={endpoint ? endpoint.eventTypes.includes(type) : true}
            />
          ))}
        </div>
        {eventTypesError ? (
          <p className="field-error" id="event-types-error">
            {eventTypesError}
          </p>
        ) : null}
      </fieldset>
      <div className="form-grid">
        <div className="field">
          <label htmlFor="field-maxAttempts">Attempts per event</label>
          <select id="field-maxAttempts" name="maxAttempts" defaultValue={String(endpoint?.maxAttempts ?? 3)}>
            <option value="1">1</option>
            <option value="2">2</option>
            <option value="3">3</option>
          </select>
          {error?.fieldErrors.maxAttempts ? <p className="field-error">{error.fieldErrors.maxAttempts}</p> : null}
        </div>
        <div className="field">
          <label htmlFor="field-signatureScheme">Signature scheme</label>
          <select
            id="field-signatureScheme"
            name="signatureScheme"
            defaultValue={endpoint?.signatureScheme ?? "x-signature"}
            aria-describedby="field-signatureScheme-hint"
          >
            {SIGNATURE_SCHEMES.map((scheme) => (
              <option key={scheme} value={scheme}>
                {SCHEME_LABELS[scheme]}
              </option>
            ))}
          </select>
          <p className="field-hint" id="field-signatureScheme-hint">
            How deliveries are signed: <Link href="/docs/webhooks#receive-webhooks">Receive webhooks</Link>.
          </p>
          {error?.fieldErrors.signatureScheme ? <p className="field-error">{error.fieldErrors.signatureScheme}</p> : null}
        </div>
        <CheckboxField name="enabled" label="Enabled" defaultChecked={endpoint?.enabled ?? true} />
      </div>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          {endpoint ? "Save changes" : "Add endpoint"}
        </button>
        {endpoint ? (
          <button type="button" className="button button-danger" onClick={remove} disabled={pending}>
            Delete endpoint
          </button>
        ) : null}
        <span role="status">{saved && !pending ? "Saved." : ""}</span>
      </div>
    </form>
  );
}
