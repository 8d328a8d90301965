import { getTRPCErrorFromUnknown, TRPCError, type AnyTRPCProcedure } from "@trpc/server";
import { getParseFn, isObject, type Parser } from "@trpc/server/unstable-core-do-not-import";

/** What tRPC gives every middleware besides `meta` and `next` (its `callTRPCProcedure` options, less the router). */
export interface ProcedureCallOptions {
  ctx: unknown;
  type: string;
  path: string;
  input?: unknown;
  getRawInput: () => Promise<unknown>;
  signal: AbortSignal | undefined;
  batchIndex: number;
}

type MiddlewareResult = { ok: true; data: unknown } | { ok: false; error: TRPCError };
type Middleware = (
  options: ProcedureCallOptions & { meta: unknown; next: (nextOptions?: NextOptions) => Promise<MiddlewareResult> },
) => Promise<MiddlewareResult>;
type NextOptions = { ctx?: object; input?: unknown; getRawInput?: () => Promise<unknown> };
type ParseFn = (value: unknown) => unknown;
type TaggedMiddleware = Middleware & { _type?: string };
interface ProcedureDef {
  middlewares?: unknown;
  meta?: unknown;
  caller?: unknown;
  inputs?: unknown[];
  output?: unknown;
  resolver?: (options: object) => unknown;
}

/**
 * How a procedure is called: `one-step` (this file's runner, the chain's end in one step), `chain`
 * (this runner, the chain as it is: its end did not have the expected shape) or `trpc` (tRPC's own
 * runner: the definition did not). The REST route table's test requires `one-step` for every path,
 * so a tRPC upgrade that changes the shape fails CI instead of silently losing the gain.
 */
export type ProcedureRunner = "one-step" | "chain" | "trpc";
export type ProcedureCall = ((options: ProcedureCallOptions) => Promise<unknown>) & { readonly runner: ProcedureRunner };

/**
 * Calls one procedure the way tRPC's `callTRPCProcedure` does once it has found it: every
 * middleware of the procedure's chain in order (credentials, the NUL check, the input and output
 * parsers, the resolver), each with the options and context the previous one passed on, a thrown
 * error made a TRPCError, and a failed result thrown. tRPC's own runner builds those option
 * objects with a transpiled object-spread helper (four calls per middleware), which took a fifth
 * of the REST path's JavaScript time (docs/measures.md, "Choices in the code"); here they are object
 * literals. A procedure whose definition does not have the shape this relies on (tRPC changed it,
 * or a caller override) is called through tRPC itself.
 */
export function procedureCaller(procedure: AnyTRPCProcedure): ProcedureCall {
  const def = (procedure as { _def?: ProcedureDef })._def;
  const middlewares = def?.middlewares;
  if (!def || def.caller || !Array.isArray(middlewares) || !middlewares.every((one) => typeof one === "function")) {
    const viaTrpc = (options: ProcedureCallOptions) =>
      (procedure as unknown as (options: ProcedureCallOptions) => Promise<unknown>)(options);
    return Object.assign(viaTrpc, { runner: "trpc" as const });
  }
  const chain = withValidatedResolver(def, middlewares as Middleware[]);
  const runner: ProcedureRunner = chain === middlewares ? "chain" : "one-step";
  const meta = def.meta;

  async function callFrom(index: number, options: ProcedureCallOptions): Promise<MiddlewareResult> {
    try {
      return await chain[index]!({
        ctx: options.ctx,
        type: options.type,
        path: options.path,
        input: options.input,
        getRawInput: options.getRawInput,
        signal: options.signal,
        batchIndex: options.batchIndex,
        meta,
        next(nextOptions?: NextOptions) {
          return callFrom(index + 1, {
            ctx: nextOptions?.ctx ? { ...(options.ctx as object), ...nextOptions.ctx } : options.ctx,
            type: options.type,
            path: options.path,
            input: nextOptions && "input" in nextOptions ? nextOptions.input : options.input,
            getRawInput: nextOptions?.getRawInput ?? options.getRawInput,
            signal: options.signal,
            batchIndex: options.batchIndex,
          });
        },
      });
    } catch (cause) {
      return { ok: false, error: getTRPCErrorFromUnknown(cause) };
    }
  }

  const call = async (options: ProcedureCallOptions) => {
    const result = await callFrom(0, options);
    if (!result) {
      throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "No result from middlewares - did you forget to `return next()`?" });
    }
    if (!result.ok) throw result.error;
    return result.data;
  };
  return Object.assign(call, { runner });
}

/**
 * The chain with its end as one step. tRPC ends every procedure with a middleware per input parser,
 * one for the output parser and one calling the resolver (`.input()`, `.output()`, `.query()`), each
 * an async step with its own `next` and object spreads: a sixth of what a REST call allocates. Here
 * they run as one: the same parsers (tRPC's `getParseFn` of the procedure's `inputs` and `output`),
 * in the same order, with the same errors (BAD_REQUEST for an input, "Output validation failed" for
 * an output, both with the parser's error as the cause) and the same merge of several inputs. A
 * chain that does not end so (a middleware after an input, parsers that do not match the
 * procedure's) runs as it is.
 */
function withValidatedResolver(def: ProcedureDef, chain: Middleware[]): Middleware[] {
  const tagged = chain as TaggedMiddleware[];
  // `.query()` and `.mutation()` keep the resolver in the definition and end the chain with the step calling it.
  const resolver = def.resolver;
  if (typeof resolver !== "function" || tagged.length === 0) return chain;
  let tailStart = tagged.length - 1;
  while (tailStart > 0 && (tagged[tailStart - 1]!._type === "input" || tagged[tailStart - 1]!._type === "output")) tailStart--;
  const tail = tagged.slice(tailStart, -1);
  const inputs = def.inputs ?? [];
  const outputSteps = tail.filter((step) => step._type === "output").length;
  const allInputSteps = tagged.filter((step) => step._type === "input").length;
  if (tail.length - outputSteps !== inputs.length || allInputSteps !== inputs.length || outputSteps !== (def.output ? 1 : 0)) return chain;

  const parseInputs = inputs.map((parser) => getParseFn(parser as Parser) as ParseFn);
  const parseOutput = def.output ? (getParseFn(def.output as Parser) as ParseFn) : undefined;
  const validatedResolver: Middleware = async (options) => {
    let input = options.input;
    if (parseInputs.length > 0) {
      const rawInput = await options.getRawInput();
      for (const parse of parseInputs) {
        let parsed: unknown;
        try {
          parsed = await parse(rawInput);
        } catch (cause) {
          throw new TRPCError({ code: "BAD_REQUEST", cause });
        }
        input = isObject(input) && isObject(parsed) ? { ...input, ...parsed } : parsed;
      }
    }
    const data = await resolver({
      ctx: options.ctx,
      type: options.type,
      path: options.path,
      input,
      getRawInput: options.getRawInput,
      signal: options.signal,
      batchIndex: options.batchIndex,
      meta: options.meta,
    });
    if (!parseOutput) return { ok: true, data };
    try {
      return { ok: true, data: await parseOutput(data) };
    } catch (cause) {
      throw new TRPCError({ message: "Output validation failed", code: "INTERNAL_SERVER_ERROR", cause });
    }
  };
  return [...chain.slice(0, tailStart), validatedResolver];
}
