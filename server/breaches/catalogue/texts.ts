import { convert } from "html-to-text";
import { localize, type Localized, type LocaleCode } from "../../i18n/locales";
import { CATEGORY_GROUPS, categoryGroupOf, type CategoryGroupKey } from "./categories";

/**
 * The catalogue's HTML description made safe as plain text: tags dropped (link texts kept,
 * targets dropped), entities decoded, whitespace collapsed. Nothing of it is ever rendered as HTML.
 */
export function descriptionToText(html: string): string {
  return convert(html, {
    wordwrap: false,
    selectors: [
      { selector: "a", options: { ignoreHref: true } },
      { selector: "img", format: "skip" },
    ],
  })
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Remediation steps. Steps for the data that matter most are written in all six locales; the
 * others exist in en-GB only and fall back to it (docs/breaches.md).
 */
const STEPS = {
  changePassword: {
    "en-GB": "Change the password of this account and of every other account that used the same password.",
    "sv-SE": "Byt lösenord för det här kontot och för alla andra konton som använde samma lösenord.",
    "nb-NO": "Bytt passord for denne kontoen og for alle andre kontoer som brukte det samme passordet.",
    "da-DK": "Skift adgangskoden til denne konto og til alle andre konti, der brugte den samme adgangskode.",
    "fi-FI": "Vaihda tämän tilin salasana sekä kaikkien muiden tilien salasanat, joissa käytettiin samaa salasanaa.",
    "nl-NL": "Wijzig het wachtwoord van dit account en van elk ander account waarin hetzelfde wachtwoord werd gebruikt.",
  },
  enableMfa: {
    "en-GB": "Turn on multi-factor authentication wherever it is offered.",
    "sv-SE": "Aktivera tvåfaktorsautentisering överallt där det erbjuds.",
    "nb-NO": "Slå på tofaktorautentisering overalt der det tilbys.",
    "da-DK": "Slå totrinsbekræftelse til overalt, hvor det tilbydes.",
    "fi-FI": "Ota monivaiheinen tunnistautuminen käyttöön kaikkialla, missä se on mahdollista.",
    "nl-NL": "Schakel meervoudige authenticatie in overal waar dat mogelijk is.",
  },
  passwordManager: {
    "en-GB": "Use a password manager so that every account has its own strong password.",
    "sv-SE": "Använd en lösenordshanterare så att varje konto får ett eget starkt lösenord.",
    "nb-NO": "Bruk en passordbehandler slik at hver konto får sitt eget sterke passord.",
    "da-DK": "Brug en adgangskodeadministrator, så hver konto får sin egen stærke adgangskode.",
    "fi-FI": "Käytä salasanojen hallintaohjelmaa, jotta jokaisella tilillä on oma vahva salasanansa.",
    "nl-NL": "Gebruik een wachtwoordbeheerder, zodat elk account een eigen sterk wachtwoord heeft.",
  },
  securityQuestions: {
    "en-GB": "Change security questions and answers, and treat the old answers as known to attackers.",
    "sv-SE": "Byt säkerhetsfrågor och svar, och utgå från att angripare känner till de gamla svaren.",
    "nb-NO": "Bytt sikkerhetsspørsmål og svar, og gå ut fra at angripere kjenner de gamle svarene.",
    "da-DK": "Skift sikkerhedsspørgsmål og svar, og gå ud fra, at angribere kender de gamle svar.",
    "fi-FI": "Vaihda turvakysymykset ja vastaukset ja oleta, että hyökkääjät tuntevat vanhat vastaukset.",
    "nl-NL": "Wijzig beveiligingsvragen en antwoorden, en ga ervan uit dat aanvallers de oude antwoorden kennen.",
  },
  financialFraud: {
    "en-GB": "Contact the bank or card issuer, replace exposed cards and check statements for transactions you do not recognise.",
    "sv-SE": "Kontakta banken eller kortutgivaren, byt ut exponerade kort och granska kontoutdragen efter okända transaktioner.",
    "nb-NO": "Kontakt banken eller kortutstederen, bytt ut eksponerte kort og sjekk kontoutskriftene for ukjente transaksjoner.",
    "da-DK": "Kontakt banken eller kortudstederen, udskift eksponerede kort, og gennemgå kontoudtog for ukendte transaktioner.",
    "fi-FI":
      "Ota yhteyttä pankkiin tai kortin myöntäjään, vaihda paljastuneet kortit ja tarkista tiliotteet tuntemattomien tapahtumien varalta.",
    "nl-NL": "Neem contact op met de bank of kaartuitgever, vervang gelekte kaarten en controleer afschriften op onbekende transacties.",
  },
  identityTheft: {
    "en-GB": "Watch for identity theft: consider a credit freeze and report misuse of identity documents to the issuing authority.",
    "sv-SE":
      "Var uppmärksam på identitetsstöld: överväg en kreditspärr och anmäl missbruk av id-handlingar till den utfärdande myndigheten.",
    "nb-NO": "Følg med på identitetstyveri: vurder kredittsperre og meld misbruk av identitetsdokumenter til utstedende myndighet.",
    "da-DK":
      "Hold øje med identitetstyveri: overvej en kreditspærring, og anmeld misbrug af identitetsdokumenter til den udstedende myndighed.",
    "fi-FI":
      "Varaudu identiteettivarkauteen: harkitse luottokieltoa ja ilmoita henkilöllisyystodistusten väärinkäytöstä myöntäneelle viranomaiselle.",
    "nl-NL": "Let op identiteitsfraude: overweeg een kredietblokkade en meld misbruik van identiteitsbewijzen bij de uitgevende instantie.",
  },
  smishing: {
    "en-GB":
      "Beware of smishing: text messages and calls that claim to come from trusted organisations. Never share codes or passwords on request.",
    "sv-SE":
      "Se upp för smishing: sms och samtal som utger sig för att komma från betrodda organisationer. Lämna aldrig ut koder eller lösenord på begäran.",
    "nb-NO":
      "Vær på vakt mot smishing: SMS-er og anrop som later til å komme fra kjente organisasjoner. Del aldri koder eller passord på forespørsel.",
    "da-DK":
      "Pas på smishing: sms'er og opkald, der foregiver at komme fra kendte organisationer. Del aldrig koder eller adgangskoder på opfordring.",
    "fi-FI":
      "Varo tekstiviestihuijauksia: viestejä ja puheluita, jotka väittävät tulevansa luotetuilta tahoilta. Älä koskaan anna koodeja tai salasanoja pyynnöstä.",
    "nl-NL":
      "Pas op voor smishing: sms'jes en telefoontjes die van bekende organisaties lijken te komen. Deel nooit codes of wachtwoorden op verzoek.",
  },
  postalFraud: {
    "en-GB": "Be wary of letters, parcels and visits you did not expect: the postal address may be known to criminals.",
    "sv-SE": "Var försiktig med brev, paket och besök du inte väntat dig: postadressen kan vara känd för brottslingar.",
    "nb-NO": "Vær forsiktig med brev, pakker og besøk du ikke ventet: postadressen kan være kjent for kriminelle.",
    "da-DK": "Vær varsom med breve, pakker og besøg, du ikke havde ventet: postadressen kan være kendt af kriminelle.",
    "fi-FI": "Suhtaudu varauksella odottamattomiin kirjeisiin, paketteihin ja vierailuihin: postiosoite voi olla rikollisten tiedossa.",
    "nl-NL": "Wees alert op brieven, pakketten en bezoeken die u niet verwachtte: het postadres kan bekend zijn bij criminelen.",
  },
  exposedMessages: {
    "en-GB": "Assume the exposed messages can be read by others: change any secrets shared in them and warn the people concerned.",
    "sv-SE": "Utgå från att de exponerade meddelandena kan läsas av andra: byt hemligheter som delats i dem och varna de berörda.",
    "nb-NO": "Gå ut fra at de eksponerte meldingene kan leses av andre: bytt hemmeligheter som er delt i dem, og varsle de berørte.",
    "da-DK": "Gå ud fra, at de eksponerede beskeder kan læses af andre: skift hemmeligheder, der er delt i dem, og advar de berørte.",
    "fi-FI": "Oleta, että paljastuneet viestit voivat päätyä muiden luettaviksi: vaihda niissä jaetut salaisuudet ja varoita asianosaisia.",
    "nl-NL":
      "Ga ervan uit dat de gelekte berichten door anderen gelezen kunnen worden: wijzig gedeelde geheimen en waarschuw de betrokkenen.",
  },
  phishing: {
    "en-GB": "Expect phishing e-mails that quote this breach; verify unexpected requests for payments or sign-ins through another channel.",
    "sv-SE":
      "Räkna med nätfiskemejl som hänvisar till intrånget; kontrollera oväntade begäranden om betalningar eller inloggningar via en annan kanal.",
    "nb-NO":
      "Regn med phishing-e-poster som viser til innbruddet; bekreft uventede forespørsler om betaling eller pålogging via en annen kanal.",
    "da-DK": "Forvent phishing-mails, der henviser til bruddet; bekræft uventede anmodninger om betaling eller login via en anden kanal.",
    "fi-FI":
      "Varaudu tietojenkalasteluviesteihin, jotka viittaavat tähän murtoon; varmista odottamattomat maksu- tai kirjautumispyynnöt toista kautta.",
    "nl-NL":
      "Verwacht phishingmails die naar dit lek verwijzen; controleer onverwachte verzoeken om betalingen of aanmeldingen via een ander kanaal.",
  },
  personalDetails: {
    "en-GB": "Be careful with calls and messages that quote personal details from this breach to gain trust.",
    "sv-SE": "Var försiktig med samtal och meddelanden som nämner personuppgifter från det här intrånget för att vinna förtroende.",
    "nb-NO": "Vær forsiktig med anrop og meldinger som viser til personopplysninger fra dette innbruddet for å vinne tillit.",
    "da-DK": "Vær forsigtig med opkald og beskeder, der nævner personoplysninger fra dette brud for at vinde tillid.",
    "fi-FI": "Suhtaudu varoen puheluihin ja viesteihin, joissa luottamusta haetaan tämän tietomurron henkilötiedoilla.",
    "nl-NL": "Wees voorzichtig met telefoontjes en berichten die persoonsgegevens uit dit lek noemen om vertrouwen te winnen.",
  },
  usernames: {
    "en-GB": "Check the other services where the same username is used for activity you do not recognise.",
    "sv-SE": "Kontrollera de andra tjänster där samma användarnamn används efter aktivitet du inte känner igen.",
    "nb-NO": "Sjekk de andre tjenestene der det samme brukernavnet brukes, for aktivitet du ikke kjenner igjen.",
    "da-DK": "Tjek de andre tjenester, hvor det samme brugernavn bruges, for aktivitet, du ikke genkender.",
    "fi-FI": "Tarkista muut palvelut, joissa käytetään samaa käyttäjätunnusta, tuntemattoman toiminnan varalta.",
    "nl-NL": "Controleer de andere diensten waar dezelfde gebruikersnaam wordt gebruikt op activiteit die u niet herkent.",
  },
  devices: {
    "en-GB": "Review the devices and sessions signed in to the account and sign out those you do not recognise.",
    "sv-SE": "Gå igenom de enheter och sessioner som är inloggade på kontot och logga ut dem du inte känner igen.",
    "nb-NO": "Gå gjennom enhetene og øktene som er logget inn på kontoen, og logg ut dem du ikke kjenner igjen.",
    "da-DK": "Gennemgå de enheder og sessioner, der er logget ind på kontoen, og log dem ud, du ikke genkender.",
    "fi-FI": "Käy läpi tilille kirjautuneet laitteet ja istunnot ja kirjaa ulos ne, joita et tunnista.",
    "nl-NL": "Bekijk de apparaten en sessies die op het account zijn ingelogd en meld de apparaten af die u niet herkent.",
  },
} satisfies Record<string, Localized>;

type StepKey = keyof typeof STEPS;

/** Steps by group; a class may add its own (STEPS_BY_CLASS) before its group's. */
const STEPS_BY_GROUP: Record<CategoryGroupKey, StepKey[]> = {
  credentials: ["changePassword", "enableMfa", "passwordManager"],
  financial: ["financialFraud"],
  identity: ["identityTheft"],
  communications: ["exposedMessages"],
  contact: [],
  personal: ["personalDetails"],
  online: ["usernames"],
  technical: ["devices"],
  email: ["phishing"],
  sensitive: [],
  other: [],
};

const STEPS_BY_CLASS: Record<string, StepKey[]> = {
  "security questions and answers": ["securityQuestions"],
  "mothers maiden names": ["securityQuestions"],
  "phone numbers": ["smishing"],
  "partial phone numbers": ["smishing"],
  "sms messages": ["smishing"],
  "physical addresses": ["postalFraud"],
  "recovery email addresses": ["phishing"],
};

function groupsBySeverity(dataClasses: readonly string[]): Array<{ dataClass: string; group: CategoryGroupKey }> {
  return dataClasses
    .map((dataClass) => ({ dataClass, group: categoryGroupOf(dataClass) }))
    .filter(({ group }) => !CATEGORY_GROUPS[group].isBlacklist)
    .sort((a, b) => CATEGORY_GROUPS[b.group].severity - CATEGORY_GROUPS[a.group].severity);
}

/** What to do about a breach, from its data classes, most severe first, each step once. */
export function nextStepsFor(dataClasses: readonly string[], locale: LocaleCode): string[] {
  const keys = new Set<StepKey>();
  for (const { dataClass, group } of groupsBySeverity(dataClasses)) {
    for (const key of STEPS_BY_CLASS[dataClass.toLowerCase()] ?? []) keys.add(key);
    for (const key of STEPS_BY_GROUP[group]) keys.add(key);
  }
  return [...keys].map((key) => localize(STEPS[key], locale));
}

/**
 * A stealer log's own steps, in this order (docs/breaches.md, "Stealer logs"): the device first,
 * since malware still on it captures the new passwords too; then the captured websites' passwords,
 * their sessions (stealers take session cookies, which sign in without a password) and MFA.
 */
const STEALER_LOG_STEPS: readonly Localized[] = [
  {
    "en-GB": "First clean or replace the infected device: while the malware is on it, it captures every new password too.",
    "sv-SE": "Rensa eller byt först ut den infekterade enheten: så länge skadeprogrammet finns kvar fångar det även alla nya lösenord.",
    "nb-NO": "Rens eller bytt først ut den infiserte enheten: så lenge skadevaren er der, fanger den også opp alle nye passord.",
    "da-DK": "Rens eller udskift først den inficerede enhed: så længe skadeprogrammet er på den, opfanger det også alle nye adgangskoder.",
    "fi-FI":
      "Puhdista tai vaihda ensin saastunut laite: niin kauan kuin haittaohjelma on laitteessa, se kaappaa myös kaikki uudet salasanat.",
    "nl-NL":
      "Maak eerst het besmette apparaat schoon of vervang het: zolang de malware erop staat, onderschept die ook elk nieuw wachtwoord.",
  },
  {
    "en-GB": "Then change the passwords of the websites listed, and of every other account that used the same password.",
    "sv-SE": "Byt sedan lösenorden för de listade webbplatserna och för alla andra konton som använde samma lösenord.",
    "nb-NO": "Bytt deretter passordene for nettstedene i listen og for alle andre kontoer som brukte det samme passordet.",
    "da-DK": "Skift derefter adgangskoderne til de viste websteder og til alle andre konti, der brugte den samme adgangskode.",
    "fi-FI": "Vaihda sitten luettelon sivustojen salasanat sekä kaikkien muiden tilien salasanat, joissa käytettiin samaa salasanaa.",
    "nl-NL": "Wijzig daarna de wachtwoorden van de genoemde websites en van elk ander account waarin hetzelfde wachtwoord werd gebruikt.",
  },
  {
    "en-GB": "End every signed-in session on those websites (sign out everywhere): stolen session cookies work without the password.",
    "sv-SE": "Avsluta alla inloggade sessioner på de webbplatserna (logga ut överallt): stulna sessionscookies fungerar utan lösenordet.",
    "nb-NO": "Avslutt alle påloggede økter på de nettstedene (logg ut overalt): stjålne øktinformasjonskapsler virker uten passordet.",
    "da-DK": "Afslut alle aktive sessioner på de websteder (log ud overalt): stjålne sessionscookies virker uden adgangskoden.",
    "fi-FI":
      "Päätä kaikki sivustojen kirjautuneet istunnot (kirjaudu ulos kaikkialta): varastetut istuntoevästeet toimivat ilman salasanaa.",
    "nl-NL": "Beëindig alle actieve sessies op die websites (overal afmelden): gestolen sessiecookies werken zonder het wachtwoord.",
  },
  {
    "en-GB": "Turn on multi-factor authentication for those websites and for the e-mail account.",
    "sv-SE": "Aktivera tvåfaktorsautentisering för de webbplatserna och för e-postkontot.",
    "nb-NO": "Slå på tofaktorautentisering for de nettstedene og for e-postkontoen.",
    "da-DK": "Slå totrinsbekræftelse til for de websteder og for e-mailkontoen.",
    "fi-FI": "Ota monivaiheinen tunnistautuminen käyttöön näillä sivustoilla ja sähköpostitilillä.",
    "nl-NL": "Schakel meervoudige authenticatie in voor die websites en voor het e-mailaccount.",
  },
];

/** What to do about a stealer-log finding (instead of the steps of its data classes). */
export function stealerLogSteps(locale: LocaleCode): string[] {
  return STEALER_LOG_STEPS.map((step) => localize(step, locale));
}

const SUMMARY: Record<LocaleCode, (parts: { title: string; date: string; count: string; data: string }) => string> = {
  "en-GB": (p) =>
    `In ${p.date}, ${p.title} suffered a data breach affecting ${p.count} accounts.` + (p.data && ` The exposed data included ${p.data}.`),
  "sv-SE": (p) =>
    `I ${p.date} drabbades ${p.title} av ett dataintrång som berörde ${p.count} konton.` +
    (p.data && ` Bland de exponerade uppgifterna fanns ${p.data}.`),
  "nb-NO": (p) =>
    `I ${p.date} ble ${p.title} rammet av et datainnbrudd som berørte ${p.count} kontoer.` +
    (p.data && ` De eksponerte opplysningene omfattet ${p.data}.`),
  "da-DK": (p) =>
    `I ${p.date} blev ${p.title} ramt af et databrud, der berørte ${p.count} konti.` +
    (p.data && ` De eksponerede oplysninger omfattede ${p.data}.`),
  "fi-FI": (p) =>
    `${p.title} joutui tietomurron kohteeksi (ajankohta: ${p.date}), ja murto koski ${p.count} tiliä.` +
    (p.data && ` Paljastuneisiin tietoihin kuului ${p.data}.`),
  "nl-NL": (p) =>
    `In ${p.date} werd ${p.title} getroffen door een datalek waarbij ${p.count} accounts betrokken waren.` +
    (p.data && ` Tot de gelekte gegevens behoorden ${p.data}.`),
};

/** generatedDescription: a summary written from the breach's fields in the locale. */
export function generatedSummary(
  breach: { title: string; breachDate: Date; pwnCount: bigint | number; dataClasses: readonly string[] },
  locale: LocaleCode,
): string {
  const groups = [...new Set(groupsBySeverity(breach.dataClasses).map(({ group }) => group))];
  return SUMMARY[locale]({
    title: breach.title,
    date: new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(breach.breachDate),
    count: new Intl.NumberFormat(locale).format(breach.pwnCount),
    data: new Intl.ListFormat(locale, { type: "conjunction" }).format(
      groups.map((group) => localize(CATEGORY_GROUPS[group].label, locale)),
    ),
  });
}
