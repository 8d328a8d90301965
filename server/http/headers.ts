import type { IncomingHttpHeaders } from "node:http";

/** Request headers by name, case-insensitively: a fetch `Headers`, or a Node request's (nodeHeaderSource). */
export interface HeaderSource {
  get(name: string): string | null;
}

/** A Node request's headers read as fetch's `Headers.get` reads them (repeated values joined by ", "). */
export function nodeHeaderSource(headers: IncomingHttpHeaders): HeaderSource {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(", ") : value;
    },
  };
}
