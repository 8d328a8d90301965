import { pluralOf } from "../plural";
import type { ReportTexts } from "./en-GB";

const one = pluralOf("nl-NL");

/** Dutch. */
export const nlNLReports: ReportTexts = {
  monthly: {
    openHeading: "Nog open",
    openEmpty: "Er staat geen lek open.",
    fixedHeading: "Deze maand opgelost",
    fixedEmpty: "Deze maand is geen lek opgelost.",
    mailboxesHeading: "Bewaakte mailboxen",
    mailboxes: (count, fromDirectory) =>
      fromDirectory > 0
        ? `${one(count, "1 actieve mailbox", `${count} actieve mailboxen`)}, waarvan ${fromDirectory} uit uw directory`
        : one(count, "1 actieve mailbox", `${count} actieve mailboxen`),
  },
  executive: {
    title: "Managementrapport blootstelling",
    period: (from, to) => `${from} tot en met ${to}`,
    intro: (company, from, to) => `Zo kwetsbaar was ${company} in bekende datalekken van ${from} tot en met ${to}, en wat eraan is gedaan.`,
    scoreHeading: "Dreigingsscore in de tijd",
    scoreStart: "Aan het begin",
    scoreEnd: "Aan het eind",
    scoreHighest: "Hoogste",
    scale: "0 betekent geen bekende blootstelling; de schaal loopt tot 97.",
    newFindings: "Nieuwe bevindingen",
    resolvedFindings: "Opgeloste bevindingen",
    openAtEnd: "Open aan het eind",
    mailboxes: "Actieve mailboxen",
    newHeading: "Nieuwe bevindingen in de periode",
    newEmpty: "Geen nieuwe blootstellingen in deze periode.",
    doneHeading: "Wat er is gedaan",
    doneEmpty: "In deze periode is geen bevinding opgelost.",
    resolvedOn: (title, date) => `${title}: opgelost op ${date}`,
    medianDays: (days) =>
      one(
        days,
        "De helft ervan was binnen een dag na de vondst opgelost.",
        `De helft ervan was binnen ${days} dagen na de vondst opgelost.`,
      ),
    mailboxesHeading: "De meest blootgestelde mailboxen",
    mailboxItem: (email, count) => one(count, `${email}: 1 openstaand lek`, `${email}: ${count} openstaande lekken`),
    breachesHeading: "De riskantste openstaande lekken",
    breachItem: (title, date, count) => one(count, `${title} (${date}): 1 adres`, `${title} (${date}): ${count} adressen`),
    noneOpen: "Aan het eind van de periode staat geen lek open.",
    more: (count) => `en nog ${count}`,
  },
  prospect: {
    title: "Blootstellingscheck",
    intro: (company, date) => `Een eenmalige check van de domeinen en e-mailadressen van ${company}, uitgevoerd op ${date}.`,
    notChecked: (company) => `De eenmalige check van ${company} is nog niet uitgevoerd.`,
    instances: "Vermeldingen in lekken",
    exposedMailboxes: "Blootgestelde mailboxen",
    mailboxesHeading: "Blootgestelde mailboxen",
    mailboxItem: (email, count) => one(count, `${email}: in 1 lek`, `${email}: in ${count} lekken`),
    none: "Geen van de gecontroleerde adressen komt voor in een bekend lek.",
    domainsHeading: "Gecontroleerde domeinen",
    upgradeHeading: "Wat volledige bewaking toevoegt",
    upgrade: [
      "Welke lekken het zijn, wanneer ze plaatsvonden en welke gegevens erin zaten",
      "Wat u aan elk ervan doet",
      "Elke dag een check, met een melding zodra een adres in een nieuw lek opduikt",
      "Een maandrapport en een portaal met alle bevindingen",
    ],
    contact: (partner) => `Vraag ${partner} naar volledige bewaking.`,
    more: (count) => `en nog ${count}`,
  },
};
