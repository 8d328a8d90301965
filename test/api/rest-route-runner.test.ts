import { initTRPC } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildRouteTable } from "../../server/api/rest/dispatcher";
import { procedureCaller } from "../../server/api/rest/procedure-call";
import { appRouter } from "../../server/api/root";

/**
 * The REST path's one-step runner (docs/measures.md, "Choices in the code") depends on how tRPC
 * lays out a procedure's definition. If an upgrade changes that, procedureCaller falls back to a
 * slower runner with the same answers; this test makes the fallback fail CI instead.
 */
describe("the REST route table", () => {
  it("calls every procedure through the one-step runner, never a fallback", () => {
    const routes = buildRouteTable(appRouter);
    expect(routes.length).toBeGreaterThan(50);
    const fallbacks = routes
      .filter((route) => route.call.runner !== "one-step")
      .map((route) => `${route.method} ${route.pathTemplate}: ${route.call.runner}`);
    expect(fallbacks).toEqual([]);
  });

  it("names the fallbacks it would take, so the check above can fail", () => {
    const t = initTRPC.create();
    const oneStep = t.procedure.input(z.object({ a: z.string() })).query(() => "ok");
    // A middleware after the input parser: the chain's end is not the shape the one-step runner folds.
    const middlewareAfterInput = t.procedure
      .input(z.object({ a: z.string() }))
      .use(({ next }) => next())
      .query(() => "ok");
    const withCaller = Object.assign(Object.create(oneStep), { _def: { ...oneStep._def, caller: () => "ok" } });
    expect(procedureCaller(oneStep).runner).toBe("one-step");
    expect(procedureCaller(middlewareAfterInput).runner).toBe("chain");
    expect(procedureCaller(withCaller).runner).toBe("trpc");
  });
});
