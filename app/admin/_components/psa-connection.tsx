"use client";

import { useState, type FormEvent } from "react";
import { trpc, useAction, type ActionError } from "../_lib/client";
import { Badge } from "./badge";
import { DateTime } from "./date-time";
import { CheckboxField, FormError, TextField } from "./fields";

type Provider = "connectwise" | "autotask" | "halopsa";
type Digest = "off" | "daily" | "weekly";
const DIGESTS: Record<Digest, string> = {
  off: "Each finding as it is found",
  daily: "Daily: new tickets and notes wait for 07:00 UTC",
  weekly: "Weekly: new tickets and notes wait for Monday 07:00 UTC",
};
const PROVIDERS: Record<Provider, string> = { connectwise: "ConnectWise PSA", autotask: "Autotask", halopsa: "HaloPSA" };

/** The connection's fields but its secrets, as stored (server/psa/connections.ts, editablePsaFields). */
interface PsaFields {
  provider: Provider;
  ticketPerMailbox: boolean;
  digest?: Digest;
  closedStatusId?: number;
  priorityIds?: { high?: number; normal?: number };
  site?: string;
  companyId?: string;
  clientId?: string;
  boardId?: number;
  url?: string;
  ticketTypeId?: number;
  tenant?: string;
  zoneUrl?: string;
  username?: string;
  integrationCode?: string;
  queueId?: number;
}

interface PsaConnectionView {
  provider: Provider;
  baseUrl: string;
  ticketPerMailbox: boolean;
  state: "ok" | "failing";
  failingSince: string | null;
  lastError: string | null;
  lastPolledAt: string | null;
  mappedCustomers: number;
  openTickets: number;
  fields: PsaFields;
}

interface FieldSpec {
  name: keyof PsaFields | "publicKey" | "privateKey" | "secret" | "clientSecret";
  label: string;
  kind: "text" | "url" | "id" | "secret";
  required?: boolean;
  hint?: string;
}

/** Each provider's fields, with the partner API's names (docs/integrations.md, "PSA setup"). */
const PROVIDER_FIELDS: Record<Provider, FieldSpec[]> = {
  connectwise: [
    {
      name: "site",
      label: "Site URL",
      kind: "url",
      required: true,
      hint: "Your ConnectWise address, such as https://na.myconnectwise.net.",
    },
    { name: "companyId", label: "Company ID", kind: "text", required: true, hint: "The company you sign in with." },
    { name: "publicKey", label: "Public key", kind: "secret", required: true },
    { name: "privateKey", label: "Private key", kind: "secret", required: true },
    { name: "clientId", label: "Client ID", kind: "text", required: true, hint: "The integrator clientId from developer.connectwise.com." },
    { name: "boardId", label: "Board ID", kind: "id", required: true, hint: "The service board tickets are opened on." },
  ],
  autotask: [
    {
      name: "zoneUrl",
      label: "Zone URL",
      kind: "url",
      hint: "Such as https://webservices5.autotask.net/ATServicesRest; left empty, it is found from the username.",
    },
    { name: "username", label: "API username", kind: "text", required: true },
    { name: "secret", label: "API secret", kind: "secret", required: true },
    { name: "integrationCode", label: "Integration code", kind: "text", required: true, hint: "The API tracking identifier." },
    { name: "queueId", label: "Queue ID", kind: "id", required: true, hint: "The queue tickets are opened in." },
  ],
  halopsa: [
    { name: "url", label: "Instance URL", kind: "url", required: true, hint: "Such as https://yourcompany.halopsa.com." },
    { name: "clientId", label: "Client ID", kind: "text", required: true, hint: "The API application's client ID." },
    { name: "clientSecret", label: "Client secret", kind: "secret", required: true },
    { name: "ticketTypeId", label: "Ticket type ID", kind: "id", required: true, hint: "The ticket type tickets are opened as." },
    { name: "tenant", label: "Tenant", kind: "text", hint: "Only for a hosted instance whose token endpoint needs one." },
  ],
};

/** A service refusal "Validation failed: <field>: <message>" belongs at its field; zod's failures are there already. */
function fieldErrorsOf(error: ActionError | undefined): { fields: Record<string, string>; form?: ActionError } {
  if (!error) return { fields: {} };
  const match = /^Validation failed: ([A-Za-z.]+): (.+)$/.exec(error.message);
  if (match) return { fields: { ...error.fieldErrors, [match[1]!]: match[2]! } };
  return { fields: error.fieldErrors, form: error };
}

/** "" → left out; anything else a number (the server refuses what is not a positive whole number, with its message). */
function idValue(raw: FormDataEntryValue | null): number | undefined {
  const text = String(raw ?? "").trim();
  return text === "" ? undefined : Number(text);
}

function textValue(raw: FormDataEntryValue | null): string | undefined {
  const text = String(raw ?? "").trim();
  return text === "" ? undefined : text;
}

/** The connection's state: the PSA, its address, whether it works (since when it refuses the credentials, and why), counts. */
export function PsaConnectionState({ psa }: { psa: PsaConnectionView | null }) {
  if (!psa) return <p className="muted">No PSA connected: findings are not ticketed.</p>;
  return (
    <>
      {psa.state === "failing" ? (
        <p role="alert" className="form-error">
          Failing since <DateTime iso={psa.failingSince} />: the PSA refused the credentials ({psa.lastError}). Nothing is sent until the
          credentials are replaced or a connection test succeeds; the partner&apos;s contact was e-mailed.
        </p>
      ) : null}
      <dl className="facts">
        <dt>PSA</dt>
        <dd>{PROVIDERS[psa.provider] ?? psa.provider}</dd>
        <dt>Address</dt>
        <dd className="wrap">
          <code>{psa.baseUrl}</code>
        </dd>
        <dt>State</dt>
        <dd>{psa.state === "ok" ? <Badge status="active">working</Badge> : <Badge status="failing">failing</Badge>}</dd>
        <dt>Tickets</dt>
        <dd>
          {psa.ticketPerMailbox ? "one per mailbox and breach" : "one per customer and breach"}; {psa.openTickets} open
        </dd>
        <dt>Mapped customers</dt>
        <dd>{psa.mappedCustomers} (map a customer on its page)</dd>
        <dt>Last poll</dt>
        <dd>{psa.lastPolledAt ? <DateTime iso={psa.lastPolledAt} /> : "not yet"}</dd>
      </dl>
    </>
  );
}

/**
 * The partner's PSA connection: its state for everyone; for staff with the admin role the test
 * call, removal, and the form that connects or edits it. Secrets are never shown: on an edit of
 * the same provider a blank secret keeps the stored one (the server refuses that for a new address).
 */
export function PsaConnection({ partnerId, psa, canEdit }: { partnerId: string; psa: PsaConnectionView | null; canEdit: boolean }) {
  const { run, pending, error } = useAction();
  const [provider, setProvider] = useState<Provider>(psa?.provider ?? "connectwise");
  const [notice, setNotice] = useState<{ ok: boolean; text: string }>();
  // A saved form is drawn afresh, and again when the stored values arrive: uncontrolled fields
  // take their defaults only when drawn, and the secret fields are emptied.
  const [saves, setSaves] = useState(0);
  const editing = psa !== null && psa.provider === provider;
  const current: Partial<PsaFields> = editing ? psa.fields : {};
  const { fields: fieldErrors, form: formError } = fieldErrorsOf(error);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setNotice(undefined);
    const form = new FormData(event.currentTarget);
    const values: Record<string, unknown> = {};
    for (const field of PROVIDER_FIELDS[provider]) {
      values[field.name] = field.kind === "id" ? idValue(form.get(field.name)) : textValue(form.get(field.name));
    }
    const high = idValue(form.get("priorityHigh"));
    const normal = idValue(form.get("priorityNormal"));
    const saved = await run(() =>
      trpc.admin.psa.save.mutate({
        partnerId,
        provider,
        ...values,
        ticketPerMailbox: form.get("ticketPerMailbox") === "on",
        digest: String(form.get("digest") ?? "off") as Digest,
        closedStatusId: idValue(form.get("closedStatusId")),
        priorityIds: high === undefined && normal === undefined ? undefined : { high, normal },
      }),
    );
    if (saved) {
      setSaves((count) => count + 1);
      setNotice({ ok: true, text: `${PROVIDERS[provider]} connection saved. Test it to check the credentials.` });
    }
  }

  async function test() {
    setNotice(undefined);
    const result = await run(() => trpc.admin.psa.test.mutate({ partnerId }));
    if (result)
      setNotice(
        result.ok
          ? { ok: true, text: "Test passed: the PSA accepted the credentials." }
          : { ok: false, text: `Test failed: ${result.error}` },
      );
  }

  async function remove() {
    if (
      !psa ||
      !window.confirm(`Disconnect ${PROVIDERS[psa.provider]}? Its stored credentials and the record of tickets opened are deleted.`)
    )
      return;
    setNotice(undefined);
    if (await run(() => trpc.admin.psa.remove.mutate({ partnerId }))) setNotice({ ok: true, text: "PSA disconnected." });
  }

  return (
    <div>
      <PsaConnectionState psa={psa} />
      {!canEdit ? (
        <p className="muted">Staff with the admin role connect, test and remove the PSA.</p>
      ) : (
        <>
          <FormError error={formError} />
          {notice ? (
            <p role={notice.ok ? "status" : "alert"} className={notice.ok ? undefined : "form-error"}>
              {notice.text}
            </p>
          ) : null}
          {psa ? (
            <p>
              <button type="button" className="button" onClick={test} disabled={pending}>
                Test the connection
              </button>{" "}
              <button type="button" className="button button-danger" onClick={remove} disabled={pending}>
                Disconnect
              </button>
            </p>
          ) : null}
          <form
            className="card form"
            onSubmit={save}
            noValidate
            aria-label={psa ? "PSA connection settings" : "Connect a PSA"}
            key={`${provider}-${saves}-${JSON.stringify(psa?.fields ?? null)}`}
          >
            <h3>{psa ? "Change the connection" : "Connect a PSA"}</h3>
            <div className="field">
              <label htmlFor="field-provider">PSA</label>
              <select
                id="field-provider"
                name="provider"
                value={provider}
                onChange={(event) => setProvider(event.target.value as Provider)}
                aria-describedby={psa ? "field-provider-hint" : undefined}
              >
                {Object.entries(PROVIDERS).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
              {psa ? (
                <p className="field-hint" id="field-provider-hint">
                  Another PSA replaces this connection and drops its record of tickets opened.
                </p>
              ) : null}
            </div>
            <div className="form-grid">
              {PROVIDER_FIELDS[provider].map((field) => (
                <TextField
                  key={field.name}
                  name={field.name}
                  label={field.label}
                  type={field.kind === "secret" ? "password" : field.kind === "url" ? "url" : "text"}
                  inputMode={field.kind === "id" ? "numeric" : undefined}
                  autoComplete={field.kind === "secret" ? "new-password" : "off"}
                  required={field.required && !(field.kind === "secret" && editing)}
                  defaultValue={field.kind === "secret" ? undefined : String(current[field.name as keyof PsaFields] ?? "")}
                  hint={
                    field.kind === "secret"
                      ? editing
                        ? "Stored and never shown. Leave empty to keep it (unless the address changes)."
                        : "Stored encrypted and never shown again."
                      : field.hint
                  }
                  error={fieldErrors[field.name]}
                />
              ))}
            </div>
            <CheckboxField
              name="ticketPerMailbox"
              label="One ticket per mailbox and breach (instead of one per customer and breach)"
              defaultChecked={current.ticketPerMailbox ?? false}
              error={fieldErrors.ticketPerMailbox}
            />
            <div className={fieldErrors.digest ? "field field-invalid" : "field"}>
              <label htmlFor="field-digest">When tickets are opened</label>
              <select id="field-digest" name="digest" defaultValue={current.digest ?? "off"}>
                {Object.entries(DIGESTS).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
              {fieldErrors.digest ? <p className="field-error">{fieldErrors.digest}</p> : null}
            </div>
            <fieldset>
              <legend>Status and priority (optional)</legend>
              <div className="form-grid">
                <TextField
                  name="closedStatusId"
                  label="Closed status ID"
                  inputMode="numeric"
                  defaultValue={String(current.closedStatusId ?? "")}
                  hint={
                    {
                      connectwise: "Default: the board's first closed status.",
                      autotask: "Default: 5 (Complete).",
                      halopsa: "Default: 9 (Closed).",
                    }[provider]
                  }
                  error={fieldErrors.closedStatusId}
                />
                <TextField
                  name="priorityHigh"
                  label="Priority ID for high findings"
                  inputMode="numeric"
                  defaultValue={String(current.priorityIds?.high ?? "")}
                  hint="Sensitive breaches, exposed passwords, stealer logs."
                  error={fieldErrors["priorityIds.high"]}
                />
                <TextField
                  name="priorityNormal"
                  label="Priority ID for the others"
                  inputMode="numeric"
                  defaultValue={String(current.priorityIds?.normal ?? "")}
                  error={fieldErrors["priorityIds.normal"]}
                />
              </div>
            </fieldset>
            <div className="form-actions">
              <button type="submit" className="button button-primary" disabled={pending}>
                {psa ? "Save the connection" : "Connect"}
              </button>
            </div>
          </form>
        </>
      )}
    </div>
  );
}

/** The customer's PSA company: shown to everyone, set by staff with the admin role. */
export function CustomerPsaCompany({
  customerId,
  provider,
  companyId,
  canEdit,
}: {
  customerId: string;
  provider: Provider | null;
  companyId: string | null;
  canEdit: boolean;
}) {
  const { run, pending, error } = useAction();
  const [saved, setSaved] = useState(false);
  if (!provider) return <p className="muted">The partner has no PSA connected.</p>;
  const label = { connectwise: "ConnectWise company ID", autotask: "Autotask account ID", halopsa: "HaloPSA client ID" }[provider];

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const form = new FormData(event.currentTarget);
    setSaved(Boolean(await run(() => trpc.admin.psa.mapCustomer.mutate({ customerId, companyId: String(form.get("companyId") ?? "") }))));
  }

  return (
    <>
      <p className="muted">
        {companyId
          ? `Findings become tickets in ${PROVIDERS[provider]} for company ${companyId}.`
          : `Not mapped: this customer's findings wait for its ${PROVIDERS[provider]} company.`}
      </p>
      {canEdit ? (
        <form className="form" onSubmit={save} noValidate aria-label="PSA company">
          <FormError error={error && !error.fieldErrors.companyId ? error : undefined} />
          <TextField
            name="companyId"
            label={label}
            defaultValue={companyId ?? ""}
            required
            autoComplete="off"
            hint={companyId ? undefined : "Mapping it tickets its open findings."}
            error={error?.fieldErrors.companyId}
          />
          <div className="form-actions">
            <button type="submit" className="button" disabled={pending}>
              {companyId ? "Change the company" : "Map to this company"}
            </button>
          </div>
          {saved ? <p role="status">Mapped.</p> : null}
        </form>
      ) : null}
    </>
  );
}
