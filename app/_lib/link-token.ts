/**
 * A link's token from the query string, as a page passes it on: one value, and "" (a link that is
 * not valid) for one no link of the service carries, a control character or more than `maxLength`
 * characters, which the procedure's input would refuse with an error instead of the page's own
 * "not valid" state.
 */
export function linkTokenParam(value: string | string[] | undefined, maxLength: number): string {
  const token = (Array.isArray(value) ? value[0] : value)?.trim() ?? "";
  return token.length > maxLength || /[\u0000-\u001f\u007f]/.test(token) ? "" : token;
}
