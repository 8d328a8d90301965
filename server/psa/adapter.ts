/**
 * What the service asks of a partner's PSA (docs/integrations.md). One adapter per vendor
 * (connectwise.ts, autotask.ts, halopsa.ts), its base URL the connection's own setting. Every
 * method throws a PsaError when the PSA did not do it.
 */
export interface TicketDraft {
  /** Written into the ticket so findTicketByKey finds it again after a lost answer. */
  key: string;
  /** The PSA's company (ConnectWise company id, Autotask account id, HaloPSA client id). */
  companyId: string;
  summary: string;
  description: string;
  priority: TicketPriority;
}

/** high: a sensitive breach, one that exposed passwords, or a stealer log; normal otherwise. */
export type TicketPriority = "high" | "normal";

export interface PsaAdapter {
  createTicket(draft: TicketDraft): Promise<{ id: string }>;
  /** The ticket opened with this key for this company, if there is one. */
  findTicketByKey(key: string, companyId: string): Promise<{ id: string } | undefined>;
  addNote(ticketId: string, text: string): Promise<void>;
  /** Whether one of the ticket's notes carries this key (its latest notes are read). */
  hasNoteWithKey(ticketId: string, key: string): Promise<boolean>;
  /** Adds the note (unless null: it was added already) and sets the connection's closed status. */
  closeTicket(ticketId: string, note: string | null): Promise<void>;
  /** Of these tickets, the ones closed in the PSA. */
  listClosed(ticketIds: readonly string[]): Promise<string[]>;
  /** A read call that needs every permission the service uses; throws what failed and why. */
  testConnection(): Promise<void>;
}

/**
 * Why a request to the PSA did not succeed: `retry` (429, 5xx, time-out, connection failure:
 * tried again on the delivery schedule), `auth` (401/403: the connection is marked failing) or
 * `refused` (any other answer, or an address the URL rules refuse).
 */
export class PsaError extends Error {
  override name = "PsaError";
  constructor(
    readonly kind: "retry" | "auth" | "refused",
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
