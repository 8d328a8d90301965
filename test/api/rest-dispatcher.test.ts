import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createRestDispatcher, fetchRestHandler } from "../../server/api/rest/dispatcher";
import type { RestDispatcher } from "../../server/http/rest-call";
import { distributorProcedure, partnerOrDistributorProcedure, partnerProcedure, publicProcedure, router } from "../../server/api/trpc";
import { AppError } from "../../server/errors";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { apiClient, serveOnLoopback, serveRestOnLoopback, type LoopbackServer } from "../helpers/http";
import { rawRequest } from "../helpers/raw-http";

const echo = publicProcedure
  .meta({
    openapi: { method: "POST", path: "/api/v1/integrations/test/echo" },
    errors: { failure: "Failed to echo", invalidJson: "Request body must be valid JSON" },
  })
  .input(z.object({ name: z.string().min(1).optional(), count: z.number().int().optional(), flag: z.boolean().optional() }))
  .output(z.any())
  .mutation(({ input }) => ({ success: true, input }));

const pathParam = publicProcedure
  .meta({
    openapi: { method: "GET", path: "/api/v1/integrations/test/items/{itemId}" },
    errors: { failure: "Failed to get item", validation: { prefix: "Invalid route parameters: " } },
  })
  .input(z.object({ itemId: z.string().regex(/^\d+$/, "Item ID must be a number") }))
  .output(z.any())
  .query(({ input }) => ({ success: true, itemId: input.itemId }));

const fieldStyle = publicProcedure
  .meta({
    openapi: { method: "GET", path: "/api/v1/integrations/test/pages" },
    errors: { failure: "Internal server error", validation: "field" },
  })
  .input(z.object({ page: z.coerce.number().int().min(1).default(1) }))
  .output(z.any())
  .query(({ input }) => ({ success: true, page: input.page }));

const throwing = publicProcedure
  .meta({ openapi: { method: "POST", path: "/api/v1/integrations/test/throw" }, errors: { failure: "Failed to do the thing" } })
  .input(z.object({ kind: z.string() }))
  .output(z.any())
  .mutation(({ input, ctx }) => {
    if (input.kind === "conflict") throw new AppError("CONFLICT", "Thing is already done");
    if (input.kind === "unprocessable") throw new AppError("UNPROCESSABLE", "Thing cannot be done: wrong state");
    if (input.kind === "not-found") throw new AppError("NOT_FOUND", "Thing not found");
    if (input.kind === "rate") throw new AppError("RATE_LIMITED", "Too many requests", { "Retry-After": "7" });
    if (input.kind === "status") {
      ctx.response.status = 201;
      ctx.response.headers["X-Extra"] = "yes";
      return { success: true };
    }
    throw new Error("database password is hunter2");
  });

const badOutput = publicProcedure
  .meta({ openapi: { method: "GET", path: "/api/v1/integrations/test/bad-output" }, errors: { failure: "Failed to produce" } })
  .input(z.object({}))
  .output(z.object({ success: z.literal(true) }))
  .query(() => ({ success: false }) as never);

const legacyOnly = publicProcedure
  .meta({ openapi: { method: "GET", path: "/api/integrations/test/legacy" }, errors: { failure: "Failed legacy" } })
  .input(z.object({}))
  .output(z.any())
  .query(() => ({ success: true, surface: "legacy" }));

const currentOnly = publicProcedure
  .meta({ openapi: { method: "GET", path: "/api/v1/integrations/test/legacy" }, errors: { failure: "Failed current" } })
  .input(z.object({}))
  .output(z.any())
  .query(() => ({ success: true, surface: "current" }));

const partnerOnly = partnerProcedure
  .meta({ openapi: { method: "GET", path: "/api/v1/integrations/test/partner-only" }, errors: { failure: "Failed" } })
  .input(z.object({}))
  .output(z.any())
  .query(({ ctx }) => ({ success: true, caller: ctx.caller }));

const onBehalf = partnerOrDistributorProcedure
  .meta({ openapi: { method: "GET", path: "/api/v1/integrations/test/on-behalf" }, errors: { failure: "Failed" } })
  .input(z.object({}))
  .output(z.any())
  .query(({ ctx }) => ({ success: true, caller: ctx.caller }));

const distributorOnly = distributorProcedure
  .meta({ openapi: { method: "GET", path: "/api/v1/distributors/test" }, errors: { failure: "Failed" } })
  .input(z.object({}))
  .output(z.any())
  .query(({ ctx }) => ({ success: true, caller: ctx.caller }));

const testRouter = router({
  echo,
  pathParam,
  fieldStyle,
  throwing,
  badOutput,
  legacyOnly,
  currentOnly,
  partnerOnly,
  onBehalf,
  distributorOnly,
});

let testDb: TestDatabase;
let dispatch: RestDispatcher;
let servers: LoopbackServer[] = [];
const apis = new Map<Transport, ReturnType<typeof apiClient>>();
let api: ReturnType<typeof apiClient>;
let org: TestOrg;
let otherOrg: TestOrg;

beforeAll(async () => {
  testDb = await createTestDatabase();
  dispatch = createRestDispatcher({ router: testRouter, getDb: () => testDb.db });
  // The production server's own path for plain REST paths, and the Next.js route's (fetch) for the rest.
  const node = await serveRestOnLoopback(dispatch);
  const fetch = await serveOnLoopback(fetchRestHandler(dispatch));
  servers = [node, fetch];
  apis.set("node", apiClient(node.baseUrl)).set("fetch", apiClient(fetch.baseUrl));
  org = await createTestOrg(testDb.db);
  otherOrg = await createTestOrg(testDb.db);
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await testDb?.close();
});

type Transport = "node" | "fetch";

describe.each<Transport>(["node", "fetch"])("through the %s transport", (transport) => {
  beforeAll(() => {
    api = apis.get(transport)!;
  });

  describe("request bodies", () => {
    it("passes JSON values through without coercion", async () => {
      const res = await api.post("/api/v1/integrations/test/echo", { name: "a", count: 3, flag: false });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, input: { name: "a", count: 3, flag: false } });
    });

    it("refuses a string where a boolean belongs instead of reading 'false' as true", async () => {
      const res = await api.post("/api/v1/integrations/test/echo", { flag: "false" });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: "Validation failed: flag: Invalid input: expected boolean, received string" });
    });

    it("answers invalid JSON with the endpoint's own message", async () => {
      const res = await api.post("/api/v1/integrations/test/echo", "{not json");
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: "Request body must be valid JSON" });
    });

    it("uses the default invalid-JSON message where the endpoint has none", async () => {
      const res = await api.post("/api/v1/integrations/test/throw", "[1,");
      expect(res.body).toEqual({ success: false, error: "Invalid JSON in request body" });
    });

    it("treats a missing body as an empty object, with or without a Content-Type", async () => {
      const withType = await api.call("POST", "/api/v1/integrations/test/echo", { headers: { "content-type": "application/json" } });
      expect(withType.status).toBe(200);
      expect(withType.body).toEqual({ success: true, input: {} });
      const without = await api.call("POST", "/api/v1/integrations/test/echo");
      expect(without.status).toBe(200);
    });

    it.each([
      ["text/plain", '{"name":"a"}'],
      ["application/x-www-form-urlencoded", "name=a"],
      ["multipart/form-data; boundary=x", "--x--"],
      ["text/plain", ""],
    ])("refuses a body declared as %s with 415, whatever it holds", async (contentType, body) => {
      const res = await api.call("POST", "/api/v1/integrations/test/echo", { headers: { "content-type": contentType }, body });
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ success: false, error: "Content-Type must be application/json" });
    });

    it.each(["application/json; charset=utf-8", "APPLICATION/JSON", "application/merge-patch+json", "application/vnd.api+json"])(
      "reads a body declared as %s as JSON",
      async (contentType) => {
        const res = await api.call("POST", "/api/v1/integrations/test/echo", {
          headers: { "content-type": contentType },
          body: '{"name":"a"}',
        });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ success: true, input: { name: "a" } });
      },
    );

    it("refuses a JSON body that is not an object", async () => {
      const res = await api.post("/api/v1/integrations/test/echo", "[1,2]");
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: "Request body must be a JSON object" });
    });

    it("refuses a body over the size limit with 413", async () => {
      const res = await api.post("/api/v1/integrations/test/echo", { name: "x".repeat(1_100_000) });
      expect(res.status).toBe(413);
      expect(res.body.success).toBe(false);
    });
  });

  describe("validation messages", () => {
    it("formats 'Validation failed: field: message' by default", async () => {
      const res = await api.post("/api/v1/integrations/test/echo", { name: "" });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("Validation failed: name: Too small: expected string to have >=1 characters");
    });

    it("uses the endpoint's prefix style", async () => {
      const res = await api.get("/api/v1/integrations/test/items/abc");
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: "Invalid route parameters: Item ID must be a number" });
    });

    it("uses the field style for query parameters", async () => {
      const res = await api.get("/api/v1/integrations/test/pages?page=0");
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: "page: Too small: expected number to be >=1" });
      expect((await api.get("/api/v1/integrations/test/pages?page=3")).body).toEqual({ success: true, page: 3 });
    });
  });

  describe("failures", () => {
    it.each([
      ["conflict", 409, "Thing is already done"],
      ["unprocessable", 422, "Thing cannot be done: wrong state"],
      ["not-found", 404, "Thing not found"],
      ["rate", 429, "Too many requests"],
    ])("maps AppError %s to %i", async (kind, status, message) => {
      const res = await api.post("/api/v1/integrations/test/throw", { kind });
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ success: false, error: message });
    });

    it("carries AppError headers such as Retry-After", async () => {
      const res = await api.post("/api/v1/integrations/test/throw", { kind: "rate" });
      expect(res.headers.get("retry-after")).toBe("7");
    });

    it("turns an unexpected error into a 500 with the endpoint's message, details only in the log", async () => {
      const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
      try {
        const res = await api.post("/api/v1/integrations/test/throw", { kind: "boom" });
        expect(res.status).toBe(500);
        expect(res.body).toEqual({ success: false, error: "Failed to do the thing" });
        expect(JSON.stringify(res.body)).not.toContain("hunter2");
        const logged = stderr.mock.calls.map((call) => String(call[0])).join("");
        expect(logged).toContain("hunter2");
        expect(logged).toContain(res.headers.get("x-request-id"));
      } finally {
        stderr.mockRestore();
      }
    });

    it("treats an output that breaks its schema as a server error", async () => {
      const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
      try {
        const res = await api.get("/api/v1/integrations/test/bad-output");
        expect(res.status).toBe(500);
        expect(res.body).toEqual({ success: false, error: "Failed to produce" });
      } finally {
        stderr.mockRestore();
      }
    });

    it("lets a procedure set the success status and headers", async () => {
      const res = await api.post("/api/v1/integrations/test/throw", { kind: "status" });
      expect(res.status).toBe(201);
      expect(res.headers.get("x-extra")).toBe("yes");
    });
  });

  describe("routing", () => {
    it("answers an unknown path with 404 in the envelope", async () => {
      const res = await api.get("/api/v1/integrations/nothing-here");
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: "Not found" });
    });

    it("answers a known path with the wrong method with 405 and Allow", async () => {
      const res = await api.call("DELETE", "/api/v1/integrations/test/echo");
      expect(res.status).toBe(405);
      expect(res.body).toEqual({ success: false, error: "Method not allowed" });
      expect(res.headers.get("allow")).toBe("POST");
    });

    it("serves the unversioned prefix as an alias of /api/v1, unless it has its own procedure", async () => {
      const alias = await api.post("/api/integrations/test/echo", { name: "x" });
      expect(alias.status).toBe(200);
      expect(alias.body.input).toEqual({ name: "x" });
      expect((await api.get("/api/integrations/test/legacy")).body.surface).toBe("legacy");
      expect((await api.get("/api/v1/integrations/test/legacy")).body.surface).toBe("current");
    });

    it("ignores a trailing slash", async () => {
      expect((await api.get("/api/v1/integrations/test/pages/")).status).toBe(200);
    });
  });

  describe("procedure types decide who may call", () => {
    it("partnerProcedure: the partner's key only", async () => {
      expect((await api.get("/api/v1/integrations/test/partner-only", org.partner.headers)).body.caller).toMatchObject({
        partnerId: org.partner.id,
        distributorId: org.distributor.id,
        keyOwner: "partner",
      });
      const res = await api.get("/api/v1/integrations/test/partner-only", org.onBehalfHeaders);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("Failed to verify org API key");
    });

    it("partnerOrDistributorProcedure: the partner's key, or its own distributor's key on its behalf", async () => {
      expect((await api.get("/api/v1/integrations/test/on-behalf", org.partner.headers)).status).toBe(200);
      const res = await api.get("/api/v1/integrations/test/on-behalf", org.onBehalfHeaders);
      expect(res.status).toBe(200);
      expect(res.body.caller).toMatchObject({ partnerId: org.partner.id, distributorId: org.distributor.id, keyOwner: "distributor" });
    });

    it("partnerOrDistributorProcedure: refuses a distributor key for another distributor's partner", async () => {
      const res = await api.get("/api/v1/integrations/test/on-behalf", {
        "SW-PARTNER-ID": otherOrg.partner.id,
        "SW-API-KEY": org.distributor.apiKey,
      });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, error: "Failed to verify org API key" });
    });

    it("distributorProcedure: the distributor's key only", async () => {
      expect((await api.get("/api/v1/distributors/test", org.distributor.headers)).body.caller).toMatchObject({
        distributorId: org.distributor.id,
      });
      expect((await api.get("/api/v1/distributors/test", org.partner.headers)).status).toBe(401);
    });
  });
});

describe("the transports' own handling", () => {
  it("fetch: stops reading a body without a declared length once it passes the limit", async () => {
    const handler = fetchRestHandler(dispatch);
    const chunk = new TextEncoder().encode(" ".repeat(64 * 1024));
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(chunk);
      },
    });
    const response = await handler(
      new Request("http://localhost/api/v1/integrations/test/echo", { method: "POST", body: endless, duplex: "half" } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ success: false, error: "Request body too large (limit 1000000 bytes)" });
    expect(pulled).toBeLessThan(40);
  });

  it("node: refuses a chunked body without a declared length once it passes the limit, and still serves the next call", async () => {
    const node = servers[0]!;
    const chunks = Array.from({ length: 20 }, () => Buffer.from(" ".repeat(64 * 1024)));
    const res = await rawRequest(node.baseUrl, { method: "POST", path: "/api/v1/integrations/test/echo", chunks });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body.toString())).toEqual({ success: false, error: "Request body too large (limit 1000000 bytes)" });
    expect((await apis.get("node")!.post("/api/v1/integrations/test/echo", { name: "after" })).body.input).toEqual({ name: "after" });
  });

  it("node: joins a repeated header as fetch does, so a doubled key is refused rather than half-read", async () => {
    const res = await rawRequest(servers[0]!.baseUrl, {
      path: "/api/v1/integrations/test/partner-only",
      headers: { "sw-partner-id": org.partner.id, "sw-api-key": [org.partner.headers["SW-API-KEY"]!, "sk_live_other"] },
    });
    expect(res.status).toBe(401);
  });

  it("answers with the endpoint's failure message when the database cannot be opened", async () => {
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const unopenable = createRestDispatcher({
        router: testRouter,
        getDb: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:5432")),
      });
      const response = await unopenable({
        method: "POST",
        path: "/api/v1/integrations/test/echo",
        search: "",
        headers: new Headers(),
        readBody: async () => new Uint8Array(),
      });
      expect(response.status).toBe(500);
      expect(JSON.parse(response.body as string)).toEqual({ success: false, error: "Failed to echo" });
      expect(stderr.mock.calls.map((call) => String(call[0])).join("")).toContain("ECONNREFUSED");
    } finally {
      stderr.mockRestore();
    }
  });
});
