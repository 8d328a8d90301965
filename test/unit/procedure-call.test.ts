import { callTRPCProcedure, initTRPC, TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { procedureCaller } from "../../server/api/rest/procedure-call";

const t = initTRPC.context<{ tenant: string }>().create();
const seen: unknown[] = [];
const withUser = t.procedure
  .use(async ({ ctx, next }) => next({ ctx: { user: `${ctx.tenant}:ada` } }))
  .use(async ({ ctx, getRawInput, next }) => {
    seen.push({ ctx, raw: await getRawInput() });
    return next();
  });
const router = t.router({
  greet: withUser
    .input(z.object({ name: z.string().min(2) }))
    .output(z.object({ text: z.string() }))
    .query(({ ctx, input }) => ({ text: `${ctx.user} greets ${input.name}` })),
  fail: withUser.query(() => {
    throw new Error("boom");
  }),
  badOutput: withUser.output(z.object({ n: z.number() })).query(() => ({ n: "one" }) as unknown as { n: number }),
});

/** What both runners get for one call of `path` (a query) with `rawInput`. */
function callOptions(path: string, rawInput: unknown) {
  return { ctx: { tenant: "acme" }, path, type: "query" as const, getRawInput: async () => rawInput, signal: undefined, batchIndex: 0 };
}

/** One call both ways: tRPC's own runner and the dispatcher's, with the same options. */
async function bothWays(path: "greet" | "fail" | "badOutput", rawInput: unknown) {
  const options = callOptions(path, rawInput);
  const settle = (promise: Promise<unknown>) =>
    promise.then(
      (data) => ({ data }),
      (error: unknown) => ({ error }),
    );
  seen.length = 0;
  const viaTrpc = await settle(callTRPCProcedure({ router, ...options }));
  const seenViaTrpc = [...seen];
  seen.length = 0;
  const viaDispatcher = await settle(procedureCaller(router._def.procedures[path])(options));
  return { viaTrpc, viaDispatcher, seenViaTrpc, seenViaDispatcher: [...seen] };
}

describe("the dispatcher's middleware-chain runner answers as tRPC's callTRPCProcedure", () => {
  it("passes each middleware's context on and parses input and output", async () => {
    const calls = await bothWays("greet", { name: "Grace" });
    expect(calls.viaDispatcher).toEqual({ data: { text: "acme:ada greets Grace" } });
    expect(calls.viaDispatcher).toEqual(calls.viaTrpc);
    expect(calls.seenViaDispatcher).toEqual([{ ctx: { tenant: "acme", user: "acme:ada" }, raw: { name: "Grace" } }]);
    expect(calls.seenViaDispatcher).toEqual(calls.seenViaTrpc);
  });

  it.each([
    ["an input the parser refuses", "greet" as const, { name: "G" }, "BAD_REQUEST"],
    ["a resolver that throws", "fail" as const, {}, "INTERNAL_SERVER_ERROR"],
    ["an output the parser refuses", "badOutput" as const, {}, "INTERNAL_SERVER_ERROR"],
  ])("throws the same TRPCError for %s", async (_case, path, input, code) => {
    const { viaTrpc, viaDispatcher } = await bothWays(path, input);
    const [ours, theirs] = [viaDispatcher, viaTrpc].map((result) => ("error" in result ? result.error : undefined)) as TRPCError[];
    expect(ours).toBeInstanceOf(TRPCError);
    expect(ours!.code).toBe(code);
    expect(ours!.message).toBe(theirs!.message);
    expect(String(ours!.cause)).toBe(String(theirs!.cause));
  });
});

describe("the runner's last step (input parsers, output parser and resolver as one)", () => {
  const twoInputs = t.procedure
    .input(z.object({ name: z.string() }))
    .input(z.object({ times: z.coerce.number().int().min(1) }))
    .query(({ input }) => `${input.name} x${input.times}`);
  const useAfterInput = t.procedure
    .input(z.object({ name: z.string() }))
    .use(async ({ input, next }) => next({ ctx: { seenInput: input } }))
    .query(({ ctx, input }) => ({ ctx, input }));
  const merged = t.router({ twoInputs, useAfterInput });

  it("merges several inputs as tRPC does, and refuses the second's failure the same way", async () => {
    const procedure = merged._def.procedures.twoInputs;
    const good = callOptions("twoInputs", { name: "Ada", times: "3" });
    expect(await procedureCaller(procedure)(good)).toBe(await callTRPCProcedure({ router: merged, ...good }));
    const bad = callOptions("twoInputs", { name: "Ada", times: 0 });
    const [ours, theirs] = await Promise.all(
      [procedureCaller(procedure)(bad), callTRPCProcedure({ router: merged, ...bad })].map((call) => call.catch((error: unknown) => error)),
    );
    expect(ours).toBeInstanceOf(TRPCError);
    expect((ours as TRPCError).code).toBe("BAD_REQUEST");
    expect(String((ours as TRPCError).cause)).toBe(String((theirs as TRPCError).cause));
  });

  it("runs a chain with a middleware after its input as it is", async () => {
    const call = callOptions("useAfterInput", { name: "Ada" });
    expect(await procedureCaller(merged._def.procedures.useAfterInput)(call)).toEqual(await callTRPCProcedure({ router: merged, ...call }));
  });

  it("does not call tRPC's own parser and resolver steps where it runs them as one", async () => {
    const procedure = router._def.procedures.greet as unknown as { _def: { middlewares: Array<(...args: unknown[]) => unknown> } };
    const steps = procedure._def.middlewares;
    const calledBack: string[] = [];
    const original = [...steps];
    steps.forEach((step, index) => {
      const tag = (step as { _type?: string })._type;
      if (index < 2) return;
      const spy = Object.assign((...args: unknown[]) => (calledBack.push(tag ?? "resolver"), step(...args)), { _type: tag });
      steps[index] = spy;
    });
    try {
      const caller = procedureCaller(router._def.procedures.greet);
      const greetOptions = callOptions("greet", { name: "Grace" });
      expect(await caller(greetOptions)).toEqual({ text: "acme:ada greets Grace" });
      expect(calledBack).toEqual([]);
      await callTRPCProcedure({ router, ...greetOptions });
      expect(calledBack).toEqual(["input", "output", "resolver"]);
    } finally {
      steps.splice(0, steps.length, ...original);
    }
  });
});
