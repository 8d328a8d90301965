import type { Metadata } from "next";
import { DateTime } from "../../_components/date-time";
import { DataTable } from "../../_components/data-table";
import { Pager } from "../../_components/pager";
import { adminApi, pageParam, textParam, type SearchParams } from "../../_lib/server";

export const metadata: Metadata = { title: "Audit log" };

function isoOrUndefined(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const date = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

const short = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value));

/** Every change by the distributor's staff, keys and the CLI, newest first, with filters (docs/admin-ui.md, "Audit log"). */
export default async function AuditPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const filters = {
    actor: textParam(params.actor),
    action: textParam(params.action),
    target: textParam(params.target),
    since: textParam(params.since),
    until: textParam(params.until),
  };
  const { entries, pagination } = await (
    await adminApi()
  ).admin.audit.list({
    page: pageParam(params.page),
    actor: filters.actor,
    action: filters.action,
    target: filters.target,
    since: isoOrUndefined(filters.since),
    until: isoOrUndefined(filters.until),
  });
  return (
    <>
      <h1>Audit log</h1>
      <p className="muted">
        Exported over the distributor API: <code>GET /api/v1/distributors/audit?since=&amp;until=&amp;format=csv</code>.
      </p>
      <form className="filters" method="get" aria-label="Filter the audit log">
        <label>
          Actor <input name="actor" defaultValue={filters.actor} placeholder="e-mail, key prefix or cli" />
        </label>
        <label>
          Action <input name="action" defaultValue={filters.action} placeholder="partner. or partner.update" />
        </label>
        <label>
          Target <input name="target" defaultValue={filters.target} placeholder="an id, or a type" />
        </label>
        <label>
          From <input name="since" type="date" defaultValue={filters.since} />
        </label>
        <label>
          Before <input name="until" type="date" defaultValue={filters.until} />
        </label>
        <button type="submit" className="button">
          Filter
        </button>
      </form>
      {entries.length === 0 ? (
        <p className="muted">No changes recorded{Object.values(filters).some(Boolean) ? " that match" : ""}.</p>
      ) : (
        <DataTable
          caption="Audit log"
          rows={entries}
          rowKey={(entry) => entry.id}
          columns={[
            { header: "Time", cell: (entry) => <DateTime iso={entry.createdAt} /> },
            {
              header: "Actor",
              className: "wrap",
              cell: (entry) => (
                <>
                  {entry.actorLabel}
                  {entry.actorOwner ? <span className="muted"> ({entry.actorOwner})</span> : null}
                </>
              ),
            },
            { header: "Client", cell: (entry) => entry.clientAddress ?? "—" },
            { header: "Action", cell: (entry) => entry.action },
            { header: "Target", className: "wrap", cell: (entry) => [entry.targetType, entry.targetId].filter(Boolean).join(" ") },
            {
              header: "Before → after",
              className: "wrap",
              cell: (entry) => (
                <>
                  <code>{short(entry.before)}</code>
                  {entry.before !== null && entry.after !== null ? " → " : ""}
                  <code>{short(entry.after)}</code>
                </>
              ),
            },
          ]}
        />
      )}
      <Pager basePath="/admin/audit" query={filters} pagination={pagination} />
    </>
  );
}
