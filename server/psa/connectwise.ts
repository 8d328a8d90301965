import { PsaError, type PsaAdapter, type TicketDraft } from "./adapter";
import { psaRequest, type PsaRequest } from "./http";

/**
 * ConnectWise PSA (Manage) REST API 3.0 (docs/integrations.md, "ConnectWise PSA"): members'
 * API keys as Basic authentication `companyId+publicKey:privateKey`, the integrator's clientId
 * header, tickets on one service board. The ticket key goes into externalXRef, which the
 * conditions search finds again.
 */
export interface ConnectWiseSettings {
  site: string;
  companyId: string;
  clientId: string;
  boardId: number;
  /** The board status tickets are closed with; unset: the board's first closed status. */
  closedStatusId?: number;
  /** Priority ids for high and normal findings; unset: the board's default priority (severity and impact still say it). */
  priorityIds?: { high?: number; normal?: number };
}
export interface ConnectWiseSecrets {
  publicKey: string;
  privateKey: string;
}

const VENDOR = "ConnectWise";
const ACCEPT = "application/vnd.connectwise.com+json; version=2025.8";
const SUMMARY_MAX = 100;
/** The latest notes read when looking for a note's key (the service's own notes are among the latest). */
const NOTES_READ = 100;

/** The REST root of a site: `https://na.myconnectwise.net` -> `.../v4_6_release/apis/3.0`. */
export function connectWiseApiRoot(site: string): string {
  const trimmed = site.replace(/\/+$/, "");
  return /\/apis\/3\.0$/.test(trimmed) ? trimmed : `${trimmed}/v4_6_release/apis/3.0`;
}

export function connectWiseAdapter(settings: ConnectWiseSettings, secrets: ConnectWiseSecrets): PsaAdapter {
  const root = connectWiseApiRoot(settings.site);
  const authorization = `Basic ${Buffer.from(`${settings.companyId}+${secrets.publicKey}:${secrets.privateKey}`).toString("base64")}`;
  const call = (method: PsaRequest["method"], path: string, json?: unknown) =>
    psaRequest(VENDOR, `${root}${path}`, { method, json, headers: { authorization, clientId: settings.clientId, accept: ACCEPT } });
  const idOf = (answer: unknown, what: string): string => {
    const id = (answer as { id?: unknown } | undefined)?.id;
    if (typeof id !== "number") throw new PsaError("retry", `${VENDOR} answered ${what} without an id`);
    return String(id);
  };

  async function closedStatusId(): Promise<number> {
    if (settings.closedStatusId) return settings.closedStatusId;
    const query = new URLSearchParams({ conditions: "closedStatus=true and inactive=false", orderBy: "sortOrder asc", pageSize: "1" });
    const statuses = (await call("GET", `/service/boards/${settings.boardId}/statuses?${query}`)) as Array<{ id?: number }>;
    const id = Array.isArray(statuses) ? statuses[0]?.id : undefined;
    if (typeof id !== "number") throw new PsaError("refused", `${VENDOR} board ${settings.boardId} has no closed status`);
    return id;
  }

  return {
    async createTicket(draft: TicketDraft) {
      const priorityId = settings.priorityIds?.[draft.priority];
      const level = draft.priority === "high" ? "High" : "Medium";
      const ticket = {
        summary: draft.summary.slice(0, SUMMARY_MAX),
        board: { id: settings.boardId },
        company: { id: Number(draft.companyId) },
        initialDescription: draft.description,
        externalXRef: draft.key,
        severity: level,
        impact: level,
        ...(priorityId ? { priority: { id: priorityId } } : {}),
      };
      return { id: idOf(await call("POST", "/service/tickets", ticket), "the new ticket") };
    },
    async findTicketByKey(key, companyId) {
      const query = new URLSearchParams({
        conditions: `externalXRef="${key}" and company/id=${Number(companyId)}`,
        fields: "id",
        pageSize: "1",
      });
      const found = (await call("GET", `/service/tickets?${query}`)) as Array<{ id?: number }>;
      const id = Array.isArray(found) ? found[0]?.id : undefined;
      return typeof id === "number" ? { id: String(id) } : undefined;
    },
    async addNote(ticketId, text) {
      await call("POST", `/service/tickets/${Number(ticketId)}/notes`, { text, detailDescriptionFlag: true });
    },
    async hasNoteWithKey(ticketId, key) {
      const query = new URLSearchParams({ orderBy: "id desc", fields: "id,text", pageSize: String(NOTES_READ) });
      const notes = (await call("GET", `/service/tickets/${Number(ticketId)}/notes?${query}`)) as Array<{ text?: string }>;
      return Array.isArray(notes) && notes.some((note) => note.text?.includes(key));
    },
    async closeTicket(ticketId, note) {
      const statusId = await closedStatusId();
      if (note !== null) await call("POST", `/service/tickets/${Number(ticketId)}/notes`, { text: note, resolutionFlag: true });
      await call("PATCH", `/service/tickets/${Number(ticketId)}`, [{ op: "replace", path: "status", value: { id: statusId } }]);
    },
    async listClosed(ticketIds) {
      const closed: string[] = [];
      for (let start = 0; start < ticketIds.length; start += 100) {
        const ids = ticketIds
          .slice(start, start + 100)
          .map(Number)
          .join(",");
        const query = new URLSearchParams({ conditions: `closedFlag=true and id in (${ids})`, fields: "id", pageSize: "100" });
        const found = (await call("GET", `/service/tickets?${query}`)) as Array<{ id?: number }>;
        for (const ticket of Array.isArray(found) ? found : []) if (typeof ticket.id === "number") closed.push(String(ticket.id));
      }
      return closed;
    },
    async testConnection() {
      await call("GET", `/service/boards/${settings.boardId}`);
      await closedStatusId();
    },
  };
}
