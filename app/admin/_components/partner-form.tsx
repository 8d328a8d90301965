"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { BillingCodeRecord } from "@/server/distributors/billing-codes";
import type { PartnerRecord } from "@/server/distributors/partners";
import { trpc, useAction } from "../_lib/client";
import { formatMoney } from "../_lib/format";
import { CheckboxField, FormError, TextField } from "./fields";

const TEXT_FIELDS = [
  { name: "contact_email", label: "Contact e-mail", type: "email", hint: "Where you reach the partner." },
  { name: "reply_to_email", label: "Reply-to e-mail", type: "email", hint: "Reply-to address of e-mails sent on the partner's behalf." },
  {
    name: "account_reference",
    label: "Account reference",
    type: "text",
    hint: "Your own reference for the partner, e.g. in your billing system.",
  },
  { name: "product_type", label: "Product type", type: "text" },
] as const;

const BILLING_CODE_FIELDS = [
  { name: "basic_billing_code", label: "Basic plan billing code" },
  { name: "plus_billing_code", label: "Plus plan billing code" },
  { name: "pro_billing_code", label: "Pro plan billing code" },
] as const;

type OptionalTextField = (typeof TEXT_FIELDS)[number]["name"] | (typeof BILLING_CODE_FIELDS)[number]["name"];

/**
 * Creates a partner or edits one, with the fields and checks of the distributor API
 * (docs/distributors.md): the server validates with the API's zod schema and its field errors
 * are shown at the fields. An emptied optional field is cleared (null).
 */
export function PartnerForm({ partner, billingCodes }: { partner?: PartnerRecord; billingCodes: BillingCodeRecord[] }) {
  const router = useRouter();
  const { run, pending, error } = useAction();
  const [churnError, setChurnError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const fieldError = (name: string) => (name === "monthly_churn_limit" ? churnError : undefined) ?? error?.fieldErrors[name];

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const churnInput = formElement.elements.namedItem("monthly_churn_limit") as HTMLInputElement;
    if (churnInput.validity.badInput) {
      setChurnError("Must be a whole number");
      return;
    }
    setChurnError(undefined);
    const text = (name: OptionalTextField) => String(form.get(name) ?? "").trim() || null;
    const churn = String(form.get("monthly_churn_limit") ?? "").trim();
    const fields = {
      name: String(form.get("name") ?? ""),
      contact_email: text("contact_email"),
      reply_to_email: text("reply_to_email"),
      account_reference: text("account_reference"),
      product_type: text("product_type"),
      monthly_churn_limit: churn === "" ? null : Number(churn),
      basic_billing_code: text("basic_billing_code"),
      plus_billing_code: text("plus_billing_code"),
      pro_billing_code: text("pro_billing_code"),
      send_customer_welcome_emails: form.get("send_customer_welcome_emails") === "on",
      send_transactional_emails: form.get("send_transactional_emails") === "on",
    };
    if (partner) {
      const updated = await run(() => trpc.admin.partners.update.mutate({ partnerId: partner.uuid, ...fields }));
      setSaved(Boolean(updated));
      return;
    }
    const created = await run(() => trpc.admin.partners.create.mutate(fields), { refresh: false });
    if (created) router.push(`/admin/partners/${created.uuid}?created=1`);
  }

  return (
    <form className="card form" onSubmit={submit} noValidate aria-label={partner ? "Partner details" : "New partner"}>
      <FormError error={error} />
      <TextField name="name" label="Name" required maxLength={200} defaultValue={partner?.name} error={fieldError("name")} />
      <div className="form-grid">
        {TEXT_FIELDS.map((field) => (
          <TextField
            key={field.name}
            name={field.name}
            label={field.label}
            type={field.type}
            hint={"hint" in field ? field.hint : undefined}
            defaultValue={partner?.[field.name] ?? ""}
            error={fieldError(field.name)}
          />
        ))}
        <TextField
          name="monthly_churn_limit"
          label="Monthly churn limit"
          type="number"
          min={0}
          step={1}
          inputMode="numeric"
          hint="A whole number, 0 or more; empty for none."
          defaultValue={partner?.monthly_churn_limit ?? ""}
          error={fieldError("monthly_churn_limit")}
        />
      </div>
      <fieldset>
        <legend>Billing codes</legend>
        <p className="field-hint">
          One of your <Link href="/admin/billing-codes">billing codes</Link> for each plan; it sets the price in the billing overview.
        </p>
        <div className="form-grid">
          {BILLING_CODE_FIELDS.map((field) => (
            <BillingCodeSelect
              key={field.name}
              name={field.name}
              label={field.label}
              current={partner?.[field.name] ?? null}
              codes={billingCodes}
              error={fieldError(field.name)}
            />
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>E-mails to the partner&apos;s customers</legend>
        <CheckboxField
          name="send_customer_welcome_emails"
          label="Send welcome e-mails"
          defaultChecked={partner?.send_customer_welcome_emails ?? true}
          error={fieldError("send_customer_welcome_emails")}
        />
        <CheckboxField
          name="send_transactional_emails"
          label="Send transactional e-mails"
          defaultChecked={partner?.send_transactional_emails ?? true}
          error={fieldError("send_transactional_emails")}
        />
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? "Saving…" : partner ? "Save changes" : "Create partner"}
        </button>
        <span role="status">{saved && !pending ? "Saved." : ""}</span>
      </div>
    </form>
  );
}

/**
 * A plan's billing code, chosen from the distributor's codes that are not retired; the partner's
 * own code stays selectable when it was retired (or is not one of the codes) meanwhile.
 */
function BillingCodeSelect(props: { name: string; label: string; current: string | null; codes: BillingCodeRecord[]; error?: string }) {
  const id = `field-${props.name}`;
  const offered = props.codes.filter((code) => !code.retired || code.code === props.current);
  const known = props.codes.some((code) => code.code === props.current);
  return (
    <div className={props.error ? "field field-invalid" : "field"}>
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        name={props.name}
        defaultValue={props.current ?? ""}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
      >
        <option value="">None</option>
        {offered.map((code) => (
          <option key={code.id} value={code.code}>
            {code.code} ({formatMoney(code.price, code.currency)}){code.retired ? ", retired" : ""}
          </option>
        ))}
        {props.current && !known ? <option value={props.current}>{props.current} (not one of your codes)</option> : null}
      </select>
      {props.error ? (
        <p className="field-error" id={`${id}-error`}>
          {props.error}
        </p>
      ) : null}
    </div>
  );
}
