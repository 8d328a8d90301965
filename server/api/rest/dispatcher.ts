import { randomUUID } from "node:crypto";
import type { AnyTRPCProcedure, AnyTRPCRouter, TRPCProcedureType } from "@trpc/server";
import { forEachOpenApiProcedure } from "trpc-to-openapi";
import type { Db } from "../../db/client";
import { PendingMigrationsError } from "../../db/instance";
import { AppError } from "../../errors";
import { DATABASE_UNAVAILABLE, MIGRATIONS_PENDING } from "../../health";
import { log } from "../../log";
import { logRequest, REQUEST_ID_STAMP } from "../../http/access-log";
import { requestClientAddress } from "../../client-address";
import { isJsonContentType, JSON_REQUIRED } from "../../http/cross-site";
import { REST_BODY_LIMIT } from "../../http/edge-guard";
import type { RestDispatcher, RestRequest, RestResponse } from "../../http/rest-call";
import { observeHttpRequest, UNMATCHED_ROUTE } from "../../metrics/registry";
import { createContext, type Context } from "../context";
import type { AppMeta, EndpointErrors } from "../meta";
import { config } from "../../config";
import { checkBodyFields, inputKeys, type BodyFields } from "./body-fields";
import { toHttpError, type HttpError } from "./errors";
import { procedureCaller, type ProcedureCall } from "./procedure-call";

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);
/** The largest request body the REST API reads (a larger one is answered 413; the production server's guard refuses it before). */
export const MAX_REST_BODY_BYTES = REST_BODY_LIMIT;
/** The unversioned alias of /api/v1/integrations/ that existing integrations still call (docs/api.md, "Prefixes"). */
const LEGACY_PREFIX = "/api/integrations/";
const CURRENT_PREFIX = "/api/v1/integrations/";
const NOT_FOUND = "Not found";

export interface Route {
  method: string;
  pathTemplate: string;
  pattern: RegExp;
  procedurePath: string;
  procedureType: TRPCProcedureType;
  meta: AppMeta;
  errors: EndpointErrors;
  /** The body fields of a POST, PUT or PATCH path (unknown keys are refused: body-fields.ts). */
  bodyFields?: BodyFields;
  /** Runs the procedure's middleware chain (procedure-call.ts). */
  call: ProcedureCall;
}

/**
 * Serves every procedure that has OpenAPI meta as a REST endpoint. trpc-to-openapi supplies
 * the meta and the document; this dispatcher replaces its HTTP handler, which coerces every
 * number and boolean of a JSON body (so {"resolved":"false"} would read as true), refuses an
 * empty POST without a Content-Type, and reshapes messages. Here bodies are taken as JSON,
 * failures get exactly `{success:false, error}`, and statuses come from AppError codes.
 */
export function createRestDispatcher(options: { router: AnyTRPCRouter; getDb: () => Db | Promise<Db> }): RestDispatcher {
  const routes = indexBySegmentCount(buildRouteTable(options.router));

  return async function dispatch(request: RestRequest): Promise<RestResponse> {
    const startedAt = performance.now();
    const method = request.method.toUpperCase();
    const resolved = resolveRoute(routes, method, request.path);
    // Counted under the route's template (docs/operations.md, "Metrics"), never the raw path.
    const route =
      resolved.kind === "none" ? UNMATCHED_ROUTE : resolved.kind === "method" ? resolved.pathTemplate : resolved.route.pathTemplate;
    // The production server's id for the request (a trusted proxy's X-Request-Id, or its own).
    const requestId = stampedRequestId(request.headers) ?? randomUUID();
    let status = 500;
    try {
      const answer = await answerRequest(request, method, resolved, requestId);
      status = answer.status;
      return answer;
    } finally {
      observeHttpRequest(method, route, status, startedAt);
      logRequest({
        method,
        route,
        status,
        durationMs: performance.now() - startedAt,
        requestId,
        client: requestClientAddress(request.headers, config.trustProxy()),
      });
    }
  };

  async function answerRequest(request: RestRequest, method: string, resolved: Resolution, requestId: string): Promise<RestResponse> {
    if (resolved.kind === "none") return errorResponse({ status: 404, message: NOT_FOUND, headers: {} }, requestId);
    if (resolved.kind === "method") {
      const allow = resolved.allowed.join(", ");
      if (method === "OPTIONS") return { status: 204, headers: { Allow: allow }, body: null };
      return errorResponse({ status: 405, message: "Method not allowed", headers: { Allow: allow } }, requestId);
    }
    const { route, params } = resolved;

    let input: Record<string, unknown>;
    let readInput = async () => input;
    if (BODY_METHODS.has(method)) {
      const body = await readJsonBody(request, route.errors.invalidJson ?? "Invalid JSON in request body");
      if ("error" in body) return errorResponse(body.error, requestId);
      input = { ...body.value, ...params };
      const fields = route.bodyFields!;
      const refuseUnknown = config.apiUnknownFields() === "refuse";
      readInput = async () => checkBodyFields(input, fields, refuseUnknown);
    } else {
      input = request.search.length > 1 ? { ...queryObject(new URLSearchParams(request.search)), ...params } : params;
    }

    let ctx: Context | undefined;
    try {
      ctx = createContext(await openDatabaseFor(route, options.getDb), request.headers, requestId);
      // What tRPC's callTRPCProcedure does for one call, with the procedure found once (procedure-call.ts).
      const data = await route.call({
        path: route.procedurePath,
        type: route.procedureType,
        ctx,
        getRawInput: readInput,
        signal: undefined,
        batchIndex: 0,
      });
      const headers = jsonHeaders(requestId);
      for (const name in ctx.response.headers) headers[name] = ctx.response.headers[name]!;
      const body = ctx.response.body ?? JSON.stringify(data);
      return { status: ctx.response.status ?? route.meta.successStatus ?? 200, headers, body };
    } catch (error) {
      const httpError = toHttpError(error, route.errors);
      if (httpError.unexpected !== undefined) {
        (ctx?.log ?? log.child({ requestId })).error("request failed", {
          method,
          path: route.pathTemplate,
          procedure: route.procedurePath,
          error: httpError.unexpected,
        });
      }
      return errorResponse({ ...httpError, headers: { ...ctx?.response.headers, ...httpError.headers } }, requestId);
    }
  }
}

/**
 * The database. A path that documents 503 (readiness) answers 503 when it cannot be opened
 * (unreachable, or refused for a migration this build ships that is not applied), as its own
 * check would; every other path answers its 500 failure text (docs/api.md, "Answers").
 */
async function openDatabaseFor(route: Route, getDb: () => Db | Promise<Db>): Promise<Db> {
  try {
    return await getDb();
  } catch (error) {
    if (!route.meta.responses?.[503]) throw error;
    log.error("the database cannot be opened", { error });
    throw new AppError("UNAVAILABLE", error instanceof PendingMigrationsError ? MIGRATIONS_PENDING : DATABASE_UNAVAILABLE);
  }
}

/** The dispatcher as a fetch handler: the REST route of the Next.js app (app/api/[...path]/route.ts). */
export function fetchRestHandler(dispatch: RestDispatcher): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const answer = await dispatch({
      method: request.method,
      path: url.pathname,
      search: url.search,
      headers: request.headers,
      readBody: (limit) => readAtMost(request, limit),
    });
    const body = typeof answer.body === "string" || answer.body === null ? answer.body : new Uint8Array(answer.body);
    return new Response(body, { status: answer.status, headers: answer.headers });
  };
}

export function buildRouteTable(router: AnyTRPCRouter): Route[] {
  const routes: Route[] = [];
  forEachOpenApiProcedure(router._def.procedures, ({ path: procedurePath, type: procedureType, meta, procedure }) => {
    const appMeta = meta as AppMeta;
    const openapi = appMeta.openapi!;
    if (!appMeta.errors?.failure) {
      throw new Error(`REST procedure ${procedurePath} has no errors.failure message in its meta`);
    }
    const pathTemplate = openapi.path.replace(/\/+$/, "");
    const pattern = new RegExp("^" + pathTemplate.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, "(?<$1>[^/]+)") + "$");
    let bodyFields: BodyFields | undefined;
    if (BODY_METHODS.has(openapi.method)) {
      const known = inputKeys((procedure as { _def: { inputs: unknown[] } })._def.inputs);
      if (!known) throw new Error(`REST procedure ${procedurePath}: the fields of its input cannot be listed (unknown keys are refused)`);
      bodyFields = { known, ignored: new Set(appMeta.ignoredFields ?? []) };
    }
    routes.push({
      method: openapi.method,
      pathTemplate,
      pattern,
      procedurePath,
      procedureType,
      meta: appMeta,
      errors: appMeta.errors,
      bodyFields,
      call: procedureCaller(procedure as AnyTRPCProcedure),
    });
  });
  // Literal segments win over parameters: /webhooks/secrets before /webhooks/{id}.
  routes.sort((a, b) => literalWeight(b.pathTemplate) - literalWeight(a.pathTemplate));
  return routes;
}

function literalWeight(template: string): number {
  return template.split("/").filter((segment) => segment && !segment.startsWith("{")).length;
}

/** The routes by the number of segments of their path (a parameter matches one segment), each list in the table's order. */
type RouteIndex = Map<number, Route[]>;

function indexBySegmentCount(routes: Route[]): RouteIndex {
  const index: RouteIndex = new Map();
  for (const route of routes) {
    const count = segmentCount(route.pathTemplate);
    const sameCount = index.get(count);
    if (sameCount) sameCount.push(route);
    else index.set(count, [route]);
  }
  return index;
}

function segmentCount(path: string): number {
  let count = 0;
  for (let at = path.indexOf("/"); at !== -1; at = path.indexOf("/", at + 1)) count++;
  return count;
}

type Resolution =
  | { kind: "route"; route: Route; params: Record<string, string> }
  | { kind: "method"; allowed: string[]; pathTemplate: string }
  | { kind: "none" };

function resolveRoute(routes: RouteIndex, method: string, rawPath: string): Resolution {
  const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, "") : rawPath;
  const direct = matchPath(routes, method, path);
  if (direct.kind !== "none" || !path.startsWith(LEGACY_PREFIX)) return direct;
  return matchPath(routes, method, CURRENT_PREFIX + path.slice(LEGACY_PREFIX.length));
}

function matchPath(routes: RouteIndex, method: string, path: string): Resolution {
  const allowed: string[] = [];
  let pathTemplate = "";
  for (const route of routes.get(segmentCount(path)) ?? []) {
    const match = route.pattern.exec(path);
    if (!match) continue;
    if (route.method === method || (method === "HEAD" && route.method === "GET")) {
      const params: Record<string, string> = {};
      const groups = match.groups;
      for (const name in groups) params[name] = safeDecode(groups[name]!);
      return { kind: "route", route, params };
    }
    allowed.push(route.method);
    pathTemplate ||= route.pathTemplate;
  }
  return allowed.length > 0 ? { kind: "method", allowed: [...new Set(allowed)], pathTemplate } : { kind: "none" };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function queryObject(searchParams: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(searchParams.keys())) {
    const values = searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0]! : values;
  }
  return query;
}

/**
 * The body as a JSON object (docs/api.md, "Request bodies"): a declared Content-Type must be JSON
 * (415 otherwise, the body unread as data); a missing or blank body is an empty object.
 */
async function readJsonBody(
  request: RestRequest,
  invalidJsonMessage: string,
): Promise<{ value: Record<string, unknown> } | { error: HttpError }> {
  const declaredLength = Number(request.headers.get("content-length") ?? 0);
  if (declaredLength > MAX_REST_BODY_BYTES) return { error: tooLarge() };
  const bytes = await request.readBody(MAX_REST_BODY_BYTES);
  if (bytes === undefined) return { error: tooLarge() };
  // No Content-Type is read as JSON: existing clients send body-less POSTs so.
  if (!isJsonContentType(request.headers.get("content-type"), true)) return { error: { status: 415, message: JSON_REQUIRED, headers: {} } };
  const text = new TextDecoder().decode(bytes);
  if (text.trim() === "") return { value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: { status: 400, message: invalidJsonMessage, headers: {} } };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { error: { status: 400, message: "Request body must be a JSON object", headers: {} } };
  }
  return { value: value as Record<string, unknown> };
}

/** The body's bytes, or undefined as soon as there are more than `limit` (the rest is not read). */
async function readAtMost(request: Request, limit: number): Promise<Uint8Array | undefined> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
}

function tooLarge(): HttpError {
  return { status: 413, message: `Request body too large (limit ${MAX_REST_BODY_BYTES} bytes)`, headers: {} };
}

/** Names in lower case, as Node and fetch give them: the production server writes them as they are. */
function jsonHeaders(requestId: string): Record<string, string> {
  return { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "x-request-id": requestId };
}

function errorResponse(error: HttpError, requestId: string): RestResponse {
  return {
    status: error.status,
    headers: { ...jsonHeaders(requestId), ...error.headers },
    body: JSON.stringify({ success: false, error: error.message }),
  };
}

function stampedRequestId(headers: RestRequest["headers"]): string | undefined {
  return headers.get(REQUEST_ID_STAMP) || undefined;
}
