import { pluralOf } from "../plural";
import type { ReportTexts } from "./en-GB";

const one = pluralOf("sv-SE");

/** Swedish. */
export const svSEReports: ReportTexts = {
  monthly: {
    openHeading: "Fortfarande öppna",
    openEmpty: "Inget intrång är öppet.",
    fixedHeading: "Åtgärdade den här månaden",
    fixedEmpty: "Inget intrång åtgärdades den här månaden.",
    mailboxesHeading: "Bevakade brevlådor",
    mailboxes: (count, fromDirectory) =>
      fromDirectory > 0
        ? `${one(count, "1 aktiv brevlåda", `${count} aktiva brevlådor`)}, varav ${fromDirectory} från er katalog`
        : one(count, "1 aktiv brevlåda", `${count} aktiva brevlådor`),
  },
  executive: {
    title: "Exponeringsrapport för ledningen",
    period: (from, to) => `${from} till ${to}`,
    intro: (company, from, to) => `Så exponerat var ${company} i kända dataintrång från ${from} till ${to}, och vad som gjordes åt det.`,
    scoreHeading: "Hotpoäng över tid",
    scoreStart: "I början",
    scoreEnd: "I slutet",
    scoreHighest: "Högst",
    scale: "0 betyder ingen känd exponering; skalan slutar på 97.",
    newFindings: "Nya fynd",
    resolvedFindings: "Åtgärdade fynd",
    openAtEnd: "Öppna i slutet",
    mailboxes: "Aktiva brevlådor",
    newHeading: "Nya fynd under perioden",
    newEmpty: "Inga nya exponeringar under perioden.",
    doneHeading: "Det här gjordes",
    doneEmpty: "Inget fynd åtgärdades under perioden.",
    resolvedOn: (title, date) => `${title}: åtgärdat ${date}`,
    medianDays: (days) =>
      one(
        days,
        "Hälften av dem åtgärdades inom en dag efter att de hittades.",
        `Hälften av dem åtgärdades inom ${days} dagar efter att de hittades.`,
      ),
    mailboxesHeading: "De mest exponerade brevlådorna",
    mailboxItem: (email, count) => one(count, `${email}: 1 öppet intrång`, `${email}: ${count} öppna intrång`),
    breachesHeading: "De mest riskfyllda öppna intrången",
    breachItem: (title, date, count) => one(count, `${title} (${date}): 1 adress`, `${title} (${date}): ${count} adresser`),
    noneOpen: "Inget intrång är öppet i slutet av perioden.",
    more: (count) => `och ${count} till`,
  },
  prospect: {
    title: "Exponeringskontroll",
    intro: (company, date) => `En engångskontroll av domänerna och e-postadresserna för ${company}, gjord ${date}.`,
    notChecked: (company) => `Engångskontrollen av ${company} har inte körts än.`,
    instances: "Intrångsförekomster",
    exposedMailboxes: "Exponerade brevlådor",
    mailboxesHeading: "Exponerade brevlådor",
    mailboxItem: (email, count) => one(count, `${email}: i 1 intrång`, `${email}: i ${count} intrång`),
    none: "Ingen av de kontrollerade adresserna finns i ett känt intrång.",
    domainsHeading: "Kontrollerade domäner",
    upgradeHeading: "Det här ger full bevakning",
    upgrade: [
      "Vilka intrång det är, när de skedde och vilka uppgifter som exponerades",
      "Vad ni ska göra åt vart och ett",
      "En kontroll varje dag, med en varning när en adress dyker upp i ett nytt intrång",
      "En månadsrapport och en portal med alla fynd",
    ],
    contact: (partner) => `Fråga ${partner} om full bevakning.`,
    more: (count) => `och ${count} till`,
  },
};
