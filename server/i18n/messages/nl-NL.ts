import type { Translation } from "./en-GB";
import { pluralOf } from "./plural";

const one = pluralOf("nl-NL");

/** Dutch. */
export const nlNL: Translation = {
  portal: {
    portalName: "Blootstellingsportaal",
    skipToContent: "Naar de inhoud",
    navigationLabel: "Portaal",
    nav: { overview: "Overzicht", breaches: "Datalekken", assets: "Bewaakte gegevens", settings: "E-mailinstellingen" },
    signedInAs: "Aangemeld als {email}",
    signOut: "Afmelden",
    overview: {
      title: "Overzicht",
      intro: "Hoe zwaar {company} is blootgesteld in bekende datalekken.",
      threatScore: "Dreigingsscore",
      threatScoreOf: "{score} van {max}",
      threatScoreHelp: "0 betekent geen bekende blootstelling en {max} is het hoogst. De score daalt als u lekken oplost.",
      levels: { none: "Geen bekende blootstelling", low: "Laag", moderate: "Matig", high: "Hoog", critical: "Kritiek" },
      unresolved: "Niet opgeloste lekken",
      resolved: "Opgeloste lekken",
      exposedEmails: "Gelekte e-mailadressen",
      lastChecked: "Laatst gecontroleerd op {date}.",
      notCheckedYet: "De eerste controle heeft nog niet plaatsgevonden.",
      timelineTitle: "Blootstelling in de tijd",
      timelineHelp: "Lekken waarin uw adressen zijn blootgesteld, per jaar waarin ze plaatsvonden.",
      timelineEmpty: "Tot nu toe zijn er geen lekken gevonden.",
      timelineYear: "Jaar",
      timelineEarlier: "{year} en eerder",
      timelineBar: "{year}: {notFixed} niet opgelost, {fixed} opgelost",
      viewBreaches: "Bekijk de lekken",
    },
    breaches: {
      title: "Datalekken",
      intro: "Datalekken waarin uw bewaakte e-mailadressen voorkwamen.",
      none: "Er zijn geen lekken gevonden.",
      count: "Gevonden lekken: {count}",
      breachDate: "Datum van het lek",
      categories: "Gelekte gegevens",
      exposedEmails: "Gelekte adressen",
      fixed: "Opgelost",
      notFixed: "Niet opgelost",
      details: "Details",
      exposureNumber: "Blootstelling {number}",
    },
    breach: {
      whatHappened: "Wat er is gebeurd",
      catalogueDescription: "Beschrijving uit de catalogus van datalekken",
      nextSteps: "Wat u nu kunt doen",
      status: "Status",
      markFixed: "Markeren als opgelost",
      markNotFixed: "Markeren als niet opgelost",
      saving: "Opslaan…",
      saved: "Opgeslagen.",
      saveFailed: "De wijziging kon niet worden opgeslagen. Probeer het opnieuw.",
      allBreaches: "Alle lekken",
      notFound: "Dit lek bestaat niet of is niet van u.",
    },
    upgrade: {
      notice: "Dit is een eenmalige controle: die laat zien in hoeveel lekken uw adressen voorkwamen, en welke adressen.",
      title: "Wat volledige bewaking laat zien",
      items: [
        "De naam van elk lek en wanneer het plaatsvond",
        "Welke soort gegevens is gelekt",
        "Een beschrijving van elk lek",
        "Stap voor stap advies over wat u kunt doen",
        "Dagelijkse controles en meldingen van nieuwe lekken",
        "Uw blootstelling in de tijd",
      ],
      contact: "Vraag uw leverancier om uw bewaking uit te breiden.",
    },
    assets: {
      title: "Bewaakte gegevens",
      intro: "Deze domeinen en e-mailadressen worden gecontroleerd op bekende datalekken.",
      domains: "Domeinen",
      emails: "E-mailadressen",
      none: "Geen",
      discovered: "Gevonden op uw domein",
    },
    settings: {
      title: "E-mailinstellingen",
      intro: "Kies welke e-mails over {company} worden verstuurd, en naar wie.",
      breachAlerts: "Meldingen van datalekken",
      breachAlertsHelp: "Een e-mail wanneer een controle nieuwe lekken vindt.",
      monthlyReport: "Maandrapport",
      monthlyReportHelp: "Een samenvatting op de 1e van elke maand, met een pdf.",
      recipients: "Ontvangers",
      recipientsHelp: "Elk adres kan beide soorten e-mail stoppen; uw leverancier bepaalt wie op de lijst staat.",
      address: "Adres",
      noRecipients: "Geen ontvangers.",
      partnerOff: "Uw leverancier verstuurt deze e-mails op dit moment niet, dus er wordt niets verstuurd, wat hier ook is ingesteld.",
      save: "Opslaan",
      saving: "Bezig met opslaan…",
      saved: "Opgeslagen.",
      saveFailed: "De wijziging kon niet worden opgeslagen. Probeer het opnieuw.",
    },
    signIn: {
      errors: {
        invalid: {
          title: "Deze aanmeldlink werkt niet",
          body: "De link is onvolledig of onbekend. E-mailprogramma's en ingebouwde browsers korten links soms in.",
        },
        expired: { title: "Deze aanmeldlink is verlopen", body: "Een aanmeldlink werkt tot een uur nadat hij is gemaakt." },
        used: { title: "Deze aanmeldlink is al gebruikt", body: "Met elke aanmeldlink kunt u zich één keer aanmelden." },
        unavailable: {
          title: "De toegang tot het portaal is beëindigd",
          body: "De bewaking van uw organisatie is beëindigd, dus het portaal is niet meer beschikbaar.",
        },
        "session-ended": {
          title: "Uw sessie is beëindigd",
          body: "Voor uw veiligheid worden sessies beëindigd na een periode zonder activiteit.",
        },
        "signed-out": { title: "U bent afgemeld", body: "U hebt zich afgemeld bij het portaal." },
        "sign-in-required": { title: "Meld u aan met uw link", body: "Het portaal opent met een aanmeldlink van uw leverancier." },
      },
      newLink: "Vraag uw leverancier om een nieuwe aanmeldlink om het portaal te openen.",
      stillSignedIn: "U bent op dit apparaat nog aangemeld.",
      openPortal: "Open het portaal",
    },
  },
  email: {
    common: {
      why: (partner, company) => `${partner} bewaakt de domeinen en e-mailadressen van ${company} op datalekken en stuurt u deze e-mail.`,
      reply: (partner) => `Vragen? Beantwoord deze e-mail om ${partner} te bereiken.`,
      portalHint: (partner) => `Details en vervolgstappen per lek vindt u in uw portaal; vraag ${partner} om een aanmeldlink.`,
      unsubscribe: {
        welcome: "Geen e-mails meer van deze dienst naar dit adres",
        breach_alert: "Geen meldingen van datalekken meer naar dit adres",
        monthly_report: "Geen maandrapporten meer naar dit adres",
      },
    },
    welcome: {
      subject: (company) => `Bewaking op datalekken is nu actief voor ${company}`,
      preview: "Wat we bewaken en hoe u uw portaal opent",
      heading: "Welkom bij de bewaking op datalekken",
      intro: (partner, company) =>
        `${partner} heeft bewaking op datalekken ingesteld voor ${company}. Elke dag controleren we of de onderstaande domeinen en e-mailadressen voorkomen in bekende datalekken, en we waarschuwen u als dat zo is.`,
      domains: "Bewaakte domeinen",
      emails: "Bewaakte e-mailadressen",
      domainsNote: "Voor elk bewaakt domein vinden en bewaken we ook de gelekte adressen op dat domein.",
      portalHeading: "Uw portaal",
      portal: (partner) =>
        `In het portaal ziet u elk gevonden lek, welke gegevens zijn gelekt en wat u moet doen. Vraag ${partner} om een aanmeldlink om het te openen. Elke link werkt één keer, binnen een uur.`,
    },
    alert: {
      subject: (count, company) =>
        one(count, `Nieuw datalek gevonden voor ${company}`, `${count} nieuwe datalekken gevonden voor ${company}`),
      heading: (count) => one(count, "1 nieuw datalek", `${count} nieuwe datalekken`),
      intro: (company) => `Onze laatste controle vond bewaakte adressen van ${company} in de onderstaande lekken.`,
      exposedData: "Gelekte gegevens",
      exposedAddresses: "Gelekte adressen",
      nextSteps: "Wat u moet doen",
      alsoFound: "Ook gevonden",
      moreAddresses: (count) => `en nog ${count} adressen`,
      redactedIntro: (count, company) =>
        one(
          count,
          `De controle van ${company} vond 1 datalek waarin de onderstaande adressen voorkomen.`,
          `De controle van ${company} vond ${count} datalekken waarin de onderstaande adressen voorkomen.`,
        ),
      redactedMore: (partner) =>
        `Om welke lekken het gaat, wat er is gelekt en wat u moet doen, hoort bij volledige bewaking. Vraag ${partner} ernaar.`,
    },
    report: {
      subject: (company, period) => `Rapport datalekken voor ${company}: ${period}`,
      heading: (period) => `Rapport datalekken over ${period}`,
      intro: (company, period) => `Zo kwetsbaar was ${company} in ${period}, en dit is er veranderd.`,
      threatScore: "Dreigingsscore",
      scoreOutOf: (score) => `${score} van 97`,
      scale: "0 betekent geen bekende blootstelling; de schaal loopt tot 97.",
      change: (delta, previous) =>
        delta > 0
          ? `${delta} hoger dan in het rapport over ${previous}`
          : delta < 0
            ? `${-delta} lager dan in het rapport over ${previous}`
            : `Gelijk aan het rapport over ${previous}`,
      first: "Dit is het eerste rapport.",
      newBreaches: "Nieuwe lekken",
      openBreaches: "Openstaande lekken",
      fixedBreaches: "Opgeloste lekken",
      newNote: "gevonden in de afgelopen maand",
      openNote: "nog niet opgelost",
      fixedNote: "opgelost in de afgelopen maand",
      newListHeading: "Lekken gevonden in de afgelopen maand",
      noNew: "In de afgelopen maand zijn geen nieuwe lekken gevonden.",
      more: (count) => `en nog ${count}`,
      assets: "Wat we bewaken",
      domains: (count) => one(count, "1 domein", `${count} domeinen`),
      emails: (count) => one(count, "1 e-mailadres", `${count} e-mailadressen`),
      attachment: "Hetzelfde rapport zit als pdf in de bijlage.",
    },
    unsubscribe: {
      title: "Afmelden",
      what: {
        welcome: (company) => `e-mails over de bewaking op datalekken van ${company}`,
        breach_alert: (company) => `meldingen van datalekken voor ${company}`,
        monthly_report: (company) => `maandrapporten over datalekken voor ${company}`,
      },
      question: (what, email) => `Geen ${what} meer naar ${email}?`,
      button: "Afmelden",
      done: (what, email) => `Gelukt: ${email} ontvangt geen ${what} meer.`,
      undo: "Bedacht? Met de instellingen in uw portaal zet u ze weer aan.",
      invalid:
        "Deze afmeldlink is niet geldig. Open de volledige link uit de e-mail, of beantwoord de e-mail met het verzoek de berichten te stoppen.",
    },
  },
};
