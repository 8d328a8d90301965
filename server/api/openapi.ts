import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { INVALID_API_KEY, MISSING_DISTRIBUTOR_HEADERS, MISSING_PARTNER_HEADERS } from "../auth/api-keys";
import type { AuthKind } from "./meta";
import { CURRENT_EVENTS_TAG, LEGACY_EVENTS_TAG, webhookEventsSection } from "./openapi-webhooks";
import { buildRouteTable, type Route } from "./rest/dispatcher";
import { appRouter } from "./root";

type Operation = {
  security?: Array<Record<string, string[]>>;
  description?: string;
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
};

const DESCRIPTION = `REST API of the exposure-monitoring integration service.

* **Partner API** (\`/api/v1/integrations/...\`): headers \`SW-PARTNER-ID\` (the partner's uuid) and \`SW-API-KEY\`.
  Every partner path is also served under the unversioned prefix \`/api/integrations/...\` with the same behaviour,
  except webhook management, whose unversioned surface is the earlier protocol.
* **Distributor API** (\`/api/v1/distributors/...\`): headers \`SW-DISTRIBUTOR-ID\` and \`SW-API-KEY\`.
* Every failure answers \`{"success": false, "error": "<message>"}\`; get-partner, update-partner and
  get-billing-code answer the bare record on success, every other endpoint carries \`success: true\`.
* A POST without a body is taken as an empty JSON object.
* **Webhooks**: the events the service POSTs to registered endpoints, of both protocols, are in this document's
  \`webhooks\` section, each with its body and the headers of its protocol and signature scheme. What a receiver must
  answer, with complete receivers in TypeScript, Python and PHP: [Receive webhooks](/docs/webhooks#receive-webhooks).

Guides: [conventions, keys and errors](/docs/api), [customers](/docs/customers), [breaches](/docs/breaches),
[webhooks](/docs/webhooks), [customer portal](/docs/portal), [distributors](/docs/distributors).`;

const BODY_METHODS = new Set(["post", "put", "patch"]);

/** The document's top-level tags, in the order readers see them; every tag an operation or event uses is here. */
const TAGS: Array<{ name: string; description: string }> = [
  { name: "General", description: "Paths every caller shares, such as the service's health." },
  {
    name: "Partner: customers",
    description: "Onboard, read, change and remove a partner's customers, their domains and monitored addresses.",
  },
  { name: "Partner: breaches", description: "A customer's breach exposure: findings, checks of an address, scans, the threat score." },
  { name: "Partner: analytics", description: "Figures across a partner's customers." },
  { name: "Partner: plans", description: "The plans a partner may give its customers." },
  { name: "Partner: brand", description: "The partner's own look in its customers' portal, e-mails and PDFs, and its portal host." },
  { name: "Partner: webhooks", description: "Register and manage the endpoints the service sends signed events to." },
  {
    name: "Partner: chat and SIEM channels",
    description: "Slack, Microsoft Teams and syslog (CEF) channels that are told about findings, each finding once.",
  },
  {
    name: "Partner: PSA",
    description: "Connect the partner's PSA (ConnectWise PSA, Autotask, HaloPSA) and map customers to its companies.",
  },
  {
    name: "Partner: webhooks (earlier protocol)",
    description: "Webhook management of the earlier protocol, under the unversioned prefix.",
  },
  { name: "Distributor: partners", description: "Create, read and change a distributor's partners and their keys." },
  { name: "Distributor: partner API keys", description: "Issue and revoke a partner's API keys." },
  { name: "Distributor: plans", description: "The plans a distributor offers its partners." },
  { name: "Distributor: brand", description: "The default look of the distributor's partners that set no brand of their own." },
  { name: "Distributor: billing codes", description: "Billing codes and their prices." },
  { name: "Distributor: webhooks", description: "A distributor's webhook endpoints." },
  { name: "Distributor: audit log", description: "Who changed what in a distributor's organization." },
  {
    name: CURRENT_EVENTS_TAG,
    description: "The events the service POSTs to registered endpoints, signed ([Receive webhooks](/docs/webhooks#receive-webhooks)).",
  },
  { name: LEGACY_EVENTS_TAG, description: "The events of the earlier webhook protocol, for endpoints registered with it." },
];

/** The tags used by operations and events must all be described: an undescribed one is a build error. */
function withTopLevelTags(document: OpenAPIObject): OpenAPIObject {
  const used = new Set<string>();
  for (const section of [document.paths ?? {}, document.webhooks ?? {}]) {
    for (const item of Object.values(section)) {
      for (const operation of Object.values(item ?? {})) {
        for (const tag of (operation as { tags?: string[] } | undefined)?.tags ?? []) used.add(tag);
      }
    }
  }
  const undescribed = [...used].filter((tag) => !TAGS.some(({ name }) => name === tag));
  if (undescribed.length > 0) throw new Error(`OpenAPI tags without a description in server/api/openapi.ts: ${undescribed.join(", ")}`);
  document.tags = TAGS.filter(({ name }) => used.has(name));
  return document;
}

/**
 * The OpenAPI 3.1 document of every REST endpoint, generated by trpc-to-openapi from the
 * procedures' zod schemas, then corrected to what the dispatcher really answers: header
 * credentials per procedure type, the {success:false, error} envelope with each endpoint's own
 * messages, and the statuses of server/errors.ts. The `webhooks` section (the events the service
 * sends) is generated from the schemas every webhook body is built with (openapi-webhooks.ts).
 */
export function buildOpenApiDocument(baseUrl: string): OpenAPIObject {
  const document = generateOpenApiDocument(appRouter, {
    title: "Exposure monitoring integration API",
    version: "1.0.0",
    baseUrl,
    description: DESCRIPTION,
    securitySchemes: {
      PartnerId: { type: "apiKey", in: "header", name: "SW-PARTNER-ID", description: "The partner's uuid" },
      DistributorId: { type: "apiKey", in: "header", name: "SW-DISTRIBUTOR-ID", description: "The distributor's uuid" },
      ApiKey: {
        type: "apiKey",
        in: "header",
        name: "SW-API-KEY",
        description:
          "An API key of that organization: `expmon_p_` (partner) or `expmon_d_` (distributor) and 46 letters and digits, the last 6 a checksum; earlier `sk_live_` keys keep working",
      },
    },
  });
  document.components ??= {};
  // trpc-to-openapi registers its own {message, code, issues} error schemas; the API never answers them.
  const schemas = Object.fromEntries(Object.entries(document.components.schemas ?? {}).filter(([name]) => !name.startsWith("error.")));
  const events = webhookEventsSection();
  for (const [name, schema] of Object.entries(events.schemas)) {
    if (name in schemas && JSON.stringify(schemas[name]) !== JSON.stringify(schema)) {
      throw new Error(`OpenAPI schema "${name}" is defined both by a REST endpoint and by a webhook event, differently`);
    }
  }
  document.webhooks = events.webhooks as OpenAPIObject["webhooks"];
  document.components.schemas = {
    ...schemas,
    ...(events.schemas as typeof schemas),
    ErrorEnvelope: {
      type: "object",
      required: ["success", "error"],
      additionalProperties: false,
      properties: { success: { type: "boolean", const: false }, error: { type: "string" } },
    },
  };
  document.components.headers = { ...document.components.headers, ...RESPONSE_HEADERS };
  for (const route of buildRouteTable(appRouter)) {
    const operation = document.paths?.[route.pathTemplate]?.[route.method.toLowerCase() as "get"] as Operation | undefined;
    if (!operation) continue;
    correctOperation(operation, route);
  }
  return linkGuides(withoutSafeIntegerBounds(withTopLevelTags(document)), baseUrl);
}

/**
 * zod writes every `.int()` as `minimum: -9007199254740991, maximum: 9007199254740991` (the safe
 * integers); they say nothing a reader needs and hide the real bounds, so they are dropped.
 */
function withoutSafeIntegerBounds<T>(document: T): T {
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== "object" || node === null) return;
    const record = node as Record<string, unknown>;
    if (record.type === "integer") {
      if (record.minimum === Number.MIN_SAFE_INTEGER) delete record.minimum;
      if (record.maximum === Number.MAX_SAFE_INTEGER) delete record.maximum;
    }
    Object.values(record).forEach(visit);
  };
  visit(document);
  return document;
}

/**
 * Descriptions link to the guides the instance serves (`](/docs/webhooks#...)`); made absolute with
 * the instance's address, so they work wherever the document is read.
 */
function linkGuides<T>(document: T, baseUrl: string): T {
  const origin = baseUrl.replace(/\/+$/, "");
  return JSON.parse(JSON.stringify(document).replaceAll("](/docs/", `](${origin}/docs/`)) as T;
}

/**
 * The headers the dispatcher answers with: X-Request-Id on every answer (docs/api.md, "Answers"),
 * the others on a rate-limited path's answers (AppMeta.rateLimited; docs/api.md, "Rate limits").
 */
const RESPONSE_HEADERS = {
  "X-Request-Id": {
    description: "The request's id, on every answer; the server's log lines for the request carry it too.",
    required: true,
    schema: { type: "string" as const, format: "uuid", example: "0b5f0c1e-3a52-4a8e-9c1d-2f6f3f0d9a10" },
  },
  "RateLimit-Policy": {
    description:
      'The quota policy (draft-ietf-httpapi-ratelimit-headers): the policy\'s name, q the calls allowed per window, w the window in seconds, e.g. `"breach-check";q=60;w=60`.',
    schema: { type: "string" as const, example: '"breach-check";q=60;w=60' },
  },
  RateLimit: {
    description:
      'The caller\'s state under that policy: r the calls left in the current window, t the seconds until it resets, e.g. `"breach-check";r=59;t=30`.',
    schema: { type: "string" as const, example: '"breach-check";r=59;t=30' },
  },
  "Retry-After": {
    description: "Seconds until the window resets and calls are allowed again.",
    schema: { type: "integer" as const, minimum: 1, example: 30 },
  },
};
const headerRef = (name: keyof typeof RESPONSE_HEADERS) => ({ $ref: `#/components/headers/${name}` });

function correctOperation(operation: Operation, route: Route) {
  const auth: AuthKind = route.meta.auth ?? "none";
  operation.security = securityOf(auth);
  if (auth === "partnerOrDistributor") {
    operation.description = [
      operation.description,
      "A distributor may call this endpoint on behalf of one of its own partners: `SW-PARTNER-ID` names the partner, `SW-API-KEY` is the distributor's key.",
    ]
      .filter(Boolean)
      .join("\n\n");
  }
  const success = route.meta.produces
    ? {
        description: `The ${route.meta.produces === "application/pdf" ? "PDF" : "file"}, with a Content-Disposition file name`,
        content: { [route.meta.produces]: { schema: { type: "string", format: "binary" } } },
      }
    : operation.responses["200"];
  const successStatus = String(route.meta.successStatus ?? 200);
  const hasInput = Boolean(operation.requestBody) || (operation.parameters?.length ?? 0) > 0;
  const errors: Record<string, string[]> = {};
  const add = (status: number, message: string) => (errors[status] ??= []).push(message);

  if (BODY_METHODS.has(route.method.toLowerCase())) add(400, route.errors.invalidJson ?? "Invalid JSON in request body");
  if (hasInput && !route.meta.responses?.[400]) add(400, "Validation failed: <field>: <message>");
  if (auth !== "none") {
    add(401, auth === "distributor" ? MISSING_DISTRIBUTOR_HEADERS : MISSING_PARTNER_HEADERS);
    add(401, INVALID_API_KEY);
  }
  for (const [status, messages] of Object.entries(route.meta.responses ?? {})) {
    for (const message of [messages].flat()) add(Number(status), message);
  }
  add(500, route.errors.failure);

  operation.responses = { [successStatus]: success };
  for (const [status, messages] of Object.entries(errors)) {
    operation.responses[status] = {
      description: messages.join(" | "),
      content: {
        "application/json": {
          schema: { $ref: "#/components/schemas/ErrorEnvelope" },
          examples: Object.fromEntries(
            messages.map((message, index) => [`example${index + 1}`, { value: { success: false, error: message } }]),
          ),
        },
      },
    };
  }
  for (const [status, response] of Object.entries(operation.responses) as Array<[string, { headers?: Record<string, unknown> }]>) {
    response.headers = { ...response.headers, "X-Request-Id": headerRef("X-Request-Id") };
    // Every answer once the call is counted, i.e. after the credentials: not a 401.
    if (route.meta.rateLimited && status !== "401") {
      response.headers = { ...response.headers, "RateLimit-Policy": headerRef("RateLimit-Policy"), RateLimit: headerRef("RateLimit") };
    }
    if (status === "429") response.headers["Retry-After"] = headerRef("Retry-After");
  }
}

function securityOf(auth: AuthKind): Array<Record<string, string[]>> {
  if (auth === "none") return [];
  if (auth === "distributor") return [{ DistributorId: [], ApiKey: [] }];
  return [{ PartnerId: [], ApiKey: [] }];
}
