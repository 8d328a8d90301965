import { z } from "zod";
import { ContractServer, loadDescription, type ContractAnswer, type ContractRequest, type Handler } from "./psa-contract";
import { schemaValidator } from "./openapi-schema";

/**
 * Stateful fakes of the three PSAs, each a ContractServer on its vendor's trimmed description:
 * tickets, notes, statuses and searches behave as the vendor documents them, so the service's
 * exactly-once and two-way behaviour is tested against state, not canned answers.
 */
export interface FakeTicket {
  id: number;
  companyId: number;
  key: string;
  summary: string;
  description: string;
  priority: unknown;
  notes: string[];
  closed: boolean;
}

abstract class FakePsa {
  readonly tickets = new Map<number, FakeTicket>();
  protected nextId = 1000;
  abstract readonly server: ContractServer;
  get violations(): string[] {
    return this.server.violations;
  }
  get baseUrl(): string {
    return this.server.baseUrl;
  }
  async start(): Promise<this> {
    await this.server.start();
    return this;
  }
  close(): Promise<void> {
    return this.server.close();
  }
  ticketsWithKey(key: string): FakeTicket[] {
    return [...this.tickets.values()].filter((ticket) => ticket.key === key);
  }
  /** A technician closes the ticket in the PSA. */
  closeInPsa(id: number): void {
    this.tickets.get(id)!.closed = true;
  }
  protected add(ticket: Omit<FakeTicket, "id" | "notes" | "closed">): FakeTicket {
    const created = { ...ticket, id: this.nextId++, notes: [], closed: false };
    this.tickets.set(created.id, created);
    return created;
  }
}

const unauthorized: ContractAnswer = { status: 401, body: { code: "Unauthorized", message: "Authentication failed" } };

export class FakeConnectWise extends FakePsa {
  static readonly BASE = "/v4_6_release/apis/3.0";
  static readonly CLOSED_STATUS = 7;
  readonly server: ContractServer;
  credentials: { companyId: string; publicKey: string; privateKey: string; clientId: string };

  constructor(
    credentials: FakeConnectWise["credentials"],
    readonly boardId = 12,
  ) {
    super();
    this.credentials = credentials;
    const authed =
      (handler: Handler): Handler =>
      (request) =>
        this.authorized(request) ? handler(request) : unauthorized;
    const view = (ticket: FakeTicket) => ({
      id: ticket.id,
      summary: ticket.summary,
      board: { id: this.boardId, name: "Security" },
      company: { id: ticket.companyId },
      externalXRef: ticket.key,
      closedFlag: ticket.closed,
      status: ticket.closed ? { id: FakeConnectWise.CLOSED_STATUS, name: "Closed" } : { id: 1, name: "New" },
    });
    this.server = new ContractServer(loadDescription("connectwise-psa-openapi.json"), FakeConnectWise.BASE, {
      "GET /service/boards/{id}": authed(({ params }) =>
        Number(params.id) === this.boardId
          ? {
              status: 200,
              body: { id: this.boardId, name: "Security", location: { id: 1, name: "HQ" }, department: { id: 2, name: "Services" } },
            }
          : { status: 404, body: { code: "NotFound", message: "Board not found" } },
      ),
      "GET /service/boards/{parentId}/statuses": authed(({ query }) => ({
        status: 200,
        body: [
          { id: 1, name: "New", closedStatus: false, sortOrder: 0 },
          { id: FakeConnectWise.CLOSED_STATUS, name: "Closed", closedStatus: true, sortOrder: 1 },
        ].filter((status) => !query.get("conditions")?.includes("closedStatus=true") || status.closedStatus),
      })),
      "GET /service/tickets": authed(({ query }) => ({ status: 200, body: this.search(query.get("conditions") ?? "").map(view) })),
      "POST /service/tickets": authed(({ body }) => {
        const draft = body as {
          summary: string;
          company: { id: number };
          externalXRef: string;
          initialDescription: string;
          priority?: unknown;
        };
        if (draft.summary.length > 100) return { status: 400, body: { code: "InvalidObject", message: "summary is longer than 100" } };
        const ticket = this.add({
          companyId: draft.company.id,
          key: draft.externalXRef,
          summary: draft.summary,
          description: draft.initialDescription,
          priority: body,
        });
        return { status: 201, body: view(ticket) };
      }),
      "GET /service/tickets/{parentId}/notes": authed(({ params }) => {
        const ticket = this.tickets.get(Number(params.parentId));
        if (!ticket) return { status: 404, body: { code: "NotFound", message: "Ticket not found" } };
        return { status: 200, body: ticket.notes.map((text, index) => ({ id: index + 1, ticketId: ticket.id, text })).reverse() };
      }),
      "POST /service/tickets/{parentId}/notes": authed(({ params, body }) => {
        const ticket = this.tickets.get(Number(params.parentId));
        if (!ticket) return { status: 404, body: { code: "NotFound", message: "Ticket not found" } };
        ticket.notes.push((body as { text: string }).text);
        return { status: 201, body: { id: ticket.notes.length, ticketId: ticket.id, text: (body as { text: string }).text } };
      }),
      "PATCH /service/tickets/{id}": authed(({ params, body }) => {
        const ticket = this.tickets.get(Number(params.id));
        if (!ticket) return { status: 404, body: { code: "NotFound", message: "Ticket not found" } };
        for (const op of body as Array<{ op: string; path: string; value: { id: number } }>) {
          if (op.op === "replace" && op.path === "status") ticket.closed = op.value.id === FakeConnectWise.CLOSED_STATUS;
        }
        return { status: 200, body: view(ticket) };
      }),
    });
  }

  private authorized({ headers }: ContractRequest): boolean {
    const { companyId, publicKey, privateKey, clientId } = this.credentials;
    const expected = `Basic ${Buffer.from(`${companyId}+${publicKey}:${privateKey}`).toString("base64")}`;
    return headers.authorization === expected && headers.clientid === clientId;
  }

  /** ConnectWise's conditions, the clauses the service uses (anything else is a violation). */
  private search(conditions: string): FakeTicket[] {
    let found = [...this.tickets.values()];
    for (const clause of conditions ? conditions.split(" and ") : []) {
      let match: RegExpExecArray | null;
      if ((match = /^externalXRef="([^"]*)"$/.exec(clause))) found = found.filter((t) => t.key === match![1]);
      else if ((match = /^company\/id=(\d+)$/.exec(clause))) found = found.filter((t) => t.companyId === Number(match![1]));
      else if (clause === "closedFlag=true") found = found.filter((t) => t.closed);
      else if ((match = /^id in \(([\d,]+)\)$/.exec(clause))) {
        const ids = new Set(match[1]!.split(",").map(Number));
        found = found.filter((t) => ids.has(t.id));
      } else this.server.violations.push(`unexpected ConnectWise condition: ${clause}`);
    }
    return found;
  }
}

export class FakeHalo extends FakePsa {
  static readonly CLOSED_STATUS = 9;
  readonly server: ContractServer;
  private readonly tokens = new Set<string>();
  tokensIssued = 0;

  constructor(
    public credentials: { clientId: string; clientSecret: string },
    readonly ticketTypeId = 31,
  ) {
    super();
    const document = loadDescription("halopsa-openapi.json");
    const tokenRequest = schemaValidator(document, { $ref: "#/components/schemas/TokenRequest" });
    const tokenAnswer = schemaValidator(document, { $ref: "#/components/schemas/TokenAnswer" });
    const authed =
      (handler: Handler): Handler =>
      (request) =>
        this.tokens.has(String(request.headers.authorization).replace(/^Bearer /, ""))
          ? handler(request)
          : { status: 401, body: { message: "Unauthorized" } };
    const view = (ticket: FakeTicket) => ({
      id: ticket.id,
      summary: ticket.summary,
      client_id: ticket.companyId,
      tickettype_id: this.ticketTypeId,
      hasbeenclosed: ticket.closed,
      status_id: ticket.closed ? FakeHalo.CLOSED_STATUS : 1,
    });
    this.server = new ContractServer(
      document,
      "/api",
      {
        "GET /Tickets": authed(({ query }) => {
          let found = [...this.tickets.values()];
          if (query.has("search_summary")) found = found.filter((t) => t.summary.includes(query.get("search_summary")!));
          if (query.has("client_id")) found = found.filter((t) => t.companyId === Number(query.get("client_id")));
          if (query.has("ticketids")) found = found.filter((t) => query.get("ticketids")!.split(",").map(Number).includes(t.id));
          if (query.get("closed_only") === "true") found = found.filter((t) => t.closed);
          return { status: 200, body: { record_count: found.length, tickets: found.map(view) } };
        }),
        "POST /Tickets": authed(({ body }) => {
          const [draft] = body as Array<{
            summary: string;
            details: string;
            client_id: number;
            third_party_id_string: string;
            priority_id?: number;
          }>;
          const ticket = this.add({
            companyId: draft!.client_id,
            key: draft!.third_party_id_string,
            summary: draft!.summary,
            description: draft!.details,
            priority: draft!.priority_id,
          });
          return { status: 200, body: view(ticket) };
        }),
        "GET /Actions": authed(({ query }) => {
          const ticket = this.tickets.get(Number(query.get("ticket_id")));
          const actions = (ticket?.notes ?? []).map((note, index) => ({ id: index + 1, ticket_id: ticket!.id, note }));
          return { status: 200, body: { record_count: actions.length, actions } };
        }),
        "POST /Actions": authed(({ body }) => {
          const [action] = body as Array<{ ticket_id: number; note: string; new_status?: number }>;
          const ticket = this.tickets.get(action!.ticket_id);
          if (!ticket) return { status: 404, body: { message: "Ticket not found" } };
          if (action!.note) ticket.notes.push(action!.note);
          if (action!.new_status === FakeHalo.CLOSED_STATUS) ticket.closed = true;
          return { status: 200, body: { id: ticket.notes.length, ticket_id: ticket.id, note: action!.note } };
        }),
        "GET /TicketType/{id}": authed(({ params }) =>
          Number(params.id) === this.ticketTypeId
            ? { status: 200, body: { id: this.ticketTypeId, name: "Security alert" } }
            : { status: 404, body: { message: "Not found" } },
        ),
      },
      {
        "POST /auth/token": (req, raw) => {
          if (!String(req.headers["content-type"]).startsWith("application/x-www-form-urlencoded"))
            this.server.violations.push("token request is not form-encoded");
          const form = Object.fromEntries(new URLSearchParams(raw));
          const parsed = tokenRequest.safeParse(form);
          if (!parsed.success) this.server.violations.push(`token request: ${z.prettifyError(parsed.error)}`);
          if (form.client_id !== this.credentials.clientId || form.client_secret !== this.credentials.clientSecret) {
            return { status: 401, body: { error: "invalid_client" } };
          }
          const token = `token-${++this.tokensIssued}`;
          this.tokens.add(token);
          const answer = { access_token: token, token_type: "Bearer", expires_in: 3600 };
          if (!tokenAnswer.safeParse(answer).success) this.server.violations.push("token answer off the description");
          return { status: 200, body: answer };
        },
      },
    );
  }
}

export class FakeAutotask extends FakePsa {
  static readonly BASE = "/ATServicesRest";
  static readonly COMPLETE = 5;
  readonly server: ContractServer;

  constructor(public credentials: { username: string; secret: string; integrationCode: string }) {
    super();
    const authed =
      (handler: Handler): Handler =>
      (request) => {
        const { headers } = request;
        const ok =
          headers.username === this.credentials.username &&
          headers.secret === this.credentials.secret &&
          headers.apiintegrationcode === this.credentials.integrationCode;
        return ok ? handler(request) : { status: 401, body: { errors: ["Unauthorized"] } };
      };
    type Filter = { op: string; field: string; value: unknown };
    const matches = (ticket: FakeTicket, filter: Filter): boolean => {
      const value = {
        id: ticket.id,
        title: ticket.summary,
        companyID: ticket.companyId,
        status: ticket.closed ? FakeAutotask.COMPLETE : 1,
      }[filter.field];
      if (value === undefined) this.server.violations.push(`unexpected Autotask filter field: ${filter.field}`);
      if (filter.op === "eq") return value === filter.value;
      if (filter.op === "contains") return String(value).includes(String(filter.value));
      if (filter.op === "in") return (filter.value as unknown[]).includes(value);
      this.server.violations.push(`unexpected Autotask filter op: ${filter.op}`);
      return false;
    };
    const query = (filters: Filter[]) => [...this.tickets.values()].filter((ticket) => filters.every((filter) => matches(ticket, filter)));
    const page = (items: unknown[]) => ({
      status: 200,
      body: { items, pageDetails: { count: items.length, requestCount: 500, prevPageUrl: null, nextPageUrl: null } },
    });
    this.server = new ContractServer(loadDescription("autotask-openapi.json"), FakeAutotask.BASE, {
      "GET /V1.0/ZoneInformation": ({ query: search }) =>
        search.get("user") === this.credentials.username
          ? {
              status: 200,
              body: { zoneName: "Fake zone", url: `${this.baseUrl}${FakeAutotask.BASE}/`, webUrl: "https://ww5.autotask.net/", ci: 5 },
            }
          : { status: 404, body: { errors: ["Zone information could not be determined"] } },
      "POST /V1.0/Tickets": authed(({ body }) => {
        const draft = body as { companyID: number; title: string; description: string; priority: number };
        const key = /^\[([^\]]+)\]/.exec(draft.title)?.[1] ?? "";
        return {
          status: 200,
          body: {
            itemId: this.add({
              companyId: draft.companyID,
              key,
              summary: draft.title,
              description: draft.description,
              priority: draft.priority,
            }).id,
          },
        };
      }),
      "PATCH /V1.0/Tickets": authed(({ body }) => {
        const patch = body as { id: number; status: number };
        const ticket = this.tickets.get(patch.id);
        if (!ticket) return { status: 404, body: { errors: ["Ticket not found"] } };
        ticket.closed = patch.status === FakeAutotask.COMPLETE;
        return { status: 200, body: { itemId: ticket.id } };
      }),
      "POST /V1.0/Tickets/query": authed(({ body }) => page(query((body as { filter: Filter[] }).filter).map((t) => ({ id: t.id })))),
      "POST /V1.0/Companies/query": authed(() => page([])),
      "GET /V1.0/Tickets/{parentId}/Notes": authed(({ params }) => {
        const ticket = this.tickets.get(Number(params.parentId));
        if (!ticket) return { status: 404, body: { errors: ["Ticket not found"] } };
        const notes = ticket.notes.map((description, index) => ({
          id: index + 1,
          ticketID: ticket.id,
          title: "Note",
          description,
          noteType: 1,
          publish: 1,
        }));
        return page(notes);
      }),
      "POST /V1.0/Tickets/{parentId}/Notes": authed(({ params, body }) => {
        const ticket = this.tickets.get(Number(params.parentId));
        if (!ticket) return { status: 404, body: { errors: ["Ticket not found"] } };
        ticket.notes.push((body as { description: string }).description);
        return { status: 200, body: { itemId: ticket.notes.length } };
      }),
    });
  }
}
