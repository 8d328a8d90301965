import { getTRPCErrorFromUnknown, TRPCError, type AnyTRPCProcedure } from "@trpc/server";

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

export type ProcedureCall = (options: ProcedureCallOptions) => Promise<unknown>;

/**
 * Calls one procedure the way tRPC's `callTRPCProcedure` does once it has found it: every
 * middleware of the procedure's chain in order (credentials, the NUL check, the input and output
 * parsers, the resolver), each with the options and context the previous one passed on, a thrown
 * error made a TRPCError, and a failed result thrown. tRPC's own runner builds those option
 * objects with a transpiled object-spread helper (four calls per middleware), which took a fifth
 * of the REST path's JavaScript time (docs/measures.md, "API overhead"); here they are object
 * literals. A procedure whose definition does not have the shape this relies on (tRPC changed it,
 * or a caller override) is called through tRPC itself.
 */
export function procedureCaller(procedure: AnyTRPCProcedure): ProcedureCall {
  const def = (procedure as { _def?: { middlewares?: unknown; meta?: unknown; caller?: unknown } })._def;
  const middlewares = def?.middlewares;
  if (!def || def.caller || !Array.isArray(middlewares) || !middlewares.every((one) => typeof one === "function")) {
    return (options) => (procedure as unknown as ProcedureCall)(options);
  }
  const chain = middlewares as Middleware[];
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

  return async (options) => {
    const result = await callFrom(0, options);
    if (!result) {
      throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "No result from middlewares - did you forget to `return next()`?" });
    }
    if (!result.ok) throw result.error;
    return result.data;
  };
}
