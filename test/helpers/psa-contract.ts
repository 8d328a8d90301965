import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { z } from "zod";
import { listenOnLoopback, type LoopbackServer } from "./http";
import { schemaValidator } from "./openapi-schema";

/**
 * A real HTTP server that speaks one PSA's published description (test/fixtures/psa/): every
 * request is matched to a described operation and its query, headers and body are checked
 * against it (bodies strictly: a property the description does not name is a violation), then a
 * stateful handler answers, and each 2xx answer is checked against the described answer schema.
 * Faults can be queued per operation: an answer (429, 500, ...), a delay, or a lost answer (the
 * handler runs, then the connection is cut).
 */
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
}
interface Operation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema: { type?: string | string[] } }>;
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
}

export interface ContractRequest {
  operation: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: unknown;
  rawBody: string;
}
export interface ContractAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}
/**
 * `hold`: the request is kept open and never answered, and `onHeld` called, so a test can kill
 * the client at that point: "before" the handler runs (the PSA made nothing), or "after" it (the
 * PSA made the ticket; the answer never leaves).
 */
export type Fault = ContractAnswer | { delayMs: number } | { lose: true } | { hold: "before" | "after"; onHeld: () => void };
export type Handler = (request: ContractRequest) => ContractAnswer;

/** The description, OpenAPI 3.0's `nullable: true` written as JSON Schema's `type: [t, "null"]` for the validator. */
export function loadDescription(file: string): OpenApiDocument {
  return withNullTypes(JSON.parse(readFileSync(new URL(`../fixtures/psa/${file}`, import.meta.url), "utf8"))) as OpenApiDocument;
}

function withNullTypes(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withNullTypes);
  if (!node || typeof node !== "object") return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const copy = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, withNullTypes(value)]));
  if (nullable === true && typeof copy.type === "string") copy.type = [copy.type, "null"];
  if (nullable === true && Array.isArray(copy.enum)) copy.enum = [...(copy.enum as unknown[]), null];
  return copy;
}

/** A copy of a schema whose objects with named properties take no others (for what the service sends). */
function strict(schema: unknown, document: OpenApiDocument): unknown {
  const seen = new Set<string>();
  const tighten = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(tighten);
    if (!node || typeof node !== "object") return node;
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === "string") {
      const name = record.$ref.split("/").at(-1)!;
      if (!seen.has(name)) {
        seen.add(name);
        schemas[name] = tighten(document.components!.schemas![name]);
      }
      return record;
    }
    const copy = Object.fromEntries(
      Object.entries(record).map(([key, value]) => [
        key,
        key === "properties" ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, tighten(v)])) : tighten(value),
      ]),
    );
    if (copy.properties && copy.additionalProperties === undefined) copy.additionalProperties = false;
    return copy;
  };
  const schemas: Record<string, unknown> = { ...document.components?.schemas };
  const root = tighten(schema);
  return { root, schemas };
}

export class ContractServer {
  readonly violations: string[] = [];
  readonly calls: Array<{ operation: string; status: number | "lost" | "held" }> = [];
  private readonly faults = new Map<string, Fault[]>();
  private server?: LoopbackServer;
  private readonly routes: Array<{ method: string; template: string; pattern: RegExp; names: string[]; operation: Operation }>;
  private readonly validators = new Map<string, z.ZodType>();

  constructor(
    private readonly document: OpenApiDocument,
    private readonly basePath: string,
    private readonly handlers: Record<string, Handler>,
    private readonly extra: Record<string, (req: IncomingMessage, body: string) => ContractAnswer> = {},
  ) {
    this.routes = Object.entries(document.paths).flatMap(([template, methods]) =>
      Object.entries(methods).map(([method, operation]) => {
        const names: string[] = [];
        const pattern = new RegExp(`^${template.replace(/\{([^}]+)\}/g, (_, name: string) => (names.push(name), "([^/]+)"))}$`);
        return { method: method.toUpperCase(), template, pattern, names, operation };
      }),
    );
  }

  get baseUrl(): string {
    return this.server!.baseUrl;
  }

  async start(): Promise<this> {
    this.server = await listenOnLoopback((req, res) => this.serve(req, res));
    return this;
  }
  close(): Promise<void> {
    return this.server?.close() ?? Promise.resolve();
  }
  /** Faults for the next requests of an operation ("POST /service/tickets"), in order. */
  fail(operation: string, ...faults: Fault[]): void {
    this.faults.set(operation, [...(this.faults.get(operation) ?? []), ...faults]);
  }
  count(operation: string): number {
    return this.calls.filter((call) => call.operation === operation).length;
  }

  private validator(key: string, schema: object, strictly: boolean): z.ZodType {
    const cacheKey = `${strictly}:${key}`;
    let validator = this.validators.get(cacheKey);
    if (!validator) {
      if (strictly) {
        const { root, schemas } = strict(schema, this.document) as { root: object; schemas: Record<string, unknown> };
        validator = schemaValidator({ components: { schemas } }, root);
      } else validator = schemaValidator(this.document, schema);
      this.validators.set(cacheKey, validator);
    }
    return validator;
  }

  private check(where: string, validator: z.ZodType, value: unknown): void {
    const result = validator.safeParse(value);
    if (!result.success)
      this.violations.push(`${where}: ${result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`).join("; ")}`);
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url!, "http://fake");
    const extra = this.extra[`${req.method} ${url.pathname}`];
    if (extra) return send(res, extra(req, rawBody));
    const relative = url.pathname.startsWith(this.basePath) ? url.pathname.slice(this.basePath.length) : null;
    const route = relative === null ? undefined : this.routes.find((r) => r.method === req.method && r.pattern.test(relative));
    if (!route) {
      this.violations.push(`${req.method} ${url.pathname}: not an operation of the description`);
      return send(res, { status: 404, body: { message: "not found" } });
    }
    const operation = `${route.method} ${route.template}`;
    const match = route.pattern.exec(relative!)!;
    const params = Object.fromEntries(route.names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)]));
    for (const parameter of route.operation.parameters ?? []) {
      const value =
        parameter.in === "path"
          ? params[parameter.name]
          : parameter.in === "query"
            ? url.searchParams.get(parameter.name)
            : req.headers[parameter.name.toLowerCase()];
      if (value === undefined || value === null) {
        if (parameter.required) this.violations.push(`${operation}: ${parameter.in} parameter ${parameter.name} is required`);
        continue;
      }
      const type = [parameter.schema.type].flat()[0];
      const text = String(value);
      if ((type === "integer" && !/^-?\d+$/.test(text)) || (type === "boolean" && !/^(true|false)$/.test(text))) {
        this.violations.push(`${operation}: ${parameter.in} parameter ${parameter.name} is not a ${type}: ${text}`);
      }
    }
    const declared = new Set((route.operation.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name));
    for (const name of url.searchParams.keys())
      if (!declared.has(name)) this.violations.push(`${operation}: query parameter ${name} is not described`);
    let body: unknown;
    if (route.operation.requestBody) {
      const contentType = String(req.headers["content-type"] ?? "").split(";")[0]!;
      const media = route.operation.requestBody.content[contentType];
      if (!media) this.violations.push(`${operation}: request content type ${contentType || "(none)"} is not described`);
      try {
        body = JSON.parse(rawBody);
      } catch {
        this.violations.push(`${operation}: the request body is not JSON`);
      }
      if (media) this.check(`${operation} request body`, this.validator(`${operation} request`, media.schema, true), body);
    } else if (rawBody) this.violations.push(`${operation}: a body where the description has none`);

    const fault = this.faults.get(operation)?.shift();
    const hold = async (held: { onHeld: () => void }) => {
      this.calls.push({ operation, status: "held" });
      const closed = new Promise((resolve) => req.socket.once("close", resolve));
      held.onHeld();
      await closed;
    };
    if (fault && "hold" in fault && fault.hold === "before") return hold(fault);
    if (fault && "delayMs" in fault) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    if (fault && "status" in fault) {
      this.calls.push({ operation, status: fault.status });
      return send(res, fault);
    }
    const answer = this.handlers[operation]?.({ operation, params, query: url.searchParams, headers: req.headers, body, rawBody }) ?? {
      status: 501,
      body: { message: `no handler for ${operation}` },
    };
    if (fault && "hold" in fault) return hold(fault);
    if (fault && "lose" in fault) {
      this.calls.push({ operation, status: "lost" });
      req.socket.destroy();
      return;
    }
    this.calls.push({ operation, status: answer.status });
    const described = route.operation.responses[String(answer.status)];
    if (answer.status < 300) {
      const media = described?.content && Object.values(described.content)[0];
      if (!described) this.violations.push(`${operation}: answer status ${answer.status} is not described`);
      else if (media)
        this.check(`${operation} answer`, this.validator(`${operation} answer ${answer.status}`, media.schema, false), answer.body);
    }
    return send(res, answer, described?.content ? Object.keys(described.content)[0] : undefined);
  }
}

function send(res: ServerResponse, answer: ContractAnswer, contentType = "application/json"): void {
  if (res.destroyed) return;
  const text = answer.body === undefined ? "" : JSON.stringify(answer.body);
  res.writeHead(answer.status, { ...(text && { "content-type": contentType }), ...answer.headers });
  res.end(text);
}
