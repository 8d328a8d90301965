import { pluralOf } from "../plural";
import type { ReportTexts } from "./en-GB";

const one = pluralOf("nb-NO");

/** Norwegian (Bokmål). */
export const nbNOReports: ReportTexts = {
  monthly: {
    openHeading: "Fortsatt åpne",
    openEmpty: "Ingen innbrudd er åpne.",
    fixedHeading: "Løst denne måneden",
    fixedEmpty: "Ingen innbrudd ble løst denne måneden.",
    mailboxesHeading: "Overvåkede postbokser",
    mailboxes: (count, fromDirectory) =>
      fromDirectory > 0
        ? `${one(count, "1 aktiv postboks", `${count} aktive postbokser`)}, ${fromDirectory} av dem fra katalogen deres`
        : one(count, "1 aktiv postboks", `${count} aktive postbokser`),
  },
  executive: {
    title: "Eksponeringsrapport for ledelsen",
    period: (from, to) => `${from} til ${to}`,
    intro: (company, from, to) =>
      `Slik var ${company} eksponert i kjente datainnbrudd fra ${from} til ${to}, og hva som ble gjort med det.`,
    scoreHeading: "Trusselpoeng over tid",
    scoreStart: "Ved starten",
    scoreEnd: "Ved slutten",
    scoreHighest: "Høyest",
    scale: "0 betyr ingen kjent eksponering; skalaen slutter på 97.",
    newFindings: "Nye funn",
    resolvedFindings: "Løste funn",
    openAtEnd: "Åpne ved slutten",
    mailboxes: "Aktive postbokser",
    newHeading: "Nye funn i perioden",
    newEmpty: "Ingen nye eksponeringer i perioden.",
    doneHeading: "Dette ble gjort",
    doneEmpty: "Ingen funn ble løst i perioden.",
    resolvedOn: (title, date) => `${title}: løst ${date}`,
    medianDays: (days) =>
      one(
        days,
        "Halvparten av dem ble løst innen en dag etter at de ble funnet.",
        `Halvparten av dem ble løst innen ${days} dager etter at de ble funnet.`,
      ),
    mailboxesHeading: "De mest eksponerte postboksene",
    mailboxItem: (email, count) => one(count, `${email}: 1 åpent innbrudd`, `${email}: ${count} åpne innbrudd`),
    breachesHeading: "De mest risikofylte åpne innbruddene",
    breachItem: (title, date, count) => one(count, `${title} (${date}): 1 adresse`, `${title} (${date}): ${count} adresser`),
    noneOpen: "Ingen innbrudd er åpne ved slutten av perioden.",
    more: (count) => `og ${count} til`,
  },
  prospect: {
    title: "Eksponeringssjekk",
    intro: (company, date) => `En engangssjekk av domenene og e-postadressene til ${company}, gjort ${date}.`,
    notChecked: (company) => `Engangssjekken av ${company} har ikke kjørt ennå.`,
    instances: "Innbruddsforekomster",
    exposedMailboxes: "Eksponerte postbokser",
    mailboxesHeading: "Eksponerte postbokser",
    mailboxItem: (email, count) => one(count, `${email}: i 1 innbrudd`, `${email}: i ${count} innbrudd`),
    none: "Ingen av de sjekkede adressene finnes i et kjent innbrudd.",
    domainsHeading: "Sjekkede domener",
    upgradeHeading: "Dette gir full overvåking",
    upgrade: [
      "Hvilke innbrudd dette er, når de skjedde og hvilke data de eksponerte",
      "Hva dere bør gjøre med hvert av dem",
      "En sjekk hver dag, med et varsel når en adresse dukker opp i et nytt innbrudd",
      "En månedsrapport, og en portal med alle funn",
    ],
    contact: (partner) => `Spør ${partner} om full overvåking.`,
    more: (count) => `og ${count} til`,
  },
};
