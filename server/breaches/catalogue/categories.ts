import { readFileSync } from "node:fs";
import path from "node:path";
import type { Queryable } from "../../db/client";
import type { Localized } from "../../i18n/locales";

/**
 * Breach categories are the catalogue's data classes ("Passwords", "Phone numbers").
 * Each belongs to a group that gives it a severity (threat score), its texts, a label for the
 * generated summary, and whether it is blacklisted. docs/breaches.md explains the choices.
 */
export type CategoryGroupKey =
  | "credentials"
  | "financial"
  | "identity"
  | "contact"
  | "communications"
  | "personal"
  | "online"
  | "technical"
  | "email"
  | "sensitive"
  | "other";

export interface CategoryGroup {
  /** 1 (low) to 10 (critical): how much an exposure of this kind helps an attacker. */
  severity: number;
  /**
   * Blacklisted: special categories of personal data (GDPR art. 9: health, sex life, beliefs,
   * ethnicity). Naming them next to a person's address would disclose them; they are never
   * shown in breach responses and never scored.
   */
  isBlacklist: boolean;
  description: string;
  tooltip: string;
  /** How the generated summary names this kind of data, in a sentence ("the exposed data included ..."). */
  label: Localized;
}

export const CATEGORY_GROUPS: Record<CategoryGroupKey, CategoryGroup> = {
  credentials: {
    severity: 10,
    isBlacklist: false,
    description: "Secrets that sign a person in or recover an account. Attackers use them for account takeover and credential stuffing.",
    tooltip: "Sign-in secrets: change them now",
    label: {
      "en-GB": "passwords and other sign-in secrets",
      "sv-SE": "lösenord och andra inloggningsuppgifter",
      "nb-NO": "passord og andre påloggingsopplysninger",
      "da-DK": "adgangskoder og andre loginoplysninger",
      "fi-FI": "salasanat ja muut kirjautumistiedot",
      "nl-NL": "wachtwoorden en andere inloggegevens",
    },
  },
  financial: {
    severity: 10,
    isBlacklist: false,
    description: "Payment cards, bank accounts and other financial data. Attackers use them for fraud and convincing payment scams.",
    tooltip: "Financial data: watch statements for fraud",
    label: {
      "en-GB": "financial data",
      "sv-SE": "finansiella uppgifter",
      "nb-NO": "økonomiske opplysninger",
      "da-DK": "økonomiske oplysninger",
      "fi-FI": "taloudelliset tiedot",
      "nl-NL": "financiële gegevens",
    },
  },
  identity: {
    severity: 9,
    isBlacklist: false,
    description: "Government identifiers and identity documents. Attackers use them for identity theft and to pass identity checks.",
    tooltip: "Identity documents: risk of identity theft",
    label: {
      "en-GB": "identity documents and numbers",
      "sv-SE": "id-handlingar och personnummer",
      "nb-NO": "identitetsdokumenter og fødselsnumre",
      "da-DK": "identitetsdokumenter og CPR-numre",
      "fi-FI": "henkilöllisyystodistukset ja henkilötunnukset",
      "nl-NL": "identiteitsbewijzen en burgerservicenummers",
    },
  },
  communications: {
    severity: 6,
    isBlacklist: false,
    description: "The content of private communication. It can reveal business information and helps attackers impersonate contacts.",
    tooltip: "Private messages were exposed",
    label: {
      "en-GB": "private messages",
      "sv-SE": "privata meddelanden",
      "nb-NO": "private meldinger",
      "da-DK": "private beskeder",
      "fi-FI": "yksityisviestit",
      "nl-NL": "privéberichten",
    },
  },
  contact: {
    severity: 5,
    isBlacklist: false,
    description: "Phone numbers and postal addresses. Attackers use them for smishing, vishing and targeted fraud.",
    tooltip: "Contact details: expect scam calls and texts",
    label: {
      "en-GB": "phone numbers and postal addresses",
      "sv-SE": "telefonnummer och postadresser",
      "nb-NO": "telefonnumre og postadresser",
      "da-DK": "telefonnumre og postadresser",
      "fi-FI": "puhelinnumerot ja postiosoitteet",
      "nl-NL": "telefoonnummers en postadressen",
    },
  },
  personal: {
    severity: 4,
    isBlacklist: false,
    description: "Details about a person, such as names, dates of birth and employers. They make phishing and pretexting more convincing.",
    tooltip: "Personal details: used to build trust in scams",
    label: {
      "en-GB": "personal details",
      "sv-SE": "personuppgifter",
      "nb-NO": "personopplysninger",
      "da-DK": "personoplysninger",
      "fi-FI": "henkilötiedot",
      "nl-NL": "persoonsgegevens",
    },
  },
  online: {
    severity: 3,
    isBlacklist: false,
    description: "Usernames and online profiles. They link a person's accounts across services.",
    tooltip: "Online identities: accounts can be linked",
    label: {
      "en-GB": "usernames and online profiles",
      "sv-SE": "användarnamn och onlineprofiler",
      "nb-NO": "brukernavn og nettprofiler",
      "da-DK": "brugernavne og onlineprofiler",
      "fi-FI": "käyttäjätunnukset ja verkkoprofiilit",
      "nl-NL": "gebruikersnamen en onlineprofielen",
    },
  },
  technical: {
    severity: 2,
    isBlacklist: false,
    description: "Device and network data such as IP addresses and device identifiers. They reveal locations and habits.",
    tooltip: "Device and network data",
    label: {
      "en-GB": "device and network data",
      "sv-SE": "enhets- och nätverksdata",
      "nb-NO": "enhets- og nettverksdata",
      "da-DK": "enheds- og netværksdata",
      "fi-FI": "laite- ja verkkotiedot",
      "nl-NL": "apparaat- en netwerkgegevens",
    },
  },
  email: {
    severity: 1,
    isBlacklist: false,
    description: "The e-mail address itself. Exposed addresses receive more spam and phishing.",
    tooltip: "E-mail address: expect more phishing",
    label: {
      "en-GB": "e-mail addresses",
      "sv-SE": "e-postadresser",
      "nb-NO": "e-postadresser",
      "da-DK": "e-mailadresser",
      "fi-FI": "sähköpostiosoitteet",
      "nl-NL": "e-mailadressen",
    },
  },
  sensitive: {
    severity: 0,
    isBlacklist: true,
    description:
      "Special categories of personal data (health, sex life, beliefs, ethnic origin). Never shown in breach responses and never scored.",
    tooltip: "Special category data (not shown)",
    label: {
      "en-GB": "special category data",
      "sv-SE": "känsliga personuppgifter",
      "nb-NO": "særlige kategorier av personopplysninger",
      "da-DK": "særlige kategorier af personoplysninger",
      "fi-FI": "erityiset henkilötietoryhmät",
      "nl-NL": "bijzondere persoonsgegevens",
    },
  },
  other: {
    severity: 1,
    isBlacklist: false,
    description: "Other information about a person or their activity.",
    tooltip: "Other exposed data",
    label: {
      "en-GB": "other data",
      "sv-SE": "andra uppgifter",
      "nb-NO": "andre opplysninger",
      "da-DK": "andre oplysninger",
      "fi-FI": "muut tiedot",
      "nl-NL": "overige gegevens",
    },
  },
};

/** Data classes by group; any class not listed (a new one in a later catalogue) is "other". */
const GROUP_MEMBERS: Partial<Record<CategoryGroupKey, string[]>> = {
  credentials: [
    "Auth tokens",
    "Encrypted keys",
    "Historical passwords",
    "Mnemonic phrases",
    "Mothers maiden names",
    "Password hints",
    "Passwords",
    "PINs",
    "Security questions and answers",
  ],
  financial: [
    "Account balances",
    "Bank account numbers",
    "Credit card CVV",
    "Credit cards",
    "Credit status information",
    "Cryptocurrency wallet addresses",
    "Financial investments",
    "Financial transactions",
    "Loan information",
    "Partial credit card data",
    "Payment histories",
    "Payment methods",
    "Taxation records",
  ],
  identity: ["Biometric data", "Driver's licenses", "Government issued IDs", "Passport numbers", "Social security numbers"],
  communications: [
    "Address book contacts",
    "Audio recordings",
    "Chat logs",
    "Email messages",
    "Private messages",
    "SMS messages",
    "Support tickets",
  ],
  contact: ["Partial phone numbers", "Phone numbers", "Physical addresses", "Recovery email addresses"],
  personal: [
    "Ages",
    "Age groups",
    "Avatars",
    "Bios",
    "Career levels",
    "Citizenship statuses",
    "Company names",
    "Dates of birth",
    "Earnings",
    "Education levels",
    "Employers",
    "Employment statuses",
    "Family members' names",
    "Family structure",
    "Genders",
    "Income levels",
    "Job titles",
    "Licence plates",
    "Marital statuses",
    "Names",
    "Nationalities",
    "Net worths",
    "Nicknames",
    "Occupations",
    "Partial dates of birth",
    "Personal descriptions",
    "Photos",
    "Physical attributes",
    "Places of birth",
    "Profile photos",
    "Relationship statuses",
    "Salutations",
    "Spoken languages",
    "Spouses names",
    "Vehicle details",
    "Vehicle identification numbers (VINs)",
    "Years of professional experience",
  ],
  online: [
    "Homepage URLs",
    "Instant messenger identities",
    "Social connections",
    "Social media profiles",
    "User website URLs",
    "Usernames",
  ],
  technical: [
    "Apps installed on devices",
    "Browser user agent details",
    "Browsing histories",
    "Cellular network names",
    "Device information",
    "Device serial numbers",
    "Device usage tracking data",
    "Geographic locations",
    "IMEI numbers",
    "IMSI numbers",
    "IP addresses",
    "Login histories",
    "MAC addresses",
    "Telecommunications carrier",
    "Time zones",
    "Website activity",
  ],
  email: ["Email addresses"],
  sensitive: [
    "Drug habits",
    "Ethnicities",
    "Health insurance information",
    "HIV statuses",
    "Personal health data",
    "Political donations",
    "Political views",
    "Races",
    "Religions",
    "Sexual fetishes",
    "Sexual orientations",
  ],
};

const GROUP_BY_CLASS = new Map<string, CategoryGroupKey>(
  Object.entries(GROUP_MEMBERS).flatMap(([group, classes]) => classes.map((name) => [name.toLowerCase(), group as CategoryGroupKey])),
);

export function categoryGroupOf(dataClass: string): CategoryGroupKey {
  return GROUP_BY_CLASS.get(dataClass.toLowerCase()) ?? "other";
}

export function isBlacklisted(dataClass: string): boolean {
  return CATEGORY_GROUPS[categoryGroupOf(dataClass)].isBlacklist;
}

/** The data classes of a breach that may be shown and scored, in catalogue order. */
export function visibleDataClasses(dataClasses: readonly string[]): string[] {
  return dataClasses.filter((dataClass) => !isBlacklisted(dataClass));
}

function slugOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/['’]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

export function categoryRecord(dataClass: string) {
  const group = categoryGroupOf(dataClass);
  const { description, tooltip, isBlacklist } = CATEGORY_GROUPS[group];
  return {
    name: dataClass,
    group,
    description: `${dataClass} exposed in a breach. ${description}`,
    tooltip,
    link: `/kb/breach-categories/${slugOf(dataClass)}`,
    isBlacklist,
  };
}

/**
 * Adds a category for every data class that has none yet (idempotent). The seed passes the
 * bundled list of data classes; the catalogue import passes the classes it meets.
 */
export async function ensureBreachCategories(db: Queryable, dataClasses: Iterable<string>): Promise<number> {
  const unique = [...new Map([...dataClasses].map((name) => [name.toLowerCase(), name])).values()];
  if (unique.length === 0) return 0;
  const result = await db.breachCategory.createMany({ data: unique.map(categoryRecord), skipDuplicates: true });
  return result.count;
}

/** The bundled data-class list (data/README.md). */
const BUNDLED_DATA_CLASSES = path.join(/*turbopackIgnore: true*/ process.cwd(), "data", "hibp-dataclasses.json");

/** The system rows: a category for every data class of the bundled catalogue. */
export async function seedBreachCategories(db: Queryable): Promise<void> {
  const dataClasses = JSON.parse(readFileSync(BUNDLED_DATA_CLASSES, "utf8")) as string[];
  await ensureBreachCategories(db, dataClasses);
}

export interface BreachCategoryRecord {
  id: number;
  name: string;
  description: string;
  tooltip: string;
  link: string;
  isBlacklist: boolean;
  createdAt: string;
}

export async function listBreachCategories(db: Queryable): Promise<BreachCategoryRecord[]> {
  const rows = await db.breachCategory.findMany({ orderBy: { id: "asc" } });
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    tooltip: row.tooltip,
    link: row.link,
    isBlacklist: row.isBlacklist,
    createdAt: row.createdAt.toISOString(),
  }));
}
