import type { LocaleCode } from "../../i18n/locales";
import { visibleDataClasses } from "./categories";
import { generatedSummary, nextStepsFor } from "./texts";

/** The catalogue fields every breach response is made from. */
export const breachFields = {
  id: true,
  name: true,
  title: true,
  breachDate: true,
  addedDate: true,
  pwnCount: true,
  descriptionText: true,
  dataClasses: true,
} as const;

export interface BreachFields {
  id: string;
  name: string;
  title: string;
  breachDate: Date;
  addedDate: Date;
  pwnCount: bigint;
  descriptionText: string;
  dataClasses: string[];
}

/** A catalogue breach (GET breach by name or uuid). */
export function catalogueBreachRecord(breach: BreachFields, locale: LocaleCode) {
  return {
    uuid: breach.id,
    name: breach.name,
    title: breach.title,
    addedDate: breach.addedDate.toISOString(),
    breachCategories: visibleDataClasses(breach.dataClasses),
    description: breach.descriptionText,
    nextSteps: nextStepsFor(breach.dataClasses, locale),
  };
}

/** A breach entry for an e-mail address (breach/retrieve). */
export function emailBreachEntry(breach: BreachFields, locale: LocaleCode, resolvedStatus: boolean) {
  return {
    title: breach.title,
    description: breach.descriptionText,
    breachDate: breach.breachDate.toISOString().slice(0, 10),
    breachCategories: visibleDataClasses(breach.dataClasses),
    nextSteps: nextStepsFor(breach.dataClasses, locale),
    resolvedStatus,
  };
}

/** The full entry of an active customer's breach list (docs/breaches.md, "List a customer's breaches"). */
export function customerBreachEntry(
  instance: { id: string; emails: string[]; resolved: boolean },
  breach: BreachFields,
  locale: LocaleCode,
) {
  return {
    id: instance.id,
    breachName: breach.name,
    title: breach.title,
    emails: instance.emails,
    breachDate: `${breach.breachDate.toISOString().slice(0, 10)}T00:00:00+00:00`,
    breachCategories: visibleDataClasses(breach.dataClasses),
    resolved: instance.resolved,
    generatedDescription: generatedSummary(breach, locale),
    nextSteps: nextStepsFor(breach.dataClasses, locale),
  };
}

/** The redacted entry (prospect customers): nothing but the instance id, addresses and flag. */
export function redactedBreachEntry(instance: { id: string; emails: string[]; resolved: boolean }) {
  return { id: instance.id, emails: instance.emails, resolved: instance.resolved };
}

/** Newest breach first, then by name: the order of every breach list. */
export function byBreachDateDesc(a: BreachFields, b: BreachFields): number {
  return b.breachDate.getTime() - a.breachDate.getTime() || a.name.localeCompare(b.name);
}
