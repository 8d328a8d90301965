"use client";

import { useState, type ChangeEvent, type FormEvent } from "react";
import type { BrandSettings } from "@/server/brand/settings";
import { trpc, useAction } from "../_lib/client";
import { CheckboxField, FormError, TextField } from "./fields";

const TEXT_FIELDS = [
  { name: "name", label: "Display name", type: "text", hint: "The name customers read instead of the service's." },
  { name: "supportEmail", label: "Support e-mail", type: "email" },
  { name: "supportPhone", label: "Support phone", type: "tel" },
  { name: "supportUrl", label: "Support address", type: "url", hint: "https://..." },
  { name: "senderName", label: "Sender name", type: "text", hint: "The name shown with the From address of customers' e-mails." },
  { name: "replyTo", label: "Reply-to e-mail", type: "email" },
] as const;

type TextName = (typeof TEXT_FIELDS)[number]["name"] | "primaryColor" | "portalHost";

/**
 * A brand (docs/brand.md): the distributor's default (no partnerId) or a partner's own, with the
 * REST API's checks (contrast, logo size and type, portal host). Saving replaces the whole brand;
 * emptied fields fall back to the default. The logo is read in the browser as a data: URL.
 */
export function BrandForm({ brand, partnerId }: { brand: BrandSettings; partnerId?: string }) {
  const { run, pending, error, setError } = useAction();
  const [logo, setLogo] = useState<string | null>(brand.logo);
  const [saved, setSaved] = useState(false);

  function pickLogo(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => setLogo(typeof reader.result === "string" ? reader.result : null);
    reader.onerror = () => setError({ message: "The file could not be read", fieldErrors: {} });
    reader.readAsDataURL(file);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const form = new FormData(event.currentTarget);
    const text = (name: TextName) => String(form.get(name) ?? "").trim() || null;
    const fields = {
      name: text("name"),
      supportEmail: text("supportEmail"),
      supportPhone: text("supportPhone"),
      supportUrl: text("supportUrl"),
      senderName: text("senderName"),
      replyTo: text("replyTo"),
      primaryColor: form.get("useColor") === "on" ? text("primaryColor") : null,
      logo,
    };
    const result = partnerId
      ? await run(() => trpc.admin.brand.putPartner.mutate({ partnerId, ...fields, portalHost: text("portalHost") }))
      : await run(() => trpc.admin.brand.putDistributor.mutate(fields));
    if (result) {
      setLogo(result.logo);
      setSaved(true);
    }
  }

  return (
    <form className="card form" onSubmit={submit} noValidate aria-label={partnerId ? "Partner brand" : "Default brand"}>
      <FormError error={error} />
      <div className="form-grid">
        {TEXT_FIELDS.map((field) => (
          <TextField
            key={field.name}
            name={field.name}
            label={field.label}
            type={field.type}
            hint={"hint" in field ? field.hint : undefined}
            defaultValue={brand[field.name] ?? ""}
            error={error?.fieldErrors[field.name]}
          />
        ))}
        {partnerId ? (
          <TextField
            name="portalHost"
            label="Portal host"
            hint="E.g. portal.example.com: DNS pointing at this service, TLS at your proxy."
            defaultValue={brand.portalHost ?? ""}
            error={error?.fieldErrors.portalHost}
          />
        ) : null}
      </div>
      <CheckboxField name="useColor" label="Use a brand colour" defaultChecked={brand.primaryColor !== null} />
      <TextField
        name="primaryColor"
        label="Brand colour"
        type="color"
        hint="At least 3:1 against white; the text on it is chosen black or white."
        defaultValue={brand.primaryColor ?? "#1d4ed8"}
        error={error?.fieldErrors.primaryColor}
      />
      <div className="field">
        <label htmlFor="field-logo">Logo (PNG or SVG, at most 256 KB)</label>
        <input id="field-logo" type="file" accept="image/png,image/svg+xml" onChange={pickLogo} />
        {logo ? (
          <p>
            {/* The stored logo is a PNG the service encoded (an SVG is rasterised on upload). */}
            {/* eslint-disable-next-line @next/next/no-img-element */}
            <img src={logo} alt="Current logo" style={{ maxHeight: "48px", maxWidth: "240px" }} />{" "}
            <button type="button" className="button button-small" onClick={() => setLogo(null)}>
              Remove logo
            </button>
          </p>
        ) : null}
      </div>
      <p>
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? "Saving…" : "Save brand"}
        </button>
      </p>
      {saved ? <p role="status">Brand saved.</p> : null}
    </form>
  );
}
