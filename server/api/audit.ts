import type { PartnerCaller, DistributorCaller } from "../auth/api-keys";
import { storedKeyPrefix } from "../auth/key-format";
import { recordAuditAfter, type AuditActor } from "../audit/log";
import { requestClientAddress } from "../client-address";
import { config } from "../config";
import type { WebhookOwner } from "../webhooks/owner";
import type { Context } from "./context";

/** The contexts `before` loaders are given, by builder. */
export type PartnerContext = Context & { caller: PartnerCaller };
export type DistributorContext = Context & { caller: DistributorCaller };
export type WebhookContext = Context & { caller: PartnerCaller | DistributorCaller };

/** The owner of the webhooks a webhook surface's caller manages (a `before` loader runs before the surface sets ctx.owner). */
export function webhookOwnerOf(ctx: WebhookContext): WebhookOwner {
  return "partnerId" in ctx.caller ? { partnerId: ctx.caller.partnerId } : { distributorId: ctx.caller.distributorId };
}
export type StaffContext = Context & { staff: { id: string; distributorId: string; email: string; role: string } };

/**
 * How a mutating procedure is audited, declared in its meta (`audit`) next to it. The procedure
 * builders (trpc.ts) write the row after the mutation succeeded: actor, client address, action,
 * target, and the values before (when `before` loads them) and after (the answer), secrets
 * removed (server/audit/redact.ts). test/audit/coverage.test.ts fails for a mutation without an
 * entry, so a new one states what it changes or why it changes nothing.
 */
export type AuditSpec =
  | {
      /** e.g. `partner.update`: the same name wherever the change is made (REST, admin UI). */
      action: string;
      /**
       * What changed: its type, and the input key holding its id (else the first of the usual keys
       * in the input, then in the answer); key `$actor`: the staff member acting; `$owner`: the
       * organization whose API key acts (a change to the caller's own settings).
       */
      target?: { type: string; key?: string };
      /** Loads the state before the change (given the context after credentials and the raw input). */
      before?: (ctx: never, input: Record<string, unknown>) => Promise<unknown>;
      /** `after` is what `before` loads once the change is made (else the answer, or `after` of it). */
      reload?: true;
      /** What the row's `after` holds instead of the answer. */
      after?: (data: unknown, input: Record<string, unknown>) => unknown;
      /** The service writes the row itself, in the change's own transaction. */
      self?: true;
    }
  | { skip: string };

/** Input keys that name a change's target, tried in this order. */
const TARGET_KEYS = ["id", "partnerUuid", "partnerId", "customerId", "keyId", "secretId", "billingCodeId", "staffId", "email"];

function idIn(record: unknown): unknown {
  if (!record || typeof record !== "object") return undefined;
  const values = record as Record<string, unknown>;
  for (const key of ["id", "uuid", ...TARGET_KEYS]) {
    if (typeof values[key] === "string" || typeof values[key] === "number") return values[key];
  }
  // One level down: `{ webhook: { id } }`, `{ secret: { id } }`.
  for (const value of Object.values(values)) {
    if (value && typeof value === "object" && !Array.isArray(value) && typeof (value as { id?: unknown }).id === "string") {
      return (value as { id: string }).id;
    }
  }
  return undefined;
}

function targetOf(spec: { target?: { type: string; key?: string } }, input: Record<string, unknown>, data: unknown, actor: AuditActor) {
  if (!spec.target) return undefined;
  if (spec.target.key === "$actor") return { type: spec.target.type, id: actor.kind === "staff" ? actor.staffId : null };
  if (spec.target.key === "$owner") {
    const owner = actor.kind === "api-key" ? actor.owner : undefined;
    return { type: spec.target.type, id: owner ? ("partnerId" in owner ? owner.partnerId : owner.distributorId) : null };
  }
  const keys = spec.target.key ? [spec.target.key] : TARGET_KEYS;
  let id: unknown = keys.map((key) => input[key]).find((value) => typeof value === "string" || typeof value === "number");
  id ??= idIn(unwrap(data));
  return { type: spec.target.type, id: id === undefined || id === null ? null : String(id) };
}

/** A REST answer's record without its `{success, data}` envelope. */
function unwrap(data: unknown): unknown {
  if (data && typeof data === "object" && "success" in data && "data" in data) return (data as { data: unknown }).data;
  return data;
}

async function rawInputOf(getRawInput: () => Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    const raw = await getRawInput();
    return raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

type MiddlewareResult = { ok: boolean; data?: unknown };

interface AuditedCall<Result extends MiddlewareResult> {
  type: string;
  meta: { audit?: AuditSpec } | undefined;
  ctx: Context;
  getRawInput: () => Promise<unknown>;
  /** The rest of the chain, given the context the builder adds. */
  proceed: () => Promise<Result>;
}

/**
 * Runs the rest of a procedure's chain and, for a mutation that succeeded, appends its audit row.
 * Queries and skipped mutations pass straight through.
 */
export async function auditedCall<Result extends MiddlewareResult>(
  call: AuditedCall<Result>,
  who: { actor: AuditActor; distributorId: string | null; ctx: object },
): Promise<Result> {
  const spec = call.meta?.audit;
  if (call.type !== "mutation" || !spec || "skip" in spec || spec.self) return call.proceed();
  const load = spec.before;
  const loadState = async (input: Record<string, unknown>) =>
    load ? await load({ ...call.ctx, ...who.ctx } as never, input).catch(() => undefined) : undefined;
  const before = load ? await loadState(await rawInputOf(call.getRawInput)) : undefined;
  const result = await call.proceed();
  if (!result.ok) return result;
  const input = await rawInputOf(call.getRawInput);
  const after = spec.reload ? await loadState(input) : spec.after ? spec.after(result.data, input) : unwrap(result.data);
  await recordAuditAfter(call.ctx.db, {
    distributorId: who.distributorId,
    actor: who.actor,
    clientAddress: requestClientAddress(call.ctx.headers, config.trustProxy()) ?? null,
    action: spec.action,
    target: targetOf(spec, input, result.data, who.actor),
    before,
    after,
  });
  return result;
}

/** The actor of an API call: the key's stored prefix and its owner. */
export function apiKeyActor(ctx: Context, caller: PartnerCaller | DistributorCaller): AuditActor {
  const owner =
    "partnerId" in caller && (caller as PartnerCaller).keyOwner === "partner"
      ? { partnerId: (caller as PartnerCaller).partnerId }
      : { distributorId: caller.distributorId };
  return { kind: "api-key", keyId: caller.apiKeyId, prefix: storedKeyPrefix(ctx.headers.get("sw-api-key")?.trim() ?? ""), owner };
}
