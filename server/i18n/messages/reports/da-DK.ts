import { pluralOf } from "../plural";
import type { ReportTexts } from "./en-GB";

const one = pluralOf("da-DK");

/** Danish. */
export const daDKReports: ReportTexts = {
  monthly: {
    openHeading: "Stadig åbne",
    openEmpty: "Ingen brud er åbne.",
    fixedHeading: "Løst i denne måned",
    fixedEmpty: "Ingen brud blev løst i denne måned.",
    mailboxesHeading: "Overvågede postkasser",
    mailboxes: (count, fromDirectory) =>
      fromDirectory > 0
        ? `${one(count, "1 aktiv postkasse", `${count} aktive postkasser`)}, heraf ${fromDirectory} fra jeres katalog`
        : one(count, "1 aktiv postkasse", `${count} aktive postkasser`),
  },
  executive: {
    title: "Eksponeringsrapport til ledelsen",
    period: (from, to) => `${from} til ${to}`,
    intro: (company, from, to) =>
      `Sådan var ${company} eksponeret i kendte databrud fra ${from} til ${to}, og hvad der blev gjort ved det.`,
    scoreHeading: "Trusselsscore over tid",
    scoreStart: "Ved starten",
    scoreEnd: "Ved slutningen",
    scoreHighest: "Højest",
    scale: "0 betyder ingen kendt eksponering; skalaen går op til 97.",
    newFindings: "Nye fund",
    resolvedFindings: "Løste fund",
    openAtEnd: "Åbne ved slutningen",
    mailboxes: "Aktive postkasser",
    newHeading: "Nye fund i perioden",
    newEmpty: "Ingen nye eksponeringer i perioden.",
    doneHeading: "Det blev gjort",
    doneEmpty: "Intet fund blev løst i perioden.",
    resolvedOn: (title, date) => `${title}: løst ${date}`,
    medianDays: (days) =>
      one(
        days,
        "Halvdelen af dem blev løst inden for en dag efter fundet.",
        `Halvdelen af dem blev løst inden for ${days} dage efter fundet.`,
      ),
    mailboxesHeading: "De mest eksponerede postkasser",
    mailboxItem: (email, count) => one(count, `${email}: 1 åbent brud`, `${email}: ${count} åbne brud`),
    breachesHeading: "De mest risikable åbne brud",
    breachItem: (title, date, count) => one(count, `${title} (${date}): 1 adresse`, `${title} (${date}): ${count} adresser`),
    noneOpen: "Ingen brud er åbne ved periodens slutning.",
    more: (count) => `og ${count} mere`,
  },
  prospect: {
    title: "Eksponeringstjek",
    intro: (company, date) => `Et engangstjek af domænerne og e-mailadresserne for ${company}, foretaget ${date}.`,
    notChecked: (company) => `Engangstjekket af ${company} er ikke kørt endnu.`,
    instances: "Forekomster i brud",
    exposedMailboxes: "Eksponerede postkasser",
    mailboxesHeading: "Eksponerede postkasser",
    mailboxItem: (email, count) => one(count, `${email}: i 1 brud`, `${email}: i ${count} brud`),
    none: "Ingen af de tjekkede adresser findes i et kendt brud.",
    domainsHeading: "Tjekkede domæner",
    upgradeHeading: "Det giver fuld overvågning",
    upgrade: [
      "Hvilke brud det er, hvornår de skete, og hvilke data de eksponerede",
      "Hvad I skal gøre ved hvert enkelt",
      "Et tjek hver dag, med en advarsel når en adresse dukker op i et nyt brud",
      "En månedsrapport og en portal med alle fund",
    ],
    contact: (partner) => `Spørg ${partner} om fuld overvågning.`,
    more: (count) => `og ${count} mere`,
  },
};
