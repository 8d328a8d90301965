/** Any 8-4-4-4-12 hex id (what PostgreSQL's uuid type accepts). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value can be compared with a uuid column (anything else makes PostgreSQL throw). */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
