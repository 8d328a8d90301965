import type { Db } from "../db/client";
import type { PsaConnection } from "../db/generated/client";
import { log } from "../log";
import { nextAttemptDelayMs, scheduledRetryDelayMs } from "../webhooks/retry-schedule";
import { PsaError, type PsaAdapter } from "./adapter";
import { markPsaFailing } from "./connections";
import { mailboxesToTicket } from "./ticketable";
import { newMailboxesNote, noteKeyOf, resolvedNote, ticketDraft, ticketKeyOf, type TicketFacts } from "./ticket-text";

/**
 * One run of a PSA connection's sync (docs/integrations.md, "Exactly once"): record the tickets
 * the mapped customers' open findings call for, then send what is due. A ticket's row, with the
 * key the ticket will carry, is committed before its create request is sent; the request is
 * claimed in the row first (create_attempts + 1, a two-minute claim), and any attempt after the
 * first searches the PSA for the key before creating. So a retry, a crash or a second replica
 * finds the ticket a lost answer made, and never opens a second one.
 */
const RETRY_ROUND = 4;
const CREATE_CLAIM_MS = 2 * 60_000;
/** Tickets per run at most; a run that has more queues the next one at once. */
export const REQUESTS_PER_RUN = 25;

type Ticket = Awaited<ReturnType<typeof dueTickets>>[number];

/** The rows the mapped customers' unresolved breach instances call for, added where missing. */
export async function recordTickets(db: Db, connection: PsaConnection): Promise<number> {
  const instances = await db.customerBreach.findMany({
    where: { resolved: false, customer: { partnerId: connection.partnerId, status: "active", psaCompany: { isNot: null } } },
    select: {
      id: true,
      customerId: true,
      breachId: true,
      emails: true,
      customer: { select: { psaCompany: { select: { companyId: true } } } },
    },
  });
  const rows: Array<{
    connectionId: string;
    customerId: string;
    breachInstanceId: string;
    mailbox: string;
    ticketKey: string;
    companyId: string;
  }> = [];
  for (const instance of instances) {
    const mailboxes = await mailboxesToTicket(db, instance);
    if (mailboxes.length === 0) continue;
    const companyId = instance.customer.psaCompany!.companyId;
    for (const mailbox of connection.ticketPerMailbox ? mailboxes : [""]) {
      rows.push({
        connectionId: connection.id,
        customerId: instance.customerId,
        breachInstanceId: instance.id,
        mailbox,
        ticketKey: ticketKeyOf(instance.id, mailbox),
        companyId,
      });
    }
  }
  if (rows.length === 0) return 0;
  return (await db.psaTicket.createMany({ data: rows, skipDuplicates: true })).count;
}

async function dueTickets(db: Db, connectionId: string) {
  return db.psaTicket.findMany({
    where: { connectionId, closedAt: null, OR: [{ nextAttemptAt: null }, { nextAttemptAt: { lte: new Date() } }] },
    orderBy: { createdAt: "asc" },
    take: REQUESTS_PER_RUN,
    include: {
      customer: { select: { companyName: true } },
      instance: {
        select: {
          resolved: true,
          breachId: true,
          emails: true,
          breach: {
            select: { title: true, breachDate: true, dataClasses: true, isSensitive: true, isStealerLog: true, descriptionText: true },
          },
        },
      },
    },
  });
}

/** What the ticket should list now: the instance's ticketable mailboxes (in per-mailbox mode, its own one if still so). */
async function wantedMailboxes(db: Db, ticket: Ticket): Promise<string[]> {
  const mailboxes = await mailboxesToTicket(db, {
    customerId: ticket.customerId,
    breachId: ticket.instance.breachId,
    emails: ticket.instance.emails,
  });
  return ticket.mailbox === "" ? mailboxes : mailboxes.filter((mailbox) => mailbox === ticket.mailbox);
}

/** Sends what each due ticket needs. Returns "auth" when the PSA refused the credentials (the run stops there). */
export async function deliverDueTickets(
  db: Db,
  connection: PsaConnection,
  adapter: PsaAdapter,
  { notes = true }: { notes?: boolean } = {},
): Promise<"done" | "more" | "auth"> {
  const tickets = await dueTickets(db, connection.id);
  for (const ticket of tickets) {
    try {
      await deliverTicket(db, adapter, ticket, notes);
    } catch (error) {
      if (!(error instanceof PsaError)) throw error;
      if (error.kind === "auth") {
        await db.psaTicket.update({ where: { id: ticket.id }, data: { claimedUntil: null, lastError: error.message } });
        await markPsaFailing(db, connection.id, error.message);
        log.warn("psa connection failing: credentials refused", { connectionId: connection.id, error: error.message });
        return "auth";
      }
      await recordFailure(db, ticket, error);
    }
  }
  return tickets.length === REQUESTS_PER_RUN ? "more" : "done";
}

async function recordFailure(db: Db, ticket: Ticket, error: PsaError): Promise<void> {
  const failures = ticket.failures + 1;
  const delay =
    error.kind === "retry"
      ? nextAttemptDelayMs(failures, RETRY_ROUND, error.retryAfterMs)
      : scheduledRetryDelayMs(RETRY_ROUND, RETRY_ROUND);
  await db.psaTicket.update({
    where: { id: ticket.id },
    data: { failures, nextAttemptAt: new Date(Date.now() + delay), lastError: error.message, claimedUntil: null },
  });
  log.info("psa request failed; tried again later", { ticketId: ticket.id, failures, delayMs: delay, error: error.message });
}

/** `notes` false (a digest between its slots): mailboxes found since wait; a note already started is still settled. */
async function deliverTicket(db: Db, adapter: PsaAdapter, ticket: Ticket, notes: boolean): Promise<void> {
  const wanted = await wantedMailboxes(db, ticket);
  let externalId = ticket.externalId;
  let sent = ticket.mailboxesSent;
  if (externalId === null) {
    // Nothing was ever sent for a row whose findings went away first: it closes without a request.
    if (ticket.createAttempts === 0 && (ticket.instance.resolved || wanted.length === 0)) {
      await db.psaTicket.update({ where: { id: ticket.id }, data: { closedAt: new Date(), closedBy: "service" } });
      return;
    }
    const created = await createOnce(db, adapter, ticket, wanted);
    if (!created) return;
    ({ externalId, sent } = created);
  }
  if (ticket.instance.resolved) {
    const key = noteKeyOf(ticket.ticketKey, []);
    const noted = await noteRecordedAndFound(db, adapter, ticket.id, externalId, key, []);
    await adapter.closeTicket(externalId, noted ? null : resolvedNote(key));
    await db.psaTicket.update({
      where: { id: ticket.id },
      data: { closedAt: new Date(), closedBy: "service", ...NO_PENDING_NOTE, failures: 0, nextAttemptAt: null, lastError: null },
    });
    return;
  }
  // A note recorded before and not known to have arrived goes first (the same mailboxes, the same key).
  let pending = ticket.pendingNoteKey && ticket.pendingNoteMailboxes.length > 0 ? ticket.pendingNoteMailboxes : undefined;
  let noted = false;
  for (;;) {
    const listing = pending ?? (notes ? wanted.filter((mailbox) => !sent.includes(mailbox)) : []);
    if (listing.length === 0) break;
    const key = pending ? ticket.pendingNoteKey! : noteKeyOf(ticket.ticketKey, listing);
    if (!(await noteRecordedAndFound(db, adapter, ticket.id, externalId, key, listing))) {
      await adapter.addNote(externalId, newMailboxesNote(ticket.instance.breach.title, listing, key));
    }
    sent = [...new Set([...sent, ...listing])].sort();
    await db.psaTicket.update({ where: { id: ticket.id }, data: { mailboxesSent: sent, ...NO_PENDING_NOTE } });
    noted = true;
    pending = undefined;
  }
  if (noted || ticket.failures > 0) {
    await db.psaTicket.update({ where: { id: ticket.id }, data: { failures: 0, nextAttemptAt: null, lastError: null } });
  }
}

const NO_PENDING_NOTE = { pendingNoteKey: null, pendingNoteMailboxes: [], noteAttempts: 0 };

/**
 * The exactly-once note, as the create: the note's key and what it lists are committed, and its
 * attempt counted, before it is sent; an attempt after the first (the answer was lost, the
 * process died) first searches the ticket's notes for the key. True when the note is there
 * already, so it must not be sent again.
 */
async function noteRecordedAndFound(
  db: Db,
  adapter: PsaAdapter,
  ticketId: string,
  externalId: string,
  key: string,
  mailboxes: readonly string[],
): Promise<boolean> {
  const [row] = await db.$queryRaw<Array<{ attempts: number }>>`
    UPDATE psa_tickets SET pending_note_mailboxes = ${[...mailboxes]}::text[],
           note_attempts = CASE WHEN pending_note_key = ${key} THEN note_attempts + 1 ELSE 1 END,
           pending_note_key = ${key}, updated_at = now()
    WHERE id = ${ticketId}::uuid
    RETURNING note_attempts AS attempts`;
  return row!.attempts > 1 && (await adapter.hasNoteWithKey(externalId, key));
}

/**
 * The exactly-once create: claim the row (committed before anything is sent), search for the
 * key when an earlier attempt may have reached the PSA, create only when it is not there.
 * Undefined when another run holds the claim.
 */
async function createOnce(
  db: Db,
  adapter: PsaAdapter,
  ticket: Ticket,
  wanted: string[],
): Promise<{ externalId: string; sent: string[] } | undefined> {
  const claimed = await db.$queryRaw<Array<{ attempts: number; sent: string[] }>>`
    UPDATE psa_tickets SET create_attempts = create_attempts + 1, claimed_until = now() + make_interval(secs => ${CREATE_CLAIM_MS / 1000}),
           updated_at = now()
    WHERE id = ${ticket.id}::uuid AND external_id IS NULL AND (claimed_until IS NULL OR claimed_until < now())
    RETURNING create_attempts AS attempts, mailboxes_sent AS sent`;
  if (claimed.length === 0) return undefined;
  const { attempts } = claimed[0]!;
  if (attempts > 1) {
    const found = await adapter.findTicketByKey(ticket.ticketKey, ticket.companyId);
    if (found) return recordCreated(db, ticket.id, found.id, claimed[0]!.sent);
  }
  // What the ticket will list is recorded before it is sent: a lost answer found later lists the same.
  await db.psaTicket.update({ where: { id: ticket.id }, data: { mailboxesSent: wanted } });
  const facts: TicketFacts = { customerName: ticket.customer.companyName, breach: ticket.instance.breach };
  const created = await adapter.createTicket(ticketDraft(facts, ticket.ticketKey, ticket.companyId, wanted));
  return recordCreated(db, ticket.id, created.id, wanted);
}

async function recordCreated(db: Db, ticketId: string, externalId: string, sent: string[]) {
  await db.psaTicket.update({
    where: { id: ticketId },
    data: { externalId, mailboxesSent: sent, claimedUntil: null, failures: 0, nextAttemptAt: null, lastError: null },
  });
  return { externalId, sent };
}
