import { config } from "../config";
import { PsaError, type PsaAdapter, type TicketDraft } from "./adapter";
import { psaRequest, type PsaRequest } from "./http";

/**
 * Autotask PSA's REST API (docs/integrations.md, "Autotask"): an API user's UserName and Secret
 * and the integration's ApiIntegrationCode as headers, on the zone of the account (found with
 * ZoneInformation when not given). The key leads the title, where a contains filter finds it.
 */
export interface AutotaskSettings {
  zoneUrl: string;
  username: string;
  integrationCode: string;
  queueId: number;
  /** Ticket status values: new tickets, and closing (Autotask's Complete is 5). */
  newStatus?: number;
  closedStatus?: number;
  /** Priority values for high and normal findings (Autotask's defaults: 1 High, 2 Medium). */
  priorities?: { high?: number; normal?: number };
}
export interface AutotaskSecrets {
  secret: string;
}

const VENDOR = "Autotask";
const DEFAULTS = { newStatus: 1, closedStatus: 5, high: 1, normal: 2 };

/** The REST root of a zone: `https://webservices5.autotask.net/ATServicesRest/` -> `.../ATServicesRest/V1.0`. */
export function autotaskApiRoot(zoneUrl: string): string {
  return `${zoneUrl.replace(/\/+$/, "").replace(/\/v1\.0$/i, "")}/V1.0`;
}

/** The zone of an API user (ZoneInformation), as its base URL. */
export async function discoverAutotaskZone(username: string): Promise<string> {
  const answer = (await psaRequest(VENDOR, `${config.autotaskZoneLookupUrl()}/V1.0/ZoneInformation?user=${encodeURIComponent(username)}`, {
    method: "GET",
    headers: {},
  })) as { url?: unknown } | undefined;
  if (typeof answer?.url !== "string") throw new PsaError("refused", `${VENDOR} knows no zone for the user ${username}`);
  return answer.url;
}

export function autotaskAdapter(settings: AutotaskSettings, secrets: AutotaskSecrets): PsaAdapter {
  const root = autotaskApiRoot(settings.zoneUrl);
  const headers = { ApiIntegrationCode: settings.integrationCode, UserName: settings.username, Secret: secrets.secret };
  const call = (method: PsaRequest["method"], path: string, json?: unknown) =>
    psaRequest(VENDOR, `${root}${path}`, { method, json, headers });
  const itemsOf = (answer: unknown): Array<{ id?: number; title?: string }> => {
    const items = (answer as { items?: unknown } | undefined)?.items;
    return Array.isArray(items) ? items : [];
  };
  const closedStatus = settings.closedStatus ?? DEFAULTS.closedStatus;
  const note = (ticketId: string, title: string, description: string) =>
    call("POST", `/Tickets/${Number(ticketId)}/Notes`, { ticketID: Number(ticketId), title, description, noteType: 1, publish: 1 });

  return {
    async createTicket(draft: TicketDraft) {
      const ticket = {
        companyID: Number(draft.companyId),
        queueID: settings.queueId,
        title: `[${draft.key}] ${draft.summary}`.slice(0, 255),
        description: draft.description.slice(0, 8000),
        status: settings.newStatus ?? DEFAULTS.newStatus,
        priority: settings.priorities?.[draft.priority] ?? DEFAULTS[draft.priority],
      };
      const answer = (await call("POST", "/Tickets", ticket)) as { itemId?: unknown } | undefined;
      if (typeof answer?.itemId !== "number") throw new PsaError("retry", `${VENDOR} answered the new ticket without an itemId`);
      return { id: String(answer.itemId) };
    },
    async findTicketByKey(key, companyId) {
      const filter = [
        { op: "contains", field: "title", value: `[${key}]` },
        { op: "eq", field: "companyID", value: Number(companyId) },
      ];
      const found = itemsOf(await call("POST", "/Tickets/query", { filter }))[0];
      return typeof found?.id === "number" ? { id: String(found.id) } : undefined;
    },
    async addNote(ticketId, text) {
      await note(ticketId, "Exposure monitoring update", text);
    },
    async hasNoteWithKey(ticketId, key) {
      const notes = itemsOf(await call("GET", `/Tickets/${Number(ticketId)}/Notes`)) as Array<{ description?: string }>;
      return notes.some((item) => item.description?.includes(key));
    },
    async closeTicket(ticketId, text) {
      if (text !== null) await note(ticketId, "Exposure resolved", text);
      await call("PATCH", "/Tickets", { id: Number(ticketId), status: closedStatus });
    },
    async listClosed(ticketIds) {
      const closed: string[] = [];
      for (let start = 0; start < ticketIds.length; start += 100) {
        const ids = ticketIds.slice(start, start + 100).map(Number);
        const filter = [
          { op: "in", field: "id", value: ids },
          { op: "eq", field: "status", value: closedStatus },
        ];
        for (const item of itemsOf(await call("POST", "/Tickets/query", { filter }))) {
          if (typeof item.id === "number") closed.push(String(item.id));
        }
      }
      return closed;
    },
    async testConnection() {
      await call("POST", "/Companies/query", { filter: [{ op: "eq", field: "id", value: 0 }] });
    },
  };
}
