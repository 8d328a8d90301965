import type { LocaleCode } from "../i18n/locales";
import type { CustomerNotificationKind } from "./types";

/**
 * Every text of the customer e-mails (and the monthly report's PDF) in the six locales of
 * docs/breaches.md ("Locales and texts"). Names are inserted as given; the Finnish texts put them where they need no
 * inflection (after a colon or in parentheses).
 */
export interface NotificationTexts {
  common: {
    why(partner: string, company: string): string;
    reply(partner: string): string;
    portalHint(partner: string): string;
    unsubscribe: Record<CustomerNotificationKind, string>;
  };
  welcome: {
    subject(company: string): string;
    preview: string;
    heading: string;
    intro(partner: string, company: string): string;
    domains: string;
    emails: string;
    domainsNote: string;
    portalHeading: string;
    portal(partner: string): string;
  };
  alert: {
    subject(count: number, company: string): string;
    heading(count: number): string;
    intro(company: string): string;
    exposedData: string;
    exposedAddresses: string;
    nextSteps: string;
    /** The heading of the breaches listed by title only (beyond the detailed ones). */
    alsoFound: string;
    moreAddresses(count: number): string;
    redactedIntro(count: number, company: string): string;
    redactedMore(partner: string): string;
  };
  report: {
    subject(company: string, period: string): string;
    heading(period: string): string;
    intro(company: string, period: string): string;
    threatScore: string;
    scoreOutOf(score: string): string;
    scale: string;
    change(delta: number, previousPeriod: string): string;
    first: string;
    newBreaches: string;
    openBreaches: string;
    fixedBreaches: string;
    newNote: string;
    openNote: string;
    fixedNote: string;
    newListHeading: string;
    noNew: string;
    more(count: number): string;
    assets: string;
    domains(count: number): string;
    emails(count: number): string;
    attachment: string;
  };
  /** The page an unsubscribe link opens. */
  unsubscribe: {
    title: string;
    what: Record<CustomerNotificationKind, (company: string) => string>;
    question(what: string, email: string): string;
    button: string;
    done(what: string, email: string): string;
    undo: string;
    invalid: string;
  };
}

const one = (count: number, singular: string, plural: string) => (count === 1 ? singular : plural);

const EN_GB: NotificationTexts = {
  common: {
    why: (partner, company) =>
      `${partner} monitors the domains and e-mail addresses of ${company} for data breaches and sends you this e-mail.`,
    reply: (partner) => `Questions? Reply to this e-mail to reach ${partner}.`,
    portalHint: (partner) => `Details and next steps for every breach are in your portal; ask ${partner} for a sign-in link.`,
    unsubscribe: {
      welcome: "Stop all e-mails from this service to this address",
      breach_alert: "Stop breach alerts to this address",
      monthly_report: "Stop monthly reports to this address",
    },
  },
  welcome: {
    subject: (company) => `Breach monitoring is now active for ${company}`,
    preview: "What we monitor and how to open your portal",
    heading: "Welcome to breach monitoring",
    intro: (partner, company) =>
      `${partner} has set up breach monitoring for ${company}. Every day we check whether the domains and e-mail addresses below appear in known data breaches, and we alert you when they do.`,
    domains: "Monitored domains",
    emails: "Monitored e-mail addresses",
    domainsNote: "For each monitored domain, we also find and monitor the exposed addresses at that domain.",
    portalHeading: "Your portal",
    portal: (partner) =>
      `The portal shows every breach found, what was exposed and what to do next. To open it, ask ${partner} for a sign-in link. Each link works once, within an hour.`,
  },
  alert: {
    subject: (count, company) => one(count, `New data breach found for ${company}`, `${count} new data breaches found for ${company}`),
    heading: (count) => one(count, "1 new data breach", `${count} new data breaches`),
    intro: (company) => `Our latest scan found monitored addresses of ${company} in the breaches below.`,
    exposedData: "Exposed data",
    exposedAddresses: "Exposed addresses",
    nextSteps: "What to do",
    alsoFound: "Also found",
    moreAddresses: (count) => `and ${count} more addresses`,
    redactedIntro: (count, company) =>
      one(
        count,
        `The check of ${company} found 1 data breach that exposes the addresses below.`,
        `The check of ${company} found ${count} data breaches that expose the addresses below.`,
      ),
    redactedMore: (partner) =>
      `Which breaches these are, what was exposed and what to do about it comes with full monitoring. Ask ${partner} about it.`,
  },
  report: {
    subject: (company, period) => `Breach report for ${company}: ${period}`,
    heading: (period) => `Breach report for ${period}`,
    intro: (company, period) => `How exposed ${company} was in ${period}, and what changed.`,
    threatScore: "Threat score",
    scoreOutOf: (score) => `${score} of 97`,
    scale: "0 means no known exposure; the scale ends at 97.",
    change: (delta, previous) =>
      delta > 0
        ? `Up ${delta} since the report for ${previous}`
        : delta < 0
          ? `Down ${-delta} since the report for ${previous}`
          : `Unchanged since the report for ${previous}`,
    first: "This is the first report.",
    newBreaches: "New breaches",
    openBreaches: "Open breaches",
    fixedBreaches: "Fixed breaches",
    newNote: "found in the past month",
    openNote: "not yet resolved",
    fixedNote: "resolved in the past month",
    newListHeading: "Breaches found in the past month",
    noNew: "No new breaches were found in the past month.",
    more: (count) => `and ${count} more`,
    assets: "Monitored assets",
    domains: (count) => one(count, "1 domain", `${count} domains`),
    emails: (count) => one(count, "1 e-mail address", `${count} e-mail addresses`),
    attachment: "The same report is attached as a PDF.",
  },
  unsubscribe: {
    title: "Unsubscribe",
    what: {
      welcome: (company) => `e-mails about the breach monitoring of ${company}`,
      breach_alert: (company) => `breach alerts for ${company}`,
      monthly_report: (company) => `monthly breach reports for ${company}`,
    },
    question: (what, email) => `Stop ${what} to ${email}?`,
    button: "Unsubscribe",
    done: (what, email) => `Done: ${email} no longer receives ${what}.`,
    undo: "Changed your mind? The settings in your portal turn them back on.",
    invalid: "This unsubscribe link is not valid. Open the whole link from the e-mail, or reply to the e-mail to ask for the messages to stop.",
  },
};

const SV_SE: NotificationTexts = {
  common: {
    why: (partner, company) => `${partner} bevakar domänerna och e-postadresserna för ${company} mot dataintrång och skickar dig det här mejlet.`,
    reply: (partner) => `Frågor? Svara på det här mejlet så når du ${partner}.`,
    portalHint: (partner) => `Detaljer och åtgärder för varje intrång finns i din portal; be ${partner} om en inloggningslänk.`,
    unsubscribe: {
      welcome: "Stoppa alla mejl från tjänsten till den här adressen",
      breach_alert: "Stoppa intrångsvarningar till den här adressen",
      monthly_report: "Stoppa månadsrapporter till den här adressen",
    },
  },
  welcome: {
    subject: (company) => `Intrångsbevakningen är nu aktiv för ${company}`,
    preview: "Vad vi bevakar och hur du öppnar din portal",
    heading: "Välkommen till intrångsbevakningen",
    intro: (partner, company) =>
      `${partner} har startat intrångsbevakning för ${company}. Varje dag kontrollerar vi om domänerna och e-postadresserna nedan förekommer i kända dataintrång, och vi varnar dig när de gör det.`,
    domains: "Bevakade domäner",
    emails: "Bevakade e-postadresser",
    domainsNote: "För varje bevakad domän hittar och bevakar vi även exponerade adresser på domänen.",
    portalHeading: "Din portal",
    portal: (partner) =>
      `I portalen ser du alla intrång som hittats, vilka uppgifter som exponerats och vad du bör göra. Be ${partner} om en inloggningslänk för att öppna den. Varje länk fungerar en gång, inom en timme.`,
  },
  alert: {
    subject: (count, company) => one(count, `Nytt dataintrång hittat för ${company}`, `${count} nya dataintrång hittade för ${company}`),
    heading: (count) => one(count, "1 nytt dataintrång", `${count} nya dataintrång`),
    intro: (company) => `Vår senaste sökning hittade bevakade adresser för ${company} i intrången nedan.`,
    exposedData: "Exponerade uppgifter",
    exposedAddresses: "Exponerade adresser",
    nextSteps: "Vad du bör göra",
    alsoFound: "Även hittade",
    moreAddresses: (count) => `och ${count} adresser till`,
    redactedIntro: (count, company) =>
      one(
        count,
        `Kontrollen av ${company} hittade 1 dataintrång som exponerar adresserna nedan.`,
        `Kontrollen av ${company} hittade ${count} dataintrång som exponerar adresserna nedan.`,
      ),
    redactedMore: (partner) =>
      `Vilka intrång det gäller, vad som exponerats och vad du bör göra ingår i full bevakning. Fråga ${partner} om det.`,
  },
  report: {
    subject: (company, period) => `Intrångsrapport för ${company}: ${period}`,
    heading: (period) => `Intrångsrapport för ${period}`,
    intro: (company, period) => `Så exponerat var ${company} under ${period}, och det här har ändrats.`,
    threatScore: "Hotpoäng",
    scoreOutOf: (score) => `${score} av 97`,
    scale: "0 betyder ingen känd exponering; skalan slutar på 97.",
    change: (delta, previous) =>
      delta > 0
        ? `Upp ${delta} sedan rapporten för ${previous}`
        : delta < 0
          ? `Ner ${-delta} sedan rapporten för ${previous}`
          : `Oförändrad sedan rapporten för ${previous}`,
    first: "Det här är den första rapporten.",
    newBreaches: "Nya intrång",
    openBreaches: "Öppna intrång",
    fixedBreaches: "Åtgärdade intrång",
    newNote: "hittade den senaste månaden",
    openNote: "ännu inte åtgärdade",
    fixedNote: "åtgärdade den senaste månaden",
    newListHeading: "Intrång som hittats den senaste månaden",
    noNew: "Inga nya intrång hittades den senaste månaden.",
    more: (count) => `och ${count} till`,
    assets: "Bevakade tillgångar",
    domains: (count) => one(count, "1 domän", `${count} domäner`),
    emails: (count) => one(count, "1 e-postadress", `${count} e-postadresser`),
    attachment: "Samma rapport finns bifogad som PDF.",
  },
  unsubscribe: {
    title: "Avsluta prenumeration",
    what: {
      welcome: (company) => `mejl om intrångsbevakningen av ${company}`,
      breach_alert: (company) => `intrångsvarningar för ${company}`,
      monthly_report: (company) => `månadsrapporter om dataintrång för ${company}`,
    },
    question: (what, email) => `Sluta skicka ${what} till ${email}?`,
    button: "Avsluta",
    done: (what, email) => `Klart: ${email} får inte längre ${what}.`,
    undo: "Ångrat dig? Inställningarna i din portal slår på dem igen.",
    invalid: "Den här länken fungerar inte. Öppna hela länken från mejlet, eller svara på mejlet och be om att utskicken stoppas.",
  },
};

const NB_NO: NotificationTexts = {
  common: {
    why: (partner, company) => `${partner} overvåker domenene og e-postadressene til ${company} for datainnbrudd og sender deg denne e-posten.`,
    reply: (partner) => `Spørsmål? Svar på denne e-posten for å nå ${partner}.`,
    portalHint: (partner) => `Detaljer og tiltak for hvert innbrudd finner du i portalen din; be ${partner} om en påloggingslenke.`,
    unsubscribe: {
      welcome: "Stopp alle e-poster fra tjenesten til denne adressen",
      breach_alert: "Stopp varsler om datainnbrudd til denne adressen",
      monthly_report: "Stopp månedsrapporter til denne adressen",
    },
  },
  welcome: {
    subject: (company) => `Overvåking av datainnbrudd er nå aktiv for ${company}`,
    preview: "Hva vi overvåker og hvordan du åpner portalen din",
    heading: "Velkommen til overvåking av datainnbrudd",
    intro: (partner, company) =>
      `${partner} har satt opp overvåking av datainnbrudd for ${company}. Hver dag sjekker vi om domenene og e-postadressene nedenfor finnes i kjente datainnbrudd, og vi varsler deg når de gjør det.`,
    domains: "Overvåkede domener",
    emails: "Overvåkede e-postadresser",
    domainsNote: "For hvert overvåkede domene finner og overvåker vi også eksponerte adresser på domenet.",
    portalHeading: "Portalen din",
    portal: (partner) =>
      `I portalen ser du alle innbrudd som er funnet, hva som ble eksponert og hva du bør gjøre. Be ${partner} om en påloggingslenke for å åpne den. Hver lenke virker én gang, innen én time.`,
  },
  alert: {
    subject: (count, company) => one(count, `Nytt datainnbrudd funnet for ${company}`, `${count} nye datainnbrudd funnet for ${company}`),
    heading: (count) => one(count, "1 nytt datainnbrudd", `${count} nye datainnbrudd`),
    intro: (company) => `Det siste søket vårt fant overvåkede adresser for ${company} i innbruddene nedenfor.`,
    exposedData: "Eksponerte opplysninger",
    exposedAddresses: "Eksponerte adresser",
    nextSteps: "Dette bør du gjøre",
    alsoFound: "Også funnet",
    moreAddresses: (count) => `og ${count} adresser til`,
    redactedIntro: (count, company) =>
      one(
        count,
        `Kontrollen av ${company} fant 1 datainnbrudd som eksponerer adressene nedenfor.`,
        `Kontrollen av ${company} fant ${count} datainnbrudd som eksponerer adressene nedenfor.`,
      ),
    redactedMore: (partner) =>
      `Hvilke innbrudd det gjelder, hva som ble eksponert og hva du bør gjøre, følger med full overvåking. Spør ${partner} om det.`,
  },
  report: {
    subject: (company, period) => `Innbruddsrapport for ${company}: ${period}`,
    heading: (period) => `Innbruddsrapport for ${period}`,
    intro: (company, period) => `Slik var ${company} eksponert i ${period}, og dette er endret.`,
    threatScore: "Trusselpoeng",
    scoreOutOf: (score) => `${score} av 97`,
    scale: "0 betyr ingen kjent eksponering; skalaen slutter på 97.",
    change: (delta, previous) =>
      delta > 0
        ? `Opp ${delta} siden rapporten for ${previous}`
        : delta < 0
          ? `Ned ${-delta} siden rapporten for ${previous}`
          : `Uendret siden rapporten for ${previous}`,
    first: "Dette er den første rapporten.",
    newBreaches: "Nye innbrudd",
    openBreaches: "Åpne innbrudd",
    fixedBreaches: "Løste innbrudd",
    newNote: "funnet den siste måneden",
    openNote: "ikke løst ennå",
    fixedNote: "løst den siste måneden",
    newListHeading: "Innbrudd funnet den siste måneden",
    noNew: "Ingen nye innbrudd ble funnet den siste måneden.",
    more: (count) => `og ${count} til`,
    assets: "Overvåkede ressurser",
    domains: (count) => one(count, "1 domene", `${count} domener`),
    emails: (count) => one(count, "1 e-postadresse", `${count} e-postadresser`),
    attachment: "Den samme rapporten er vedlagt som PDF.",
  },
  unsubscribe: {
    title: "Avslutt abonnement",
    what: {
      welcome: (company) => `e-poster om overvåkingen av datainnbrudd for ${company}`,
      breach_alert: (company) => `varsler om datainnbrudd for ${company}`,
      monthly_report: (company) => `månedsrapporter om datainnbrudd for ${company}`,
    },
    question: (what, email) => `Slutte å sende ${what} til ${email}?`,
    button: "Avslutt",
    done: (what, email) => `Ferdig: ${email} får ikke lenger ${what}.`,
    undo: "Ombestemt deg? Innstillingene i portalen din slår dem på igjen.",
    invalid: "Denne lenken er ikke gyldig. Åpne hele lenken fra e-posten, eller svar på e-posten og be om at utsendelsene stoppes.",
  },
};

const DA_DK: NotificationTexts = {
  common: {
    why: (partner, company) => `${partner} overvåger domænerne og e-mailadresserne for ${company} for databrud og sender dig denne e-mail.`,
    reply: (partner) => `Spørgsmål? Svar på denne e-mail for at komme i kontakt med ${partner}.`,
    portalHint: (partner) => `Detaljer og tiltag for hvert brud finder du i din portal; bed ${partner} om et login-link.`,
    unsubscribe: {
      welcome: "Stop alle e-mails fra tjenesten til denne adresse",
      breach_alert: "Stop advarsler om databrud til denne adresse",
      monthly_report: "Stop månedsrapporter til denne adresse",
    },
  },
  welcome: {
    subject: (company) => `Overvågning af databrud er nu aktiv for ${company}`,
    preview: "Hvad vi overvåger, og hvordan du åbner din portal",
    heading: "Velkommen til overvågning af databrud",
    intro: (partner, company) =>
      `${partner} har oprettet overvågning af databrud for ${company}. Hver dag tjekker vi, om domænerne og e-mailadresserne nedenfor optræder i kendte databrud, og vi advarer dig, når de gør.`,
    domains: "Overvågede domæner",
    emails: "Overvågede e-mailadresser",
    domainsNote: "For hvert overvåget domæne finder og overvåger vi også eksponerede adresser på domænet.",
    portalHeading: "Din portal",
    portal: (partner) =>
      `I portalen kan du se alle fundne brud, hvad der blev eksponeret, og hvad du bør gøre. Bed ${partner} om et login-link for at åbne den. Hvert link virker én gang inden for en time.`,
  },
  alert: {
    subject: (count, company) => one(count, `Nyt databrud fundet for ${company}`, `${count} nye databrud fundet for ${company}`),
    heading: (count) => one(count, "1 nyt databrud", `${count} nye databrud`),
    intro: (company) => `Vores seneste scanning fandt overvågede adresser for ${company} i bruddene nedenfor.`,
    exposedData: "Eksponerede oplysninger",
    exposedAddresses: "Eksponerede adresser",
    nextSteps: "Det bør du gøre",
    alsoFound: "Også fundet",
    moreAddresses: (count) => `og ${count} adresser mere`,
    redactedIntro: (count, company) =>
      one(
        count,
        `Tjekket af ${company} fandt 1 databrud, der eksponerer adresserne nedenfor.`,
        `Tjekket af ${company} fandt ${count} databrud, der eksponerer adresserne nedenfor.`,
      ),
    redactedMore: (partner) =>
      `Hvilke brud det drejer sig om, hvad der blev eksponeret, og hvad du bør gøre, følger med fuld overvågning. Spørg ${partner} om det.`,
  },
  report: {
    subject: (company, period) => `Rapport om databrud for ${company}: ${period}`,
    heading: (period) => `Rapport om databrud for ${period}`,
    intro: (company, period) => `Sådan var ${company} eksponeret i ${period}, og det her har ændret sig.`,
    threatScore: "Trusselsscore",
    scoreOutOf: (score) => `${score} af 97`,
    scale: "0 betyder ingen kendt eksponering; skalaen går op til 97.",
    change: (delta, previous) =>
      delta > 0
        ? `Op ${delta} siden rapporten for ${previous}`
        : delta < 0
          ? `Ned ${-delta} siden rapporten for ${previous}`
          : `Uændret siden rapporten for ${previous}`,
    first: "Dette er den første rapport.",
    newBreaches: "Nye brud",
    openBreaches: "Åbne brud",
    fixedBreaches: "Løste brud",
    newNote: "fundet den seneste måned",
    openNote: "endnu ikke løst",
    fixedNote: "løst den seneste måned",
    newListHeading: "Brud fundet den seneste måned",
    noNew: "Der blev ikke fundet nye brud den seneste måned.",
    more: (count) => `og ${count} mere`,
    assets: "Overvågede aktiver",
    domains: (count) => one(count, "1 domæne", `${count} domæner`),
    emails: (count) => one(count, "1 e-mailadresse", `${count} e-mailadresser`),
    attachment: "Den samme rapport er vedhæftet som PDF.",
  },
  unsubscribe: {
    title: "Afmeld",
    what: {
      welcome: (company) => `e-mails om overvågningen af databrud for ${company}`,
      breach_alert: (company) => `advarsler om databrud for ${company}`,
      monthly_report: (company) => `månedsrapporter om databrud for ${company}`,
    },
    question: (what, email) => `Stop ${what} til ${email}?`,
    button: "Afmeld",
    done: (what, email) => `Udført: ${email} modtager ikke længere ${what}.`,
    undo: "Fortryder du? Indstillingerne i din portal slår dem til igen.",
    invalid: "Dette link er ikke gyldigt. Åbn hele linket fra e-mailen, eller svar på e-mailen og bed om, at udsendelserne stoppes.",
  },
};

const FI_FI: NotificationTexts = {
  common: {
    why: (partner, company) =>
      `Palveluntarjoajasi ${partner} valvoo yrityksen ${company} verkkotunnuksia ja sähköpostiosoitteita tietomurtojen varalta ja lähettää sinulle tämän viestin.`,
    reply: (partner) => `Kysyttävää? Vastaa tähän viestiin, niin vastauksesi menee palveluntarjoajallesi (${partner}).`,
    portalHint: (partner) =>
      `Kunkin tietomurron tiedot ja suositellut toimet löydät portaalistasi; pyydä kirjautumislinkki palveluntarjoajaltasi (${partner}).`,
    unsubscribe: {
      welcome: "Lopeta kaikki tämän palvelun viestit tähän osoitteeseen",
      breach_alert: "Lopeta tietomurtoilmoitukset tähän osoitteeseen",
      monthly_report: "Lopeta kuukausiraportit tähän osoitteeseen",
    },
  },
  welcome: {
    subject: (company) => `Tietomurtojen valvonta on nyt käytössä: ${company}`,
    preview: "Mitä valvomme ja miten avaat portaalisi",
    heading: "Tervetuloa tietomurtojen valvontaan",
    intro: (partner, company) =>
      `Palveluntarjoajasi ${partner} on ottanut käyttöön tietomurtojen valvonnan yritykselle ${company}. Tarkistamme päivittäin, esiintyvätkö alla olevat verkkotunnukset ja sähköpostiosoitteet tunnetuissa tietomurroissa, ja ilmoitamme sinulle, jos niin käy.`,
    domains: "Valvotut verkkotunnukset",
    emails: "Valvotut sähköpostiosoitteet",
    domainsNote: "Jokaisesta valvotusta verkkotunnuksesta etsimme ja valvomme myös sen paljastuneet osoitteet.",
    portalHeading: "Portaalisi",
    portal: (partner) =>
      `Portaalissa näet kaikki löydetyt tietomurrot, mitä tietoja paljastui ja mitä sinun kannattaa tehdä. Pyydä kirjautumislinkki palveluntarjoajaltasi (${partner}). Kukin linkki toimii kerran ja tunnin ajan.`,
  },
  alert: {
    subject: (count, company) => one(count, `Uusi tietomurto löytyi: ${company}`, `${count} uutta tietomurtoa löytyi: ${company}`),
    heading: (count) => one(count, "1 uusi tietomurto", `${count} uutta tietomurtoa`),
    intro: (company) => `Viimeisin tarkistuksemme löysi yrityksen ${company} valvottuja osoitteita alla olevista tietomurroista.`,
    exposedData: "Paljastuneet tiedot",
    exposedAddresses: "Paljastuneet osoitteet",
    nextSteps: "Mitä tehdä",
    alsoFound: "Lisäksi löytyi",
    moreAddresses: (count) => `ja ${count} muuta osoitetta`,
    redactedIntro: (count, company) =>
      one(
        count,
        `Yrityksen ${company} tarkistus löysi 1 tietomurron, jossa alla olevat osoitteet ovat paljastuneet.`,
        `Yrityksen ${company} tarkistus löysi ${count} tietomurtoa, joissa alla olevat osoitteet ovat paljastuneet.`,
      ),
    redactedMore: (partner) =>
      `Tiedot siitä, mistä tietomurroista on kyse, mitä paljastui ja mitä kannattaa tehdä, sisältyvät täyteen valvontaan. Kysy lisää palveluntarjoajaltasi (${partner}).`,
  },
  report: {
    subject: (company, period) => `Tietomurtoraportti: ${company}, ${period}`,
    heading: (period) => `Tietomurtoraportti: ${period}`,
    intro: (company, period) => `Yhteenveto yrityksen ${company} tilanteesta. Ajanjakso: ${period}.`,
    threatScore: "Uhkapisteet",
    scoreOutOf: (score) => `${score}/97`,
    scale: "0 tarkoittaa, ettei tunnettuja paljastumia ole; asteikon yläraja on 97.",
    change: (delta, previous) =>
      delta > 0
        ? `Nousua ${delta} edellisestä raportista (${previous})`
        : delta < 0
          ? `Laskua ${-delta} edellisestä raportista (${previous})`
          : `Ei muutosta edellisestä raportista (${previous})`,
    first: "Tämä on ensimmäinen raportti.",
    newBreaches: "Uudet tietomurrot",
    openBreaches: "Avoimet tietomurrot",
    fixedBreaches: "Korjatut tietomurrot",
    newNote: "löydetty kuluneen kuukauden aikana",
    openNote: "ei vielä korjattu",
    fixedNote: "korjattu kuluneen kuukauden aikana",
    newListHeading: "Kuluneen kuukauden aikana löydetyt tietomurrot",
    noNew: "Kuluneen kuukauden aikana ei löytynyt uusia tietomurtoja.",
    more: (count) => `ja ${count} muuta`,
    assets: "Valvottavat kohteet",
    domains: (count) => one(count, "1 verkkotunnus", `${count} verkkotunnusta`),
    emails: (count) => one(count, "1 sähköpostiosoite", `${count} sähköpostiosoitetta`),
    attachment: "Sama raportti on liitteenä PDF-tiedostona.",
  },
  unsubscribe: {
    title: "Peru tilaus",
    what: {
      welcome: (company) => `tietomurtojen valvontaa koskevat viestit (${company})`,
      breach_alert: (company) => `tietomurtoilmoitukset (${company})`,
      monthly_report: (company) => `kuukausiraportit tietomurroista (${company})`,
    },
    question: (what, email) => `Lopetetaanko nämä viestit osoitteeseen ${email}: ${what}?`,
    button: "Peru tilaus",
    done: (what, email) => `Valmis. Osoitteeseen ${email} ei enää lähetetä näitä viestejä: ${what}.`,
    undo: "Muutitko mielesi? Voit ottaa viestit takaisin käyttöön portaalisi asetuksista.",
    invalid: "Tämä linkki ei ole kelvollinen. Avaa koko linkki viestistä tai vastaa viestiin ja pyydä lopettamaan lähetykset.",
  },
};

const NL_NL: NotificationTexts = {
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
    subject: (count, company) => one(count, `Nieuw datalek gevonden voor ${company}`, `${count} nieuwe datalekken gevonden voor ${company}`),
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
    invalid: "Deze afmeldlink is niet geldig. Open de volledige link uit de e-mail, of beantwoord de e-mail met het verzoek de berichten te stoppen.",
  },
};

const TEXTS: Record<LocaleCode, NotificationTexts> = {
  "en-GB": EN_GB,
  "sv-SE": SV_SE,
  "nb-NO": NB_NO,
  "da-DK": DA_DK,
  "fi-FI": FI_FI,
  "nl-NL": NL_NL,
};

export function notificationTexts(locale: LocaleCode): NotificationTexts {
  return TEXTS[locale];
}

/** "October 2026" for the period "2026-10", in the locale. */
export function periodLabel(period: string, locale: LocaleCode): string {
  return new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(`${period}-01T00:00:00Z`));
}

/**
 * The operational e-mails to a webhook endpoint's owner, a partner or a distributor
 * (docs/webhooks.md, "Health and warnings"). Organizations have no locale, so these exist in
 * en-GB only; organizationTexts picks by locale like notificationTexts, for when one is added.
 */
export interface OrganizationTexts {
  common: {
    why(organization: string): string;
    /** Said where customer e-mails have their unsubscribe link. */
    howToStop: string;
    endpoint: string;
    url: string;
    id: string;
    protocol: string;
    protocols: Record<"current" | "legacy", string>;
    lastSuccess: string;
    never: string;
    whatToDo: string;
    adminPage: string;
    /** An ISO time as the message shows it. */
    time(iso: string): string;
  };
  failing: {
    subject(url: string): string;
    preview: string;
    heading: string;
    intro(organization: string, since: string): string;
    failingSince: string;
    failuresInRow: string;
    lastError: string;
    fix: string;
    retrying(disableAfter: number): string;
    recover: string;
  };
  disabled: {
    subject(url: string): string;
    preview: string;
    heading: string;
    intro(organization: string, at: string): string;
    reason: string;
    kinds: Record<"failing" | "gone", string>;
    fix: Record<"failing" | "gone", string>;
    enable: string;
    recover: string;
    whileDisabled: string;
  };
}

const ORGANIZATION_EN_GB: OrganizationTexts = {
  common: {
    why: (organization) =>
      `You receive this as the contact for the webhooks of ${organization}. It is sent only when an endpoint starts failing or is disabled, once for each such change.`,
    howToStop:
      "These operational messages have no unsubscribe link: while the endpoint stays in this state, no further message is sent about it. Disabling or deleting the endpoint stops them altogether.",
    endpoint: "Endpoint",
    url: "URL",
    id: "ID",
    protocol: "Protocol",
    protocols: { current: "current (API v1)", legacy: "earlier protocol (/api/integrations/webhooks)" },
    lastSuccess: "Last successful delivery",
    never: "none recorded",
    whatToDo: "What to do",
    adminPage: "The endpoint's health and delivery log in the admin UI:",
    time: (iso) =>
      `${new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso))} UTC`,
  },
  failing: {
    subject: (url) => `Webhook deliveries are failing: ${url}`,
    preview: "Events are not reaching your webhook endpoint",
    heading: "Your webhook endpoint is failing",
    intro: (organization, since) => `Events for ${organization} have not been delivered to the endpoint below since ${since}.`,
    failingSince: "Failing since",
    failuresInRow: "Failed deliveries in a row",
    lastError: "Last error",
    fix: "Check the receiver at this URL: it must answer with a 2xx status in time (the last error above says what went wrong; the endpoint's delivery log has every attempt).",
    retrying: (disableAfter) =>
      `Each event is retried on its schedule while you fix it. After ${disableAfter} failed deliveries in a row the endpoint is disabled, and you will be told.`,
    recover: "Deliveries that used up their attempts can be queued again once the receiver works, with a fresh round of attempts:",
  },
  disabled: {
    subject: (url) => `Webhook endpoint disabled: ${url}`,
    preview: "No more events are sent to your webhook endpoint",
    heading: "Your webhook endpoint was disabled",
    intro: (organization, at) => `On ${at} we stopped sending events for ${organization} to the endpoint below.`,
    reason: "Reason",
    kinds: {
      failing: "Its deliveries failed too many times in a row.",
      gone: "The receiver answered 410 Gone, which asks us to stop sending.",
    },
    fix: {
      failing: "Fix the receiver at this URL: it must answer with a 2xx status in time.",
      gone: "If the receiver was retired on purpose, delete the endpoint or leave it disabled; nothing else is needed. Otherwise make it accept events again.",
    },
    enable: "Enable the endpoint again:",
    recover: "Then queue the deliveries that failed again, with a fresh round of attempts:",
    whileDisabled: "Events that happen while the endpoint is disabled are kept as failed deliveries: recover them once it is enabled again.",
  },
};

const ORGANIZATION_TEXTS: Partial<Record<LocaleCode, OrganizationTexts>> = { "en-GB": ORGANIZATION_EN_GB };

export function organizationTexts(locale: LocaleCode): OrganizationTexts {
  return ORGANIZATION_TEXTS[locale] ?? ORGANIZATION_EN_GB;
}
