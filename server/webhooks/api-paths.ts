/**
 * The REST base path of each webhook surface, the one place they are written: the procedures
 * (server/api/procedures/webhooks/surfaces.ts) are served there, and the health notices and the
 * admin UI show an endpoint's path on its surface (docs/webhooks.md).
 */
export const WEBHOOK_BASE_PATHS = {
  /** The partner's current surface. */
  partner: "/api/v1/integrations/webhooks",
  /** The distributor's (the same shapes). */
  distributor: "/api/v1/distributors/webhooks",
  /** The partner's earlier protocol. */
  legacy: "/api/integrations/webhooks",
  /** The partner's chat and SIEM channels (docs/integrations.md). */
  channel: "/api/v1/integrations/channels",
} as const satisfies Record<string, `/${string}`>;

/** An endpoint's REST path on its surface: its protocol, and who owns it. */
export function endpointApiPath(endpoint: {
  id: string;
  protocol: "current" | "legacy" | "channel";
  owner: "partner" | "distributor";
}): string {
  return `${WEBHOOK_BASE_PATHS[endpoint.protocol === "current" ? endpoint.owner : endpoint.protocol]}/${endpoint.id}`;
}
