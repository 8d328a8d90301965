import type { Translation } from "./en-GB";
import { pluralOf } from "./plural";

const one = pluralOf("fi-FI");

/** Finnish. Names are inserted as given, where they need no inflection (after a colon or in parentheses). */
export const fiFI: Translation = {
  portal: {
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
        unavailable: {
          title: "Pääsy portaaliin on päättynyt",
          body: "Organisaationne valvonta on päättynyt, joten portaali ei ole enää käytettävissä.",
        },
        "session-ended": {
          title: "Istuntosi on päättynyt",
          body: "Turvallisuussyistä istunnot päättyvät, kun niitä ei ole käytetty vähään aikaan.",
        },
        "signed-out": { title: "Olet kirjautunut ulos", body: "Olet kirjautunut ulos portaalista." },
        "sign-in-required": { title: "Kirjaudu linkilläsi", body: "Portaali avautuu palveluntarjoajasi lähettämällä kirjautumislinkillä." },
      },
      newLink: "Avataksesi portaalin pyydä palveluntarjoajaltasi uusi kirjautumislinkki.",
      stillSignedIn: "Olet yhä kirjautuneena tällä laitteella.",
      openPortal: "Avaa portaali",
    },
  },
  email: {
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
  },
};
