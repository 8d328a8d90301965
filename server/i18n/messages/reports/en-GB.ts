import { pluralOf } from "../plural";

const one = pluralOf("en-GB");

/**
 * The reports' texts (docs/customers.md, "Reports"): the monthly report's lists, the executive
 * report of a period and a prospect's exposure check, each also a PDF. Dates and numbers come in
 * already formatted in the locale.
 */
export const enGBReports = {
  monthly: {
    openHeading: "Still open",
    openEmpty: "No breach is open.",
    fixedHeading: "Resolved this month",
    fixedEmpty: "No breach was resolved this month.",
    mailboxesHeading: "Mailboxes monitored",
    mailboxes: (count: number, fromDirectory: number) =>
      fromDirectory > 0
        ? `${one(count, "1 active mailbox", `${count} active mailboxes`)}, ${fromDirectory} of them from your directory`
        : one(count, "1 active mailbox", `${count} active mailboxes`),
  },
  executive: {
    title: "Executive exposure report",
    period: (from: string, to: string) => `${from} to ${to}`,
    intro: (company: string, from: string, to: string) =>
      `How exposed ${company} was in known data breaches from ${from} to ${to}, and what was done about it.`,
    scoreHeading: "Threat score over time",
    scoreStart: "At the start",
    scoreEnd: "At the end",
    scoreHighest: "Highest",
    scale: "0 means no known exposure; the scale ends at 97.",
    newFindings: "New findings",
    resolvedFindings: "Resolved findings",
    openAtEnd: "Open at the end",
    mailboxes: "Active mailboxes",
    newHeading: "New findings in the period",
    newEmpty: "No new exposures in this period.",
    doneHeading: "What was done",
    doneEmpty: "No finding was resolved in this period.",
    resolvedOn: (title: string, date: string) => `${title}: resolved on ${date}`,
    medianDays: (days: number) =>
      one(
        days,
        "Half of them were resolved within a day of being found.",
        `Half of them were resolved within ${days} days of being found.`,
      ),
    mailboxesHeading: "The most exposed mailboxes",
    mailboxItem: (email: string, count: number) => one(count, `${email}: 1 open breach`, `${email}: ${count} open breaches`),
    breachesHeading: "The riskiest open breaches",
    breachItem: (title: string, date: string, count: number) =>
      one(count, `${title} (${date}): 1 address`, `${title} (${date}): ${count} addresses`),
    noneOpen: "No breach is open at the end of the period.",
    more: (count: number) => `and ${count} more`,
  },
  prospect: {
    title: "Exposure check",
    intro: (company: string, date: string) => `A one-time check of the domains and e-mail addresses of ${company}, made on ${date}.`,
    notChecked: (company: string) => `The one-time check of ${company} has not run yet.`,
    instances: "Breach instances",
    exposedMailboxes: "Exposed mailboxes",
    mailboxesHeading: "Exposed mailboxes",
    mailboxItem: (email: string, count: number) => one(count, `${email}: in 1 breach`, `${email}: in ${count} breaches`),
    none: "None of the checked addresses appears in a known breach.",
    domainsHeading: "Checked domains",
    upgradeHeading: "What full monitoring adds",
    upgrade: [
      "Which breaches these are, when they happened and what data they exposed",
      "What to do about each one",
      "A check every day, with an alert when an address turns up in a new breach",
      "A monthly report, and a portal with every finding",
    ],
    contact: (partner: string) => `Ask ${partner} about full monitoring.`,
    more: (count: number) => `and ${count} more`,
  },
};

/** The reports' texts of a locale, in en-GB's shape. */
export type ReportTexts = typeof enGBReports;
