"use client";

import { useState, type FormEvent } from "react";
import { trpc, useAction } from "../_lib/client";
import { Badge } from "./badge";
import { FormError } from "./fields";

interface ChannelSummary {
  id: string;
  type: "slack" | "teams" | "syslog";
  url: string | null;
  host: string | null;
  port: number | null;
  tls: boolean;
  eventTypes: string[];
  minSeverity: string;
  digest: "off" | "daily" | "weekly";
  enabled: boolean;
  disabledReason: string | null;
}

const SEVERITIES = ["info", "low", "medium", "high", "critical"];
const DIGESTS = { off: "each event", daily: "daily digest", weekly: "weekly digest" } as const;
const TYPE_LABELS = { slack: "Slack", teams: "Microsoft Teams", syslog: "Syslog (CEF)" } as const;

/** A partner's chat and SIEM channels: list them, add one, send a test message, remove one. */
export function PartnerChannels({
  partnerId,
  channels,
  eventTypes,
}: {
  partnerId: string;
  channels: ChannelSummary[];
  eventTypes: string[];
}) {
  const { run, pending, error } = useAction();
  const [type, setType] = useState<ChannelSummary["type"]>("slack");
  const [notice, setNotice] = useState<string>();

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    // the server checks each type against the event list (inputs are the page's own checkboxes)
    const chosen = form.getAll("eventTypes").map(String) as Array<"customer.created">;
    const common = {
      partnerId,
      type,
      eventTypes: chosen,
      minSeverity: String(form.get("minSeverity")) as "info",
      digest: type === "syslog" ? ("off" as const) : (String(form.get("digest") ?? "off") as ChannelSummary["digest"]),
    };
    const target =
      type === "syslog"
        ? { host: String(form.get("host")), port: Number(form.get("port")), tls: form.get("tls") === "on" }
        : { url: String(form.get("url")) };
    const created = await run(() => trpc.admin.channels.create.mutate({ ...common, ...target }));
    if (created) setNotice(`${TYPE_LABELS[created.type]} channel added.`);
  }

  async function test(channel: ChannelSummary) {
    const delivery = await run(() => trpc.admin.channels.sendTest.mutate({ partnerId, id: channel.id }), { refresh: false });
    if (delivery) setNotice(`Test message queued for the ${TYPE_LABELS[channel.type]} channel.`);
  }

  async function remove(channel: ChannelSummary) {
    if (!window.confirm(`Remove this ${TYPE_LABELS[channel.type]} channel and its delivery log?`)) return;
    await run(() => trpc.admin.channels.delete.mutate({ partnerId, id: channel.id }));
  }

  return (
    <div>
      <FormError error={error} />
      {notice ? <p role="status">{notice}</p> : null}
      {channels.length === 0 ? (
        <p className="muted">No channels: findings reach this partner by webhook and e-mail only.</p>
      ) : (
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">Chat and SIEM channels</caption>
            <thead>
              <tr>
                <th scope="col">Channel</th>
                <th scope="col">Target</th>
                <th scope="col">Events</th>
                <th scope="col">Lowest severity</th>
                <th scope="col">Findings</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {channels.map((channel) => (
                <tr key={channel.id} data-channel-id={channel.id}>
                  <th scope="row">{TYPE_LABELS[channel.type]}</th>
                  <td>
                    <code>{channel.url ?? `${channel.host}:${channel.port}${channel.tls ? " (TLS)" : ""}`}</code>
                  </td>
                  <td>{channel.eventTypes.join(", ")}</td>
                  <td>{channel.minSeverity}</td>
                  <td>{DIGESTS[channel.digest]}</td>
                  <td>
                    {channel.enabled ? <Badge status="active" /> : <Badge status="disabled">{channel.disabledReason ?? "disabled"}</Badge>}
                  </td>
                  <td>
                    <button type="button" className="button" onClick={() => test(channel)} disabled={pending}>
                      Send test
                    </button>{" "}
                    <button type="button" className="button" onClick={() => remove(channel)} disabled={pending}>
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form onSubmit={add} aria-label="Add a channel">
        <h3>Add a channel</h3>
        <label>
          Type{" "}
          <select value={type} onChange={(event) => setType(event.target.value as ChannelSummary["type"])} name="type">
            {Object.entries(TYPE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        {type === "syslog" ? (
          <>
            <label>
              Host <input name="host" required />
            </label>
            <label>
              Port <input name="port" type="number" min={1} max={65535} required />
            </label>
            <label>
              <input name="tls" type="checkbox" /> TLS
            </label>
          </>
        ) : (
          <label>
            Webhook URL <input name="url" type="url" required autoComplete="off" />
          </label>
        )}
        <fieldset>
          <legend>Events</legend>
          {eventTypes.map((eventType) => (
            <label key={eventType}>
              <input type="checkbox" name="eventTypes" value={eventType} defaultChecked={eventType === "customer.breach.found"} />{" "}
              {eventType}
            </label>
          ))}
        </fieldset>
        <label>
          Lowest severity{" "}
          <select name="minSeverity" defaultValue="info">
            {SEVERITIES.map((severity) => (
              <option key={severity}>{severity}</option>
            ))}
          </select>
        </label>
        {type === "syslog" ? null : (
          <label>
            New exposures as{" "}
            <select name="digest" defaultValue="off">
              {Object.entries(DIGESTS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        )}
        <p>
          <button type="submit" className="button button-primary" disabled={pending}>
            Add channel
          </button>
        </p>
      </form>
    </div>
  );
}
