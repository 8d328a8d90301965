import type { InputHTMLAttributes, ReactNode } from "react";
import type { ActionError } from "../_lib/client";

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "id"> & { name: string };

/** A labelled input with its hint and its error (from the server's field errors) tied to it for screen readers. */
export function TextField({ label, hint, error, ...input }: InputProps & { label: string; hint?: ReactNode; error?: string }) {
  const id = `field-${input.name}`;
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className={error ? "field field-invalid" : "field"}>
      <label htmlFor={id}>
        {label}
        {input.required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function CheckboxField({ label, hint, error, ...input }: InputProps & { label: string; hint?: ReactNode; error?: string }) {
  const id = `field-${input.name}${input.value !== undefined ? `-${String(input.value)}` : ""}`;
  return (
    <div className="field field-checkbox">
      <input id={id} type="checkbox" aria-invalid={error ? true : undefined} {...input} />
      <label htmlFor={id}>{label}</label>
      {hint ? <p className="field-hint">{hint}</p> : null}
      {error ? <p className="field-error">{error}</p> : null}
    </div>
  );
}

/** The message of a failed action, announced to screen readers; field errors are shown at their fields. */
export function FormError({ error }: { error?: ActionError }) {
  if (!error) return null;
  return (
    <p className="form-error" role="alert">
      {error.message}
    </p>
  );
}
