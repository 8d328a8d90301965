import { PsaError, type PsaAdapter, type TicketDraft } from "./adapter";
import { psaRequest, type PsaRequest } from "./http";

/**
 * HaloPSA's REST API (docs/integrations.md, "HaloPSA"): an application's client-credentials
 * token from `{url}/auth/token`, then `{url}/api/...`. Tickets are opened as one ticket type;
 * the key leads the summary (`[KEY] ...`), where search_summary finds it again. Notes and the
 * close are actions (a close sets new_status).
 */
export interface HaloSettings {
  url: string;
  clientId: string;
  ticketTypeId: number;
  /** The tenant of a hosted instance, when its token endpoint needs one. */
  tenant?: string;
  /** The status tickets are closed with; HaloPSA's own Closed status is 9. */
  closedStatusId?: number;
  priorityIds?: { high?: number; normal?: number };
}
export interface HaloSecrets {
  clientSecret: string;
}

const VENDOR = "HaloPSA";
export const HALO_CLOSED_STATUS = 9;

export function haloAdapter(settings: HaloSettings, secrets: HaloSecrets): PsaAdapter {
  const root = settings.url.replace(/\/+$/, "");
  let token: Promise<string> | undefined;

  async function fetchToken(): Promise<string> {
    const query = settings.tenant ? `?tenant=${encodeURIComponent(settings.tenant)}` : "";
    const answer = (await psaRequest(VENDOR, `${root}/auth/token${query}`, {
      method: "POST",
      headers: {},
      form: { grant_type: "client_credentials", client_id: settings.clientId, client_secret: secrets.clientSecret, scope: "all" },
    })) as { access_token?: unknown } | undefined;
    if (typeof answer?.access_token !== "string")
      throw new PsaError("retry", `${VENDOR} answered the token request without an access_token`);
    return answer.access_token;
  }
  const call = async (method: PsaRequest["method"], path: string, json?: unknown) => {
    token ??= fetchToken().catch((error: unknown) => {
      token = undefined;
      throw error;
    });
    return psaRequest(VENDOR, `${root}/api${path}`, { method, json, headers: { authorization: `Bearer ${await token}` } });
  };
  const ticketsOf = (answer: unknown): Array<{ id?: number; summary?: string }> => {
    const tickets = (answer as { tickets?: unknown } | undefined)?.tickets;
    return Array.isArray(tickets) ? tickets : [];
  };

  return {
    async createTicket(draft: TicketDraft) {
      const priorityId = settings.priorityIds?.[draft.priority];
      const ticket = {
        summary: `[${draft.key}] ${draft.summary}`,
        details: draft.description,
        client_id: Number(draft.companyId),
        tickettype_id: settings.ticketTypeId,
        third_party_id_string: draft.key,
        ...(priorityId ? { priority_id: priorityId } : {}),
      };
      const answer = await call("POST", "/Tickets", [ticket]);
      const created = (Array.isArray(answer) ? answer[0] : answer) as { id?: unknown } | undefined;
      if (typeof created?.id !== "number") throw new PsaError("retry", `${VENDOR} answered the new ticket without an id`);
      return { id: String(created.id) };
    },
    async findTicketByKey(key, companyId) {
      const query = new URLSearchParams({ search_summary: key, client_id: String(Number(companyId)), count: "5" });
      const found = ticketsOf(await call("GET", `/Tickets?${query}`)).find((ticket) => ticket.summary?.startsWith(`[${key}]`));
      return typeof found?.id === "number" ? { id: String(found.id) } : undefined;
    },
    async addNote(ticketId, text) {
      await call("POST", "/Actions", [{ ticket_id: Number(ticketId), outcome: "Private Note", note: text, hiddenfromuser: true }]);
    },
    async hasNoteWithKey(ticketId, key) {
      const query = new URLSearchParams({ ticket_id: String(Number(ticketId)), count: "100" });
      const actions = ((await call("GET", `/Actions?${query}`)) as { actions?: unknown } | undefined)?.actions;
      return (
        Array.isArray(actions) && actions.some((action: { note?: unknown }) => typeof action.note === "string" && action.note.includes(key))
      );
    },
    async closeTicket(ticketId, note) {
      const status = settings.closedStatusId ?? HALO_CLOSED_STATUS;
      // The close is one action carrying the note: a note found there means the status was set with it.
      if (note === null) return;
      await call("POST", "/Actions", [{ ticket_id: Number(ticketId), outcome: "Closed", note, new_status: status, hiddenfromuser: true }]);
    },
    async listClosed(ticketIds) {
      const closed: string[] = [];
      for (let start = 0; start < ticketIds.length; start += 100) {
        const ids = ticketIds.slice(start, start + 100).map(Number);
        const query = new URLSearchParams({ ticketids: ids.join(","), closed_only: "true", count: String(ids.length) });
        for (const ticket of ticketsOf(await call("GET", `/Tickets?${query}`))) {
          if (typeof ticket.id === "number") closed.push(String(ticket.id));
        }
      }
      return closed;
    },
    async testConnection() {
      await call("GET", `/TicketType/${settings.ticketTypeId}`);
    },
  };
}
