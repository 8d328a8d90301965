import { z } from "zod";
import { badRequest } from "../../errors";

/**
 * Unknown body keys (docs/api.md, "Request bodies"): every POST, PUT and PATCH body may hold only
 * the fields its path declares, so a misspelt or response-only name is a 400 instead of a silent
 * default (`customerStatus: "prospect"` once onboarded a billed, active customer). The fields are
 * read once per route from the procedure's zod input; API_UNKNOWN_FIELDS=ignore drops the
 * unknown keys instead, for clients being migrated.
 */

/** Names from the answers that clients send back; the message tells the field to send instead. */
const RESPONSE_NAMES: Record<string, string> = {
  customerStatus: "status",
  customerRef: "customerReference",
};

export interface BodyFields {
  /** The fields the path declares (path parameters included). */
  known: ReadonlySet<string>;
  /** Keys that existing clients send and the path accepts and ignores (`ignoredFields` in its meta). */
  ignored: ReadonlySet<string>;
}

/**
 * The top-level keys an input schema accepts, or undefined when it accepts any key (a loose
 * object, a record) or its shape cannot be read.
 */
export function schemaKeys(schema: unknown): Set<string> | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case "object": {
      const catchall = def.catchall as z.ZodType | undefined;
      if (catchall && catchall._zod.def.type !== "never") return undefined;
      return new Set(Object.keys(def.shape as Record<string, unknown>));
    }
    case "pipe":
      return schemaKeys(def.in);
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
      return schemaKeys(def.innerType);
    case "intersection": {
      const left = schemaKeys(def.left);
      const right = schemaKeys(def.right);
      return left && right ? new Set([...left, ...right]) : undefined;
    }
    case "union": {
      const all = new Set<string>();
      for (const option of def.options as unknown[]) {
        const keys = schemaKeys(option);
        if (!keys) return undefined;
        for (const key of keys) all.add(key);
      }
      return all;
    }
    default:
      return undefined;
  }
}

/** The fields of a procedure's inputs (each `.input()` merges its keys), or undefined as above. */
export function inputKeys(inputs: readonly unknown[]): Set<string> | undefined {
  const all = new Set<string>();
  for (const input of inputs) {
    const keys = schemaKeys(input);
    if (!keys) return undefined;
    for (const key of keys) all.add(key);
  }
  return all;
}

export function unknownFieldMessage(key: string, known: ReadonlySet<string>): string {
  const instead = RESPONSE_NAMES[key];
  if (instead && known.has(instead)) return `Validation failed: Unknown field ${key} (send ${instead})`;
  const nearest = nearestField(key, known);
  return `Validation failed: Unknown field ${key}` + (nearest ? `: did you mean ${nearest}?` : "");
}

/**
 * The known field a misspelt key most likely meant: the closest by edit distance (letters
 * compared case-insensitively), if within a third of the key's length (at least 1, at most 3)
 * and not tied with another.
 */
function nearestField(key: string, known: ReadonlySet<string>): string | undefined {
  const limit = Math.min(3, Math.max(1, Math.floor(key.length / 3)));
  let best: string | undefined;
  let bestDistance = Infinity;
  let tied = false;
  for (const field of known) {
    const distance = editDistance(key.toLowerCase(), field.toLowerCase());
    if (distance < bestDistance) [best, bestDistance, tied] = [field, distance, false];
    else if (distance === bestDistance) tied = true;
  }
  return best !== undefined && bestDistance <= limit && !tied ? best : undefined;
}

/** Levenshtein distance (insertions, deletions, substitutions). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The body as the procedure reads it: without the ignored keys, and either refused at its first
 * unknown key (400, the same text on every path) or without the unknown keys when
 * API_UNKNOWN_FIELDS=ignore. The dispatcher calls it when the procedure reads its input, so the
 * credentials are checked first, as for every field.
 */
export function checkBodyFields(input: Record<string, unknown>, fields: BodyFields, refuseUnknown: boolean): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    // A key with a NUL goes on to the procedure, whose NUL check names it (docs/api.md, "Text fields").
    if (fields.known.has(key) || key.includes("\u0000")) kept[key] = value;
    else if (fields.ignored.has(key) || !refuseUnknown) continue;
    else throw badRequest(unknownFieldMessage(key, fields.known));
  }
  return kept;
}
