import { pluralOf } from "../plural";
import type { ReportTexts } from "./en-GB";

const one = pluralOf("fi-FI");

/** Finnish. */
export const fiFIReports: ReportTexts = {
  monthly: {
    openHeading: "Yhä avoimet",
    openEmpty: "Avoimia tietomurtoja ei ole.",
    fixedHeading: "Korjattu tässä kuussa",
    fixedEmpty: "Tässä kuussa ei korjattu yhtään tietomurtoa.",
    mailboxesHeading: "Valvotut postilaatikot",
    mailboxes: (count, fromDirectory) =>
      fromDirectory > 0
        ? `${one(count, "1 aktiivinen postilaatikko", `${count} aktiivista postilaatikkoa`)}, joista ${fromDirectory} hakemistostanne`
        : one(count, "1 aktiivinen postilaatikko", `${count} aktiivista postilaatikkoa`),
  },
  executive: {
    title: "Paljastumaraportti johdolle",
    period: (from, to) => `${from}–${to}`,
    intro: (company, from, to) =>
      `Yrityksen ${company} paljastuminen tunnetuissa tietomurroissa ajalla ${from}–${to} ja mitä asialle tehtiin.`,
    scoreHeading: "Uhkapisteet ajan mittaan",
    scoreStart: "Alussa",
    scoreEnd: "Lopussa",
    scoreHighest: "Korkein",
    scale: "0 tarkoittaa, ettei tunnettuja paljastumia ole; asteikon yläraja on 97.",
    newFindings: "Uudet löydökset",
    resolvedFindings: "Korjatut löydökset",
    openAtEnd: "Avoinna lopussa",
    mailboxes: "Aktiiviset postilaatikot",
    newHeading: "Jakson uudet löydökset",
    newEmpty: "Ei uusia paljastumia tällä jaksolla.",
    doneHeading: "Mitä tehtiin",
    doneEmpty: "Yhtään löydöstä ei korjattu tällä jaksolla.",
    resolvedOn: (title, date) => `${title}: korjattu ${date}`,
    medianDays: (days) =>
      one(days, "Puolet niistä korjattiin päivän kuluessa löytymisestä.", `Puolet niistä korjattiin ${days} päivän kuluessa löytymisestä.`),
    mailboxesHeading: "Eniten paljastuneet postilaatikot",
    mailboxItem: (email, count) => one(count, `${email}: 1 avoin tietomurto`, `${email}: ${count} avointa tietomurtoa`),
    breachesHeading: "Riskialtteimmat avoimet tietomurrot",
    breachItem: (title, date, count) => one(count, `${title} (${date}): 1 osoite`, `${title} (${date}): ${count} osoitetta`),
    noneOpen: "Jakson lopussa avoimia tietomurtoja ei ole.",
    more: (count) => `ja ${count} muuta`,
  },
  prospect: {
    title: "Paljastumatarkistus",
    intro: (company, date) => `Kertaluonteinen tarkistus yrityksen ${company} verkkotunnuksista ja sähköpostiosoitteista, tehty ${date}.`,
    notChecked: (company) => `Yrityksen ${company} kertatarkistusta ei ole vielä tehty.`,
    instances: "Esiintymät tietomurroissa",
    exposedMailboxes: "Paljastuneet postilaatikot",
    mailboxesHeading: "Paljastuneet postilaatikot",
    mailboxItem: (email, count) => one(count, `${email}: 1 tietomurrossa`, `${email}: ${count} tietomurrossa`),
    none: "Yksikään tarkistetuista osoitteista ei esiinny tunnetussa tietomurrossa.",
    domainsHeading: "Tarkistetut verkkotunnukset",
    upgradeHeading: "Mitä täysi valvonta tuo lisää",
    upgrade: [
      "Mitä tietomurtoja nämä ovat, milloin ne tapahtuivat ja mitä tietoja niissä paljastui",
      "Mitä kullekin kannattaa tehdä",
      "Tarkistus joka päivä ja ilmoitus, kun osoite löytyy uudesta tietomurrosta",
      "Kuukausiraportti ja portaali, jossa ovat kaikki löydökset",
    ],
    contact: (partner) => `Kysy täydestä valvonnasta: ${partner}.`,
    more: (count) => `ja ${count} muuta`,
  },
};
