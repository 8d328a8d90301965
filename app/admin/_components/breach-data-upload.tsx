"use client";

import { useState, type FormEvent } from "react";

type Rejected = { line?: number; record?: number; name?: string; reason: string };
type Report =
  | { kind: "catalogue"; breaches: number; rejectedCount: number; rejected: Rejected[] }
  | { kind: "accounts"; rows: number; added: number; rejectedCount: number; rejected: Rejected[] }
  | {
      kind: "stealer-logs";
      breach: string;
      rows: number;
      added: number;
      addresses: number;
      rejectedCount: number;
      rejected: Rejected[];
      resumedAtByte: number;
    };
type Limits = { catalogue: number; accounts: number; "stealer-logs": number };

const count = (value: number) => value.toLocaleString("en-GB");
const size = (bytes: number) => (bytes >= 1024 ** 3 ? `${bytes / 1024 ** 3} GiB` : `${bytes / 1024 ** 2} MiB`);

/** Sends one file as the request body (the browser streams it) and returns the import's report. */
async function upload(kind: keyof Limits, file: File, limits: Limits, query = ""): Promise<Report> {
  if (file.size > limits[kind]) throw new Error(`${file.name} is larger than the upload limit of ${size(limits[kind])}`);
  const response = await fetch(`/api/breach-data/${kind}${query}`, {
    method: "POST",
    body: file,
    headers: { "content-type": kind === "catalogue" ? "application/json" : "text/csv" },
  });
  const body = (await response.json().catch(() => undefined)) as { success?: boolean; error?: string; report?: Report } | undefined;
  if (!response.ok || !body?.success || !body.report) {
    throw new Error(`${file.name}: ${body?.error ?? `the upload failed (${response.status})`}`);
  }
  return body.report;
}

function fileOf(form: HTMLFormElement, name: string): File | undefined {
  const value = new FormData(form).get(name);
  return value instanceof File && value.name !== "" ? value : undefined;
}

/** The two upload forms and the reports of what they imported. */
export function BreachDataUploads({ limits, stealerLogBreaches }: { limits: Limits; stealerLogBreaches: string[] }) {
  const [reports, setReports] = useState<Report[]>([]);
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState<string>();

  async function run(what: string, work: () => Promise<Report[]>) {
    setError(undefined);
    setReports([]);
    setPending(what);
    try {
      setReports(await work());
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setPending(undefined);
    }
  }

  function submitBreaches(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const catalogue = fileOf(event.currentTarget, "catalogue");
    const accounts = fileOf(event.currentTarget, "accounts");
    if (!catalogue && !accounts) return setError("Choose a catalogue file, an accounts file or both");
    void run("Importing breaches", async () => {
      const done: Report[] = [];
      if (catalogue) done.push(await upload("catalogue", catalogue, limits));
      if (accounts) done.push(await upload("accounts", accounts, limits));
      return done;
    });
  }

  function submitStealerLogs(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const file = fileOf(event.currentTarget, "stealer-logs");
    const breach = String(new FormData(event.currentTarget).get("breach") ?? "");
    if (!file || !breach) return setError("Choose the stealer-log breach and a file");
    void run("Importing stealer logs", async () => [await upload("stealer-logs", file, limits, `?breach=${encodeURIComponent(breach)}`)]);
  }

  return (
    <>
      <section className="card" aria-label="Breaches and exposed accounts">
        <h2>Breaches and exposed accounts</h2>
        <form className="form" onSubmit={submitBreaches} aria-label="Import breaches" noValidate>
          <div className="field">
            <label htmlFor="field-catalogue">Catalogue (JSON)</label>
            <input
              id="field-catalogue"
              name="catalogue"
              type="file"
              accept=".json,application/json"
              aria-describedby="field-catalogue-hint"
            />
            <p className="field-hint" id="field-catalogue-hint">
              An array of breaches in Have I Been Pwned&apos;s v3 format; known names are updated. At most {size(limits.catalogue)}.
            </p>
          </div>
          <div className="field">
            <label htmlFor="field-accounts">Accounts (CSV)</label>
            <input id="field-accounts" name="accounts" type="file" accept=".csv,text/csv" aria-describedby="field-accounts-hint" />
            <p className="field-hint" id="field-accounts-hint">
              Header <code>email,breach_name</code>, one exposed address per line, breach names from the catalogue. At most{" "}
              {size(limits.accounts)}.
            </p>
          </div>
          <div className="form-actions">
            <button type="submit" className="button button-primary" disabled={pending !== undefined}>
              Import
            </button>
          </div>
        </form>
      </section>
      <section className="card" aria-label="Stealer logs">
        <h2>Stealer logs</h2>
        {stealerLogBreaches.length === 0 ? (
          <p>The catalogue has no stealer-log breach yet: import one (IsStealerLog true) with the catalogue first.</p>
        ) : (
          <form className="form" onSubmit={submitStealerLogs} aria-label="Import stealer logs" noValidate>
            <div className="field">
              <label htmlFor="field-breach">Stealer-log breach</label>
              <select id="field-breach" name="breach" defaultValue={stealerLogBreaches[0]}>
                {stealerLogBreaches.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="field-stealer-logs">Captures (CSV)</label>
              <input
                id="field-stealer-logs"
                name="stealer-logs"
                type="file"
                accept=".csv,text/csv"
                aria-describedby="field-stealer-logs-hint"
              />
              <p className="field-hint" id="field-stealer-logs-hint">
                Header <code>email,website_domain[,captured_at]</code>. Sending the same file again after an interruption resumes it. At
                most {size(limits["stealer-logs"])}.
              </p>
            </div>
            <div className="form-actions">
              <button type="submit" className="button button-primary" disabled={pending !== undefined}>
                Import
              </button>
            </div>
          </form>
        )}
      </section>
      <p role="status">{pending ? `${pending} ...` : ""}</p>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {reports.map((report) => (
        <ImportReport key={report.kind} report={report} />
      ))}
    </>
  );
}

function ImportReport({ report }: { report: Report }) {
  const title = report.kind === "catalogue" ? "Catalogue" : report.kind === "accounts" ? "Accounts" : `Stealer logs of ${report.breach}`;
  return (
    <section className="card" aria-label={`${title} imported`}>
      <h2>{title} imported</h2>
      <dl className="facts">
        {report.kind === "catalogue" ? (
          <>
            <dt>Breaches created or updated</dt>
            <dd>{count(report.breaches)}</dd>
          </>
        ) : (
          <>
            <dt>Rows read</dt>
            <dd>{count(report.rows)}</dd>
            <dt>Added to the index</dt>
            <dd>{count(report.added)}</dd>
          </>
        )}
        {report.kind === "stealer-logs" ? (
          <>
            <dt>Addresses new to the breach</dt>
            <dd>{count(report.addresses)}</dd>
          </>
        ) : null}
        <dt>Rejected</dt>
        <dd>{count(report.rejectedCount)}</dd>
      </dl>
      {report.rejected.length > 0 ? (
        <>
          <h3>Rejected {report.kind === "catalogue" ? "records" : "lines"}</h3>
          <ul>
            {report.rejected.map((entry) => (
              <li key={entry.line ?? entry.record}>
                {entry.line !== undefined ? `Line ${entry.line}` : `Record ${entry.record}${entry.name ? ` (${entry.name})` : ""}`}:{" "}
                {entry.reason}
              </li>
            ))}
          </ul>
          {report.rejectedCount > report.rejected.length ? (
            <p className="muted">… and {count(report.rejectedCount - report.rejected.length)} more.</p>
          ) : null}
        </>
      ) : null}
      {report.kind !== "catalogue" && report.added > 0 ? (
        <p className="hint">Matching against monitored customers is queued: new findings appear within a minute.</p>
      ) : null}
    </section>
  );
}
