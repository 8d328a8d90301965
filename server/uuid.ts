/**
 * Any 8-4-4-4-12 hex id, in either case (what PostgreSQL's uuid type accepts). Both cases are
 * spelled out instead of an `i` flag: the OpenAPI document carries a pattern's source, not its flags.
 */
export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Whether a value can be compared with a uuid column (anything else makes PostgreSQL throw). */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
