import type { LocaleCode } from "@/server/i18n/locales";
import type { SignInErrorReason } from "@/server/portal/auth-routes";

/**
 * Every text of the customer portal and its sign-in pages, in the six locales of the service
 * (the type makes each locale complete). `{name}` marks a value filled in by format().
 */
export interface PortalMessages {
  portalName: string;
  skipToContent: string;
  navigationLabel: string;
  nav: { overview: string; breaches: string; assets: string; settings: string };
  signedInAs: string;
  signOut: string;
  overview: {
    title: string;
    intro: string;
    threatScore: string;
    threatScoreOf: string;
    threatScoreHelp: string;
    levels: { none: string; low: string; moderate: string; high: string; critical: string };
    unresolved: string;
    resolved: string;
    exposedEmails: string;
    lastChecked: string;
    notCheckedYet: string;
    timelineTitle: string;
    timelineHelp: string;
    timelineEmpty: string;
    timelineYear: string;
    timelineEarlier: string;
    timelineBar: string;
    viewBreaches: string;
  };
  breaches: {
    title: string;
    intro: string;
    none: string;
    count: string;
    breachDate: string;
    categories: string;
    exposedEmails: string;
    fixed: string;
    notFixed: string;
    details: string;
    exposureNumber: string;
  };
  breach: {
    whatHappened: string;
    catalogueDescription: string;
    nextSteps: string;
    status: string;
    markFixed: string;
    markNotFixed: string;
    saving: string;
    saved: string;
    saveFailed: string;
    allBreaches: string;
    notFound: string;
  };
  upgrade: {
    notice: string;
    title: string;
    items: string[];
    contact: string;
  };
  assets: {
    title: string;
    intro: string;
    domains: string;
    emails: string;
    none: string;
    discovered: string;
  };
  /** E-mail settings (docs/notifications.md). */
  settings: {
    title: string;
    intro: string;
    breachAlerts: string;
    breachAlertsHelp: string;
    monthlyReport: string;
    monthlyReportHelp: string;
    recipients: string;
    recipientsHelp: string;
    address: string;
    noRecipients: string;
    partnerOff: string;
    save: string;
    saving: string;
    saved: string;
    saveFailed: string;
  };
  signIn: {
    errors: Record<SignInErrorReason, { title: string; body: string }>;
    newLink: string;
    stillSignedIn: string;
    openPortal: string;
  };
}

const enGB: PortalMessages = {
  portalName: "Exposure portal",
  skipToContent: "Skip to content",
  navigationLabel: "Portal",
  nav: { overview: "Overview", breaches: "Breaches", assets: "Monitored assets", settings: "E-mail settings" },
  signedInAs: "Signed in as {email}",
  signOut: "Sign out",
  overview: {
    title: "Overview",
    intro: "How exposed {company} is in known data breaches.",
    threatScore: "Threat score",
    threatScoreOf: "{score} of {max}",
    threatScoreHelp: "0 means no known exposure and {max} is the highest. The score falls as you fix breaches.",
    levels: { none: "No known exposure", low: "Low", moderate: "Moderate", high: "High", critical: "Critical" },
    unresolved: "Breaches not fixed",
    resolved: "Breaches fixed",
    exposedEmails: "Exposed e-mail addresses",
    lastChecked: "Last checked on {date}.",
    notCheckedYet: "The first check has not run yet.",
    timelineTitle: "Exposures over time",
    timelineHelp: "Breaches that exposed your addresses, by the year they happened.",
    timelineEmpty: "No breaches found so far.",
    timelineYear: "Year",
    timelineEarlier: "{year} and earlier",
    timelineBar: "{year}: {notFixed} not fixed, {fixed} fixed",
    viewBreaches: "See the breaches",
  },
  breaches: {
    title: "Breaches",
    intro: "Data breaches in which your monitored e-mail addresses appeared.",
    none: "No breaches found.",
    count: "Breaches found: {count}",
    breachDate: "Breach date",
    categories: "Exposed data",
    exposedEmails: "Exposed addresses",
    fixed: "Fixed",
    notFixed: "Not fixed",
    details: "Details",
    exposureNumber: "Exposure {number}",
  },
  breach: {
    whatHappened: "What happened",
    catalogueDescription: "Description from the breach catalogue",
    nextSteps: "What to do now",
    status: "Status",
    markFixed: "Mark as fixed",
    markNotFixed: "Mark as not fixed",
    saving: "Saving…",
    saved: "Saved.",
    saveFailed: "The change could not be saved. Please try again.",
    allBreaches: "All breaches",
    notFound: "This breach does not exist or is not yours.",
  },
  upgrade: {
    notice: "This is a one-time check: it shows how many breaches exposed your addresses, and which addresses.",
    title: "What full monitoring shows",
    items: [
      "The name of each breach and when it happened",
      "What kind of data was exposed",
      "A description of each breach",
      "Advice on what to do, step by step",
      "Daily checks and alerts about new breaches",
      "Your exposures over time",
    ],
    contact: "Ask your provider to upgrade your monitoring.",
  },
  assets: {
    title: "Monitored assets",
    intro: "These domains and e-mail addresses are checked against known data breaches.",
    domains: "Domains",
    emails: "E-mail addresses",
    none: "None",
    discovered: "Found on your domain",
  },
  settings: {
    title: "E-mail settings",
    intro: "Choose which e-mails about {company} are sent, and to whom.",
    breachAlerts: "Breach alerts",
    breachAlertsHelp: "An e-mail when a check finds new breaches.",
    monthlyReport: "Monthly report",
    monthlyReportHelp: "A summary on the 1st of each month, with a PDF.",
    recipients: "Recipients",
    recipientsHelp: "Each address can stop either kind of e-mail; your provider decides who is on the list.",
    address: "Address",
    noRecipients: "No recipients.",
    partnerOff: "Your provider does not send these e-mails at the moment, so none are sent, whatever is set here.",
    save: "Save",
    saving: "Saving…",
    saved: "Saved.",
    saveFailed: "The change could not be saved. Please try again.",
  },
  signIn: {
    errors: {
      invalid: {
        title: "This sign-in link does not work",
        body: "The link is incomplete or unknown. E-mail programs and in-app browsers sometimes cut links short.",
      },
      expired: { title: "This sign-in link has expired", body: "A sign-in link works for one hour after it is created." },
      used: { title: "This sign-in link has already been used", body: "Each sign-in link signs you in once." },
      unavailable: { title: "Portal access has ended", body: "Monitoring for your organisation has ended, so the portal is no longer available." },
      "session-ended": { title: "Your session has ended", body: "For your security, sessions end after a period without activity." },
      "signed-out": { title: "You are signed out", body: "You have signed out of the portal." },
      "sign-in-required": { title: "Sign in with your link", body: "The portal opens with a sign-in link from your provider." },
    },
    newLink: "To open the portal, ask your provider for a new sign-in link.",
    stillSignedIn: "You are still signed in on this device.",
    openPortal: "Open the portal",
  },
};

const svSE: PortalMessages = {
  portalName: "Exponeringsportal",
  skipToContent: "Hoppa till innehållet",
  navigationLabel: "Portal",
  nav: { overview: "Översikt", breaches: "Dataintrång", assets: "Bevakade tillgångar", settings: "E-postinställningar" },
  signedInAs: "Inloggad som {email}",
  signOut: "Logga ut",
  overview: {
    title: "Översikt",
    intro: "Hur exponerat {company} är i kända dataintrång.",
    threatScore: "Hotnivå",
    threatScoreOf: "{score} av {max}",
    threatScoreHelp: "0 betyder ingen känd exponering och {max} är den högsta nivån. Värdet sjunker när ni åtgärdar intrång.",
    levels: { none: "Ingen känd exponering", low: "Låg", moderate: "Måttlig", high: "Hög", critical: "Kritisk" },
    unresolved: "Ej åtgärdade intrång",
    resolved: "Åtgärdade intrång",
    exposedEmails: "Exponerade e-postadresser",
    lastChecked: "Senast kontrollerat {date}.",
    notCheckedYet: "Den första kontrollen har inte körts än.",
    timelineTitle: "Exponering över tid",
    timelineHelp: "Intrång som exponerade era adresser, efter det år de inträffade.",
    timelineEmpty: "Inga intrång har hittats hittills.",
    timelineYear: "År",
    timelineEarlier: "{year} och tidigare",
    timelineBar: "{year}: {notFixed} ej åtgärdade, {fixed} åtgärdade",
    viewBreaches: "Visa intrången",
  },
  breaches: {
    title: "Dataintrång",
    intro: "Dataintrång där era bevakade e-postadresser förekom.",
    none: "Inga intrång hittades.",
    count: "Hittade intrång: {count}",
    breachDate: "Datum för intrånget",
    categories: "Exponerade uppgifter",
    exposedEmails: "Exponerade adresser",
    fixed: "Åtgärdat",
    notFixed: "Ej åtgärdat",
    details: "Detaljer",
    exposureNumber: "Exponering {number}",
  },
  breach: {
    whatHappened: "Vad som hände",
    catalogueDescription: "Beskrivning från intrångskatalogen",
    nextSteps: "Vad ni bör göra nu",
    status: "Status",
    markFixed: "Markera som åtgärdat",
    markNotFixed: "Markera som ej åtgärdat",
    saving: "Sparar…",
    saved: "Sparat.",
    saveFailed: "Ändringen kunde inte sparas. Försök igen.",
    allBreaches: "Alla intrång",
    notFound: "Intrånget finns inte eller tillhör inte er.",
  },
  upgrade: {
    notice: "Det här är en engångskontroll: den visar hur många intrång som exponerade era adresser, och vilka adresser.",
    title: "Det här visar full bevakning",
    items: [
      "Namnet på varje intrång och när det inträffade",
      "Vilken typ av uppgifter som exponerades",
      "En beskrivning av varje intrång",
      "Råd om vad ni bör göra, steg för steg",
      "Dagliga kontroller och varningar om nya intrång",
      "Er exponering över tid",
    ],
    contact: "Be er leverantör att uppgradera bevakningen.",
  },
  assets: {
    title: "Bevakade tillgångar",
    intro: "Dessa domäner och e-postadresser kontrolleras mot kända dataintrång.",
    domains: "Domäner",
    emails: "E-postadresser",
    none: "Inga",
    discovered: "Hittad på er domän",
  },
  settings: {
    title: "E-postinställningar",
    intro: "Välj vilka mejl om {company} som skickas och till vem.",
    breachAlerts: "Intrångsvarningar",
    breachAlertsHelp: "Ett mejl när en kontroll hittar nya intrång.",
    monthlyReport: "Månadsrapport",
    monthlyReportHelp: "En sammanfattning den 1:a varje månad, med en PDF.",
    recipients: "Mottagare",
    recipientsHelp: "Varje adress kan stoppa båda typerna av mejl; din leverantör bestämmer vilka som står på listan.",
    address: "Adress",
    noRecipients: "Inga mottagare.",
    partnerOff: "Din leverantör skickar inte de här mejlen just nu, så inga skickas, oavsett inställningarna här.",
    save: "Spara",
    saving: "Sparar…",
    saved: "Sparat.",
    saveFailed: "Ändringen kunde inte sparas. Försök igen.",
  },
  signIn: {
    errors: {
      invalid: {
        title: "Den här inloggningslänken fungerar inte",
        body: "Länken är ofullständig eller okänd. E-postprogram och inbyggda webbläsare kortar ibland av länkar.",
      },
      expired: { title: "Den här inloggningslänken har gått ut", body: "En inloggningslänk fungerar i en timme efter att den skapats." },
      used: { title: "Den här inloggningslänken har redan använts", body: "Varje inloggningslänk kan användas för en inloggning." },
      unavailable: { title: "Åtkomsten till portalen har upphört", body: "Bevakningen av er organisation har avslutats, så portalen är inte längre tillgänglig." },
      "session-ended": { title: "Din session har avslutats", body: "Av säkerhetsskäl avslutas sessioner efter en tids inaktivitet." },
      "signed-out": { title: "Du är utloggad", body: "Du har loggat ut från portalen." },
      "sign-in-required": { title: "Logga in med din länk", body: "Portalen öppnas med en inloggningslänk från din leverantör." },
    },
    newLink: "Be din leverantör om en ny inloggningslänk för att öppna portalen.",
    stillSignedIn: "Du är fortfarande inloggad på den här enheten.",
    openPortal: "Öppna portalen",
  },
};

const nbNO: PortalMessages = {
  portalName: "Eksponeringsportal",
  skipToContent: "Gå til innholdet",
  navigationLabel: "Portal",
  nav: { overview: "Oversikt", breaches: "Datainnbrudd", assets: "Overvåkede ressurser", settings: "E-postinnstillinger" },
  signedInAs: "Logget inn som {email}",
  signOut: "Logg ut",
  overview: {
    title: "Oversikt",
    intro: "Hvor eksponert {company} er i kjente datainnbrudd.",
    threatScore: "Trusselnivå",
    threatScoreOf: "{score} av {max}",
    threatScoreHelp: "0 betyr ingen kjent eksponering, og {max} er det høyeste. Tallet synker når dere utbedrer innbrudd.",
    levels: { none: "Ingen kjent eksponering", low: "Lav", moderate: "Moderat", high: "Høy", critical: "Kritisk" },
    unresolved: "Innbrudd som ikke er utbedret",
    resolved: "Utbedrede innbrudd",
    exposedEmails: "Eksponerte e-postadresser",
    lastChecked: "Sist kontrollert {date}.",
    notCheckedYet: "Den første kontrollen er ikke kjørt ennå.",
    timelineTitle: "Eksponering over tid",
    timelineHelp: "Innbrudd som eksponerte adressene deres, etter året de skjedde.",
    timelineEmpty: "Ingen innbrudd er funnet så langt.",
    timelineYear: "År",
    timelineEarlier: "{year} og tidligere",
    timelineBar: "{year}: {notFixed} ikke utbedret, {fixed} utbedret",
    viewBreaches: "Se innbruddene",
  },
  breaches: {
    title: "Datainnbrudd",
    intro: "Datainnbrudd der de overvåkede e-postadressene deres ble funnet.",
    none: "Ingen innbrudd ble funnet.",
    count: "Innbrudd funnet: {count}",
    breachDate: "Dato for innbruddet",
    categories: "Eksponerte opplysninger",
    exposedEmails: "Eksponerte adresser",
    fixed: "Utbedret",
    notFixed: "Ikke utbedret",
    details: "Detaljer",
    exposureNumber: "Eksponering {number}",
  },
  breach: {
    whatHappened: "Hva som skjedde",
    catalogueDescription: "Beskrivelse fra innbruddskatalogen",
    nextSteps: "Hva dere bør gjøre nå",
    status: "Status",
    markFixed: "Merk som utbedret",
    markNotFixed: "Merk som ikke utbedret",
    saving: "Lagrer…",
    saved: "Lagret.",
    saveFailed: "Endringen kunne ikke lagres. Prøv igjen.",
    allBreaches: "Alle innbrudd",
    notFound: "Innbruddet finnes ikke eller tilhører ikke dere.",
  },
  upgrade: {
    notice: "Dette er en engangskontroll: den viser hvor mange innbrudd som eksponerte adressene deres, og hvilke adresser.",
    title: "Dette viser full overvåking",
    items: [
      "Navnet på hvert innbrudd og når det skjedde",
      "Hvilke typer opplysninger som ble eksponert",
      "En beskrivelse av hvert innbrudd",
      "Råd om hva dere bør gjøre, steg for steg",
      "Daglige kontroller og varsler om nye innbrudd",
      "Eksponeringen deres over tid",
    ],
    contact: "Be leverandøren deres om å oppgradere overvåkingen.",
  },
  assets: {
    title: "Overvåkede ressurser",
    intro: "Disse domenene og e-postadressene kontrolleres mot kjente datainnbrudd.",
    domains: "Domener",
    emails: "E-postadresser",
    none: "Ingen",
    discovered: "Funnet på domenet deres",
  },
  settings: {
    title: "E-postinnstillinger",
    intro: "Velg hvilke e-poster om {company} som sendes, og til hvem.",
    breachAlerts: "Varsler om datainnbrudd",
    breachAlertsHelp: "En e-post når en kontroll finner nye innbrudd.",
    monthlyReport: "Månedsrapport",
    monthlyReportHelp: "Et sammendrag den 1. hver måned, med en PDF.",
    recipients: "Mottakere",
    recipientsHelp: "Hver adresse kan stoppe begge typene e-post; leverandøren din bestemmer hvem som står på listen.",
    address: "Adresse",
    noRecipients: "Ingen mottakere.",
    partnerOff: "Leverandøren din sender ikke disse e-postene nå, så ingen sendes, uansett hva som er valgt her.",
    save: "Lagre",
    saving: "Lagrer…",
    saved: "Lagret.",
    saveFailed: "Endringen kunne ikke lagres. Prøv igjen.",
  },
  signIn: {
    errors: {
      invalid: {
        title: "Denne påloggingslenken virker ikke",
        body: "Lenken er ufullstendig eller ukjent. E-postprogrammer og innebygde nettlesere forkorter noen ganger lenker.",
      },
      expired: { title: "Denne påloggingslenken er utløpt", body: "En påloggingslenke virker i én time etter at den ble laget." },
      used: { title: "Denne påloggingslenken er allerede brukt", body: "Hver påloggingslenke kan brukes til én pålogging." },
      unavailable: { title: "Tilgangen til portalen er avsluttet", body: "Overvåkingen av organisasjonen deres er avsluttet, så portalen er ikke lenger tilgjengelig." },
      "session-ended": { title: "Økten din er avsluttet", body: "Av sikkerhetshensyn avsluttes økter etter en periode uten aktivitet." },
      "signed-out": { title: "Du er logget ut", body: "Du har logget ut av portalen." },
      "sign-in-required": { title: "Logg inn med lenken din", body: "Portalen åpnes med en påloggingslenke fra leverandøren din." },
    },
    newLink: "Be leverandøren din om en ny påloggingslenke for å åpne portalen.",
    stillSignedIn: "Du er fortsatt logget inn på denne enheten.",
    openPortal: "Åpne portalen",
  },
};

const fiFI: PortalMessages = {
  portalName: "Altistumisportaali",
  skipToContent: "Siirry sisältöön",
  navigationLabel: "Portaali",
  nav: { overview: "Yleiskatsaus", breaches: "Tietomurrot", assets: "Valvotut kohteet", settings: "Sähköpostiasetukset" },
  signedInAs: "Kirjautuneena: {email}",
  signOut: "Kirjaudu ulos",
  overview: {
    title: "Yleiskatsaus",
    intro: "Kuinka paljon {company} on altistunut tunnetuissa tietomurroissa.",
    threatScore: "Uhkataso",
    threatScoreOf: "{score} / {max}",
    threatScoreHelp: "0 tarkoittaa, ettei tunnettua altistumista ole, ja {max} on korkein taso. Luku laskee, kun korjaatte murtoja.",
    levels: { none: "Ei tunnettua altistumista", low: "Matala", moderate: "Kohtalainen", high: "Korkea", critical: "Kriittinen" },
    unresolved: "Korjaamattomat murrot",
    resolved: "Korjatut murrot",
    exposedEmails: "Paljastuneet sähköpostiosoitteet",
    lastChecked: "Viimeksi tarkistettu {date}.",
    notCheckedYet: "Ensimmäistä tarkistusta ei ole vielä tehty.",
    timelineTitle: "Altistuminen ajan mittaan",
    timelineHelp: "Murrot, joissa osoitteitanne paljastui, tapahtumavuoden mukaan.",
    timelineEmpty: "Murtoja ei ole toistaiseksi löytynyt.",
    timelineYear: "Vuosi",
    timelineEarlier: "{year} ja aiemmin",
    timelineBar: "{year}: korjaamatta {notFixed}, korjattu {fixed}",
    viewBreaches: "Näytä murrot",
  },
  breaches: {
    title: "Tietomurrot",
    intro: "Tietomurrot, joissa valvottuja sähköpostiosoitteitanne on paljastunut.",
    none: "Murtoja ei löytynyt.",
    count: "Löydetyt murrot: {count}",
    breachDate: "Murron päivämäärä",
    categories: "Paljastuneet tiedot",
    exposedEmails: "Paljastuneet osoitteet",
    fixed: "Korjattu",
    notFixed: "Korjaamatta",
    details: "Tiedot",
    exposureNumber: "Altistuminen {number}",
  },
  breach: {
    whatHappened: "Mitä tapahtui",
    catalogueDescription: "Kuvaus murtoluettelosta",
    nextSteps: "Mitä teidän kannattaa tehdä nyt",
    status: "Tila",
    markFixed: "Merkitse korjatuksi",
    markNotFixed: "Merkitse korjaamattomaksi",
    saving: "Tallennetaan…",
    saved: "Tallennettu.",
    saveFailed: "Muutosta ei voitu tallentaa. Yritä uudelleen.",
    allBreaches: "Kaikki murrot",
    notFound: "Murtoa ei ole olemassa tai se ei kuulu teille.",
  },
  upgrade: {
    notice: "Tämä on kertaluonteinen tarkistus: se näyttää, kuinka monessa murrossa osoitteitanne paljastui ja mitkä osoitteet.",
    title: "Mitä täysi valvonta näyttää",
    items: [
      "Jokaisen murron nimen ja ajankohdan",
      "Millaisia tietoja paljastui",
      "Kuvauksen jokaisesta murrosta",
      "Ohjeet siitä, mitä tehdä, vaihe vaiheelta",
      "Päivittäiset tarkistukset ja hälytykset uusista murroista",
      "Altistumisenne ajan mittaan",
    ],
    contact: "Pyydä palveluntarjoajaanne päivittämään valvonta.",
  },
  assets: {
    title: "Valvotut kohteet",
    intro: "Näitä verkkotunnuksia ja sähköpostiosoitteita verrataan tunnettuihin tietomurtoihin.",
    domains: "Verkkotunnukset",
    emails: "Sähköpostiosoitteet",
    none: "Ei yhtään",
    discovered: "Löytyi verkkotunnuksestanne",
  },
  settings: {
    title: "Sähköpostiasetukset",
    intro: "Valitse, mitä viestejä lähetetään ja kenelle. Yritys: {company}.",
    breachAlerts: "Tietomurtoilmoitukset",
    breachAlertsHelp: "Viesti, kun tarkistus löytää uusia tietomurtoja.",
    monthlyReport: "Kuukausiraportti",
    monthlyReportHelp: "Yhteenveto kunkin kuukauden 1. päivänä, PDF-liitteen kera.",
    recipients: "Vastaanottajat",
    recipientsHelp: "Kukin osoite voi lopettaa kumman tahansa viestityypin; palveluntarjoajasi päättää, ketkä ovat listalla.",
    address: "Osoite",
    noRecipients: "Ei vastaanottajia.",
    partnerOff: "Palveluntarjoajasi ei tällä hetkellä lähetä näitä viestejä, joten niitä ei lähetetä asetuksista riippumatta.",
    save: "Tallenna",
    saving: "Tallennetaan…",
    saved: "Tallennettu.",
    saveFailed: "Muutosta ei voitu tallentaa. Yritä uudelleen.",
  },
  signIn: {
    errors: {
      invalid: {
        title: "Tämä kirjautumislinkki ei toimi",
        body: "Linkki on vajaa tai tuntematon. Sähköpostiohjelmat ja sovellusten selaimet lyhentävät joskus linkkejä.",
      },
      expired: { title: "Tämä kirjautumislinkki on vanhentunut", body: "Kirjautumislinkki toimii tunnin ajan luomisestaan." },
      used: { title: "Tämä kirjautumislinkki on jo käytetty", body: "Kullakin kirjautumislinkillä voi kirjautua kerran." },
      unavailable: { title: "Pääsy portaaliin on päättynyt", body: "Organisaationne valvonta on päättynyt, joten portaali ei ole enää käytettävissä." },
      "session-ended": { title: "Istuntosi on päättynyt", body: "Turvallisuussyistä istunnot päättyvät, kun niitä ei ole käytetty vähään aikaan." },
      "signed-out": { title: "Olet kirjautunut ulos", body: "Olet kirjautunut ulos portaalista." },
      "sign-in-required": { title: "Kirjaudu linkilläsi", body: "Portaali avautuu palveluntarjoajasi lähettämällä kirjautumislinkillä." },
    },
    newLink: "Avataksesi portaalin pyydä palveluntarjoajaltasi uusi kirjautumislinkki.",
    stillSignedIn: "Olet yhä kirjautuneena tällä laitteella.",
    openPortal: "Avaa portaali",
  },
};

const daDK: PortalMessages = {
  portalName: "Eksponeringsportal",
  skipToContent: "Spring til indholdet",
  navigationLabel: "Portal",
  nav: { overview: "Oversigt", breaches: "Databrud", assets: "Overvågede aktiver", settings: "E-mailindstillinger" },
  signedInAs: "Logget ind som {email}",
  signOut: "Log ud",
  overview: {
    title: "Oversigt",
    intro: "Hvor eksponeret {company} er i kendte databrud.",
    threatScore: "Trusselsniveau",
    threatScoreOf: "{score} af {max}",
    threatScoreHelp: "0 betyder ingen kendt eksponering, og {max} er det højeste. Tallet falder, når I udbedrer brud.",
    levels: { none: "Ingen kendt eksponering", low: "Lav", moderate: "Moderat", high: "Høj", critical: "Kritisk" },
    unresolved: "Brud, der ikke er udbedret",
    resolved: "Udbedrede brud",
    exposedEmails: "Eksponerede e-mailadresser",
    lastChecked: "Sidst kontrolleret {date}.",
    notCheckedYet: "Den første kontrol er ikke kørt endnu.",
    timelineTitle: "Eksponering over tid",
    timelineHelp: "Brud, der eksponerede jeres adresser, efter det år de skete.",
    timelineEmpty: "Der er ikke fundet nogen brud indtil videre.",
    timelineYear: "År",
    timelineEarlier: "{year} og tidligere",
    timelineBar: "{year}: {notFixed} ikke udbedret, {fixed} udbedret",
    viewBreaches: "Se bruddene",
  },
  breaches: {
    title: "Databrud",
    intro: "Databrud, hvor jeres overvågede e-mailadresser optrådte.",
    none: "Der blev ikke fundet nogen brud.",
    count: "Fundne brud: {count}",
    breachDate: "Dato for bruddet",
    categories: "Eksponerede oplysninger",
    exposedEmails: "Eksponerede adresser",
    fixed: "Udbedret",
    notFixed: "Ikke udbedret",
    details: "Detaljer",
    exposureNumber: "Eksponering {number}",
  },
  breach: {
    whatHappened: "Hvad der skete",
    catalogueDescription: "Beskrivelse fra brudkataloget",
    nextSteps: "Hvad I bør gøre nu",
    status: "Status",
    markFixed: "Markér som udbedret",
    markNotFixed: "Markér som ikke udbedret",
    saving: "Gemmer…",
    saved: "Gemt.",
    saveFailed: "Ændringen kunne ikke gemmes. Prøv igen.",
    allBreaches: "Alle brud",
    notFound: "Bruddet findes ikke eller tilhører ikke jer.",
  },
  upgrade: {
    notice: "Dette er en engangskontrol: den viser, hvor mange brud der eksponerede jeres adresser, og hvilke adresser.",
    title: "Det viser fuld overvågning",
    items: [
      "Navnet på hvert brud, og hvornår det skete",
      "Hvilken slags oplysninger der blev eksponeret",
      "En beskrivelse af hvert brud",
      "Råd om, hvad I skal gøre, trin for trin",
      "Daglige kontroller og advarsler om nye brud",
      "Jeres eksponering over tid",
    ],
    contact: "Bed jeres udbyder om at opgradere overvågningen.",
  },
  assets: {
    title: "Overvågede aktiver",
    intro: "Disse domæner og e-mailadresser kontrolleres mod kendte databrud.",
    domains: "Domæner",
    emails: "E-mailadresser",
    none: "Ingen",
    discovered: "Fundet på jeres domæne",
  },
  settings: {
    title: "E-mailindstillinger",
    intro: "Vælg, hvilke e-mails om {company} der sendes, og til hvem.",
    breachAlerts: "Advarsler om databrud",
    breachAlertsHelp: "En e-mail, når et tjek finder nye brud.",
    monthlyReport: "Månedsrapport",
    monthlyReportHelp: "En opsummering den 1. i hver måned, med en PDF.",
    recipients: "Modtagere",
    recipientsHelp: "Hver adresse kan stoppe begge typer e-mails; din leverandør bestemmer, hvem der står på listen.",
    address: "Adresse",
    noRecipients: "Ingen modtagere.",
    partnerOff: "Din leverandør sender ikke disse e-mails i øjeblikket, så der sendes ingen, uanset hvad der er valgt her.",
    save: "Gem",
    saving: "Gemmer…",
    saved: "Gemt.",
    saveFailed: "Ændringen kunne ikke gemmes. Prøv igen.",
  },
  signIn: {
    errors: {
      invalid: {
        title: "Dette login-link virker ikke",
        body: "Linket er ufuldstændigt eller ukendt. E-mailprogrammer og indbyggede browsere afkorter nogle gange links.",
      },
      expired: { title: "Dette login-link er udløbet", body: "Et login-link virker i en time, efter det er oprettet." },
      used: { title: "Dette login-link er allerede brugt", body: "Hvert login-link kan bruges til ét login." },
      unavailable: { title: "Adgangen til portalen er ophørt", body: "Overvågningen af jeres organisation er ophørt, så portalen er ikke længere tilgængelig." },
      "session-ended": { title: "Din session er afsluttet", body: "Af sikkerhedshensyn afsluttes sessioner efter en periode uden aktivitet." },
      "signed-out": { title: "Du er logget ud", body: "Du har logget ud af portalen." },
      "sign-in-required": { title: "Log ind med dit link", body: "Portalen åbnes med et login-link fra din udbyder." },
    },
    newLink: "Bed din udbyder om et nyt login-link for at åbne portalen.",
    stillSignedIn: "Du er stadig logget ind på denne enhed.",
    openPortal: "Åbn portalen",
  },
};

const nlNL: PortalMessages = {
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
      unavailable: { title: "De toegang tot het portaal is beëindigd", body: "De bewaking van uw organisatie is beëindigd, dus het portaal is niet meer beschikbaar." },
      "session-ended": { title: "Uw sessie is beëindigd", body: "Voor uw veiligheid worden sessies beëindigd na een periode zonder activiteit." },
      "signed-out": { title: "U bent afgemeld", body: "U hebt zich afgemeld bij het portaal." },
      "sign-in-required": { title: "Meld u aan met uw link", body: "Het portaal opent met een aanmeldlink van uw leverancier." },
    },
    newLink: "Vraag uw leverancier om een nieuwe aanmeldlink om het portaal te openen.",
    stillSignedIn: "U bent op dit apparaat nog aangemeld.",
    openPortal: "Open het portaal",
  },
};

const MESSAGES: Record<LocaleCode, PortalMessages> = {
  "en-GB": enGB,
  "sv-SE": svSE,
  "nb-NO": nbNO,
  "fi-FI": fiFI,
  "da-DK": daDK,
  "nl-NL": nlNL,
};

export function portalMessages(locale: LocaleCode): PortalMessages {
  return MESSAGES[locale];
}

/** Fills the `{name}` places of a message. */
export function format(message: string, values: Record<string, string | number>): string {
  return message.replace(/\{(\w+)\}/g, (place, name: string) => (name in values ? String(values[name]) : place));
}
