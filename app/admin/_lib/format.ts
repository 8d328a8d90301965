/** How the admin UI writes dates, numbers and money (the same on the server and in the browser). */

/** "2026-11-21 22:15 UTC"; "—" for none. */
export function formatDateTime(iso: string | null | undefined): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : "—";
}

export function formatDate(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 10) : "—";
}

const integer = new Intl.NumberFormat("en-GB");
const money = new Intl.NumberFormat("en-GB", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatCount(value: number): string {
  return integer.format(value);
}

/** "2.50", or "2.50 EUR" with a currency. */
export function formatMoney(value: number | null | undefined, currency?: string | null): string {
  if (value === null || value === undefined) return "—";
  return currency ? `${money.format(value)} ${currency}` : money.format(value);
}

/** "March 2026" for "2026-03". */
export function formatMonth(month: string): string {
  const [year, monthNumber] = month.split("-").map(Number);
  return new Date(Date.UTC(year!, monthNumber! - 1, 1)).toLocaleString("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });
}
