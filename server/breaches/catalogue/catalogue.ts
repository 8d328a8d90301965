import { z } from "zod";
import type { Queryable } from "../../db/client";
import { ensureBreachCategories } from "./categories";
import { descriptionToText } from "./texts";

/** One breach in the Have I Been Pwned v3 model (CONTRACT.md lists the fields). */
const hibpBreachSchema = z.object({
  Name: z.string().trim().min(1).max(200),
  Title: z.string().trim().min(1),
  Domain: z
    .string()
    .nullish()
    .transform((domain) => (domain ?? "").trim().toLowerCase()),
  BreachDate: z.iso.date(),
  AddedDate: z.iso.datetime({ offset: true }),
  ModifiedDate: z.iso.datetime({ offset: true }).nullish(),
  PwnCount: z.number().int().nonnegative(),
  Description: z.string().nullish(),
  DataClasses: z.array(z.string().trim().min(1)),
  LogoPath: z.string().nullish(),
  Attribution: z.string().nullish(),
  DisclosureUrl: z.string().nullish(),
  IsVerified: z.boolean().default(true),
  IsFabricated: z.boolean().default(false),
  IsSensitive: z.boolean().default(false),
  IsRetired: z.boolean().default(false),
  IsSpamList: z.boolean().default(false),
  IsMalware: z.boolean().default(false),
  IsSubscriptionFree: z.boolean().default(false),
  IsStealerLog: z.boolean().default(false),
});
export type HibpBreach = z.input<typeof hibpBreachSchema>;

export interface RejectedRecord {
  /** Position in the catalogue array, from 1. */
  record: number;
  name?: string;
  reason: string;
}

export interface CatalogueImport {
  /** Breaches created or brought up to date. */
  imported: number;
  rejected: RejectedRecord[];
}

/**
 * Imports a catalogue (an array of HIBP v3 breaches): creates unknown breaches, updates known
 * ones by name, adds a category for every new data class. A malformed record is rejected with its
 * position and the rest is imported; importing the same catalogue again changes nothing.
 */
export async function importCatalogue(db: Queryable, catalogue: unknown): Promise<CatalogueImport> {
  const { rows, rejected } = parseCatalogue(catalogue);
  if (rows.length > 0) await upsertBreaches(db, rows);
  await ensureBreachCategories(
    db,
    rows.flatMap((row) => row.data_classes),
  );
  return { imported: rows.length, rejected };
}

export interface CatalogueMerge {
  /** Ids of the breaches the catalogue did not have. */
  added: string[];
  /** Ids of known breaches whose fields changed. */
  updated: string[];
  rejected: RejectedRecord[];
}

/**
 * Merges a catalogue into ours as the catalogue sync does (docs/breaches.md): creates unknown
 * breaches, updates known ones (by name) only where a field differs, and tells which were
 * which; breaches it does not mention are kept. Malformed records are rejected as on import.
 */
export async function mergeCatalogue(db: Queryable, catalogue: unknown): Promise<CatalogueMerge> {
  const { rows, rejected } = parseCatalogue(catalogue);
  const written = rows.length > 0 ? await db.$queryRawUnsafe<Array<{ id: string; added: boolean }>>(MERGE_SQL, JSON.stringify(rows)) : [];
  await ensureBreachCategories(
    db,
    rows.flatMap((row) => row.data_classes),
  );
  return {
    added: written.filter((row) => row.added).map((row) => row.id),
    updated: written.filter((row) => !row.added).map((row) => row.id),
    rejected,
  };
}

type BreachRow = ReturnType<typeof toRow>;

/** Validates every record: the valid ones as rows (one per name, any case), the others rejected with their position. */
function parseCatalogue(catalogue: unknown): { rows: BreachRow[]; rejected: RejectedRecord[] } {
  if (!Array.isArray(catalogue)) throw new Error("the catalogue must be a JSON array of breaches");
  const rejected: RejectedRecord[] = [];
  const byName = new Map<string, BreachRow>();
  catalogue.forEach((record, index) => {
    const parsed = hibpBreachSchema.safeParse(record);
    const name = typeof (record as { Name?: unknown })?.Name === "string" ? (record as { Name: string }).Name : undefined;
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      rejected.push({ record: index + 1, name, reason: `${issue.path.join(".") || "record"}: ${issue.message}` });
      return;
    }
    const key = parsed.data.Name.toLowerCase();
    if (byName.has(key)) {
      rejected.push({ record: index + 1, name, reason: `Name: duplicate of an earlier record named ${parsed.data.Name}` });
      return;
    }
    byName.set(key, toRow(parsed.data));
  });
  return { rows: [...byName.values()], rejected };
}

function toRow(breach: z.output<typeof hibpBreachSchema>) {
  const descriptionHtml = breach.Description ?? "";
  return {
    name: breach.Name,
    title: breach.Title,
    domain: breach.Domain,
    breach_date: breach.BreachDate,
    added_date: breach.AddedDate,
    modified_date: breach.ModifiedDate ?? breach.AddedDate,
    pwn_count: breach.PwnCount,
    description_html: descriptionHtml,
    description_text: descriptionToText(descriptionHtml),
    data_classes: breach.DataClasses,
    logo_path: breach.LogoPath ?? null,
    attribution: breach.Attribution ?? null,
    disclosure_url: breach.DisclosureUrl ?? null,
    is_verified: breach.IsVerified,
    is_fabricated: breach.IsFabricated,
    is_sensitive: breach.IsSensitive,
    is_retired: breach.IsRetired,
    is_spam_list: breach.IsSpamList,
    is_malware: breach.IsMalware,
    is_subscription_free: breach.IsSubscriptionFree,
    is_stealer_log: breach.IsStealerLog,
  };
}

const COLUMNS = [
  ["name", "text"],
  ["title", "text"],
  ["domain", "text"],
  ["breach_date", "date"],
  ["added_date", "timestamptz"],
  ["modified_date", "timestamptz"],
  ["pwn_count", "bigint"],
  ["description_html", "text"],
  ["description_text", "text"],
  ["data_classes", "text[]"],
  ["logo_path", "text"],
  ["attribution", "text"],
  ["disclosure_url", "text"],
  ["is_verified", "boolean"],
  ["is_fabricated", "boolean"],
  ["is_sensitive", "boolean"],
  ["is_retired", "boolean"],
  ["is_spam_list", "boolean"],
  ["is_malware", "boolean"],
  ["is_subscription_free", "boolean"],
  ["is_stealer_log", "boolean"],
] as const;

const UPSERT_SQL = `
  INSERT INTO breaches (${COLUMNS.map(([name]) => name).join(", ")}, updated_at)
  SELECT ${COLUMNS.map(([name]) => `r.${name}`).join(", ")}, now()
  FROM jsonb_to_recordset($1::jsonb) AS r(${COLUMNS.map(([name, type]) => `${name} ${type}`).join(", ")})
  ON CONFLICT (name) DO UPDATE SET
    ${COLUMNS.filter(([name]) => name !== "name")
      .map(([name]) => `${name} = EXCLUDED.${name}`)
      .join(",\n    ")},
    updated_at = now()`;

const UPDATED_COLUMNS = COLUMNS.filter(([name]) => name !== "name").map(([name]) => name);

/**
 * The upsert, but a known breach is only written when a field differs, and each written row says
 * whether it was inserted: a row just inserted has no xmax, one updated through ON CONFLICT has
 * the updating transaction's.
 */
const MERGE_SQL = `${UPSERT_SQL}
  WHERE (${UPDATED_COLUMNS.map((name) => `breaches.${name}`).join(", ")})
    IS DISTINCT FROM (${UPDATED_COLUMNS.map((name) => `EXCLUDED.${name}`).join(", ")})
  RETURNING id::text, (xmax = 0) AS added`;

/** One statement for the whole catalogue: fast enough for a start-up import of ~1,000 breaches. */
async function upsertBreaches(db: Queryable, rows: Array<ReturnType<typeof toRow>>): Promise<void> {
  await db.$executeRawUnsafe(UPSERT_SQL, JSON.stringify(rows));
}

/** Breach ids by lower-cased name, for resolving the names of an accounts file. */
export async function breachIdsByName(db: Queryable): Promise<Map<string, string>> {
  const rows = await db.breach.findMany({ select: { id: true, name: true } });
  return new Map(rows.map((row) => [row.name.toLowerCase(), row.id]));
}
