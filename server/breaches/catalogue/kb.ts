import type { Queryable } from "../../db/client";
import { DEFAULT_LOCALE, LOCALE_CODES, localize, type LocaleCode, type Localized } from "../../i18n/locales";
import { CATEGORY_GROUPS, categoryGroupOf, type CategoryGroupKey } from "./categories";
import { nextStepsFor } from "./texts";

/**
 * The knowledge-base page of a breach category, where the `link` of each category in the API's
 * answers leads (/kb/breach-categories/<slug>, docs/breaches.md, "Categories"), in the six locales.
 * The category names are the catalogue's (English, as HIBP gives them); what the data is, why it
 * matters and what to do are written per group.
 */

export const KB_PREFIX = "/kb/breach-categories/";

const GROUP_TEXTS: Record<CategoryGroupKey, Localized> = {
  credentials: {
    "en-GB":
      "Passwords and other secrets that sign a person in or recover an account. Attackers try them on other services (credential stuffing) and take over accounts.",
    "sv-SE":
      "Lösenord och andra hemligheter som loggar in en person eller återställer ett konto. Angripare prövar dem på andra tjänster och tar över konton.",
    "nb-NO":
      "Passord og andre hemmeligheter som logger en person inn eller gjenoppretter en konto. Angripere prøver dem på andre tjenester og tar over kontoer.",
    "da-DK":
      "Adgangskoder og andre hemmeligheder, der logger en person ind eller gendanner en konto. Angribere prøver dem på andre tjenester og overtager konti.",
    "fi-FI":
      "Salasanat ja muut salaisuudet, joilla kirjaudutaan sisään tai palautetaan tili. Hyökkääjät kokeilevat niitä muissa palveluissa ja kaappaavat tilejä.",
    "nl-NL":
      "Wachtwoorden en andere geheimen waarmee iemand inlogt of een account herstelt. Aanvallers proberen ze bij andere diensten en nemen accounts over.",
  },
  financial: {
    "en-GB": "Payment cards, bank accounts and other financial data. Attackers use them for fraud and for convincing payment scams.",
    "sv-SE":
      "Betalkort, bankkonton och andra finansiella uppgifter. Angripare använder dem för bedrägerier och trovärdiga betalningsbluffar.",
    "nb-NO":
      "Betalingskort, bankkontoer og andre økonomiske opplysninger. Angripere bruker dem til svindel og troverdige betalingssvindler.",
    "da-DK":
      "Betalingskort, bankkonti og andre økonomiske oplysninger. Angribere bruger dem til svindel og troværdige betalingssvindelnumre.",
    "fi-FI": "Maksukortit, pankkitilit ja muut taloudelliset tiedot. Hyökkääjät käyttävät niitä petoksiin ja uskottaviin maksuhuijauksiin.",
    "nl-NL":
      "Betaalkaarten, bankrekeningen en andere financiële gegevens. Aanvallers gebruiken ze voor fraude en overtuigende betalingsoplichting.",
  },
  identity: {
    "en-GB": "Government identifiers and identity documents. Attackers use them for identity theft and to pass identity checks.",
    "sv-SE": "Personnummer och id-handlingar. Angripare använder dem för identitetsstöld och för att klara identitetskontroller.",
    "nb-NO": "Fødselsnumre og identitetsdokumenter. Angripere bruker dem til identitetstyveri og for å komme gjennom identitetskontroller.",
    "da-DK": "CPR-numre og identitetsdokumenter. Angribere bruger dem til identitetstyveri og til at komme igennem identitetstjek.",
    "fi-FI":
      "Henkilötunnukset ja henkilöllisyystodistukset. Hyökkääjät käyttävät niitä identiteettivarkauksiin ja tunnistautumisen läpäisemiseen.",
    "nl-NL":
      "Burgerservicenummers en identiteitsbewijzen. Aanvallers gebruiken ze voor identiteitsfraude en om identiteitscontroles te doorstaan.",
  },
  communications: {
    "en-GB": "The content of private communication. It can reveal business information and helps attackers impersonate contacts.",
    "sv-SE":
      "Innehållet i privat kommunikation. Det kan avslöja affärsinformation och hjälper angripare att utge sig för att vara kontakter.",
    "nb-NO":
      "Innholdet i privat kommunikasjon. Det kan avsløre forretningsinformasjon og hjelper angripere å utgi seg for å være kontakter.",
    "da-DK":
      "Indholdet af privat kommunikation. Det kan afsløre forretningsoplysninger og hjælper angribere med at udgive sig for kontakter.",
    "fi-FI": "Yksityisen viestinnän sisältö. Se voi paljastaa liiketoimintatietoja ja auttaa hyökkääjiä esiintymään tuttuina.",
    "nl-NL":
      "De inhoud van privécommunicatie. Die kan bedrijfsinformatie onthullen en helpt aanvallers zich als contactpersoon voor te doen.",
  },
  contact: {
    "en-GB": "Phone numbers and postal addresses. Attackers use them for scam calls and text messages, and for targeted fraud.",
    "sv-SE": "Telefonnummer och postadresser. Angripare använder dem för bedrägliga samtal och sms och för riktade bedrägerier.",
    "nb-NO": "Telefonnumre og postadresser. Angripere bruker dem til svindelanrop og -meldinger og til målrettet svindel.",
    "da-DK": "Telefonnumre og postadresser. Angribere bruger dem til svindelopkald og -beskeder og til målrettet svindel.",
    "fi-FI":
      "Puhelinnumerot ja postiosoitteet. Hyökkääjät käyttävät niitä huijauspuheluihin ja -viesteihin sekä kohdennettuihin petoksiin.",
    "nl-NL": "Telefoonnummers en postadressen. Aanvallers gebruiken ze voor oplichtingstelefoontjes en -berichten en voor gerichte fraude.",
  },
  personal: {
    "en-GB": "Details about a person, such as names, dates of birth and employers. They make phishing and pretexting more convincing.",
    "sv-SE": "Uppgifter om en person, som namn, födelsedatum och arbetsgivare. De gör nätfiske och bluffar mer övertygande.",
    "nb-NO": "Opplysninger om en person, som navn, fødselsdato og arbeidsgiver. De gjør phishing og falske henvendelser mer overbevisende.",
    "da-DK":
      "Oplysninger om en person, som navne, fødselsdatoer og arbejdsgivere. De gør phishing og falske henvendelser mere overbevisende.",
    "fi-FI":
      "Henkilöä koskevat tiedot, kuten nimi, syntymäaika ja työnantaja. Ne tekevät tietojenkalastelusta ja huijauksista uskottavampia.",
    "nl-NL": "Gegevens over een persoon, zoals namen, geboortedata en werkgevers. Ze maken phishing en misleiding overtuigender.",
  },
  online: {
    "en-GB": "Usernames and online profiles. They link a person's accounts across services.",
    "sv-SE": "Användarnamn och onlineprofiler. De kopplar samman en persons konton i olika tjänster.",
    "nb-NO": "Brukernavn og nettprofiler. De knytter en persons kontoer i ulike tjenester sammen.",
    "da-DK": "Brugernavne og onlineprofiler. De forbinder en persons konti på tværs af tjenester.",
    "fi-FI": "Käyttäjätunnukset ja verkkoprofiilit. Niiden avulla henkilön tilit eri palveluissa voidaan yhdistää.",
    "nl-NL": "Gebruikersnamen en onlineprofielen. Ze koppelen iemands accounts bij verschillende diensten aan elkaar.",
  },
  technical: {
    "en-GB": "Device and network data such as IP addresses and device identifiers. They reveal locations and habits.",
    "sv-SE": "Enhets- och nätverksdata som IP-adresser och enhetsidentiteter. De avslöjar platser och vanor.",
    "nb-NO": "Enhets- og nettverksdata som IP-adresser og enhetsidentifikatorer. De avslører steder og vaner.",
    "da-DK": "Enheds- og netværksdata som IP-adresser og enhedsidentifikatorer. De afslører steder og vaner.",
    "fi-FI": "Laite- ja verkkotiedot, kuten IP-osoitteet ja laitetunnisteet. Ne paljastavat sijainteja ja tottumuksia.",
    "nl-NL": "Apparaat- en netwerkgegevens zoals IP-adressen en apparaat-ID's. Ze verraden locaties en gewoonten.",
  },
  email: {
    "en-GB": "The e-mail address itself. An exposed address receives more spam and more phishing.",
    "sv-SE": "Själva e-postadressen. En exponerad adress får mer skräppost och fler nätfiskeförsök.",
    "nb-NO": "Selve e-postadressen. En eksponert adresse får mer søppelpost og flere phishingforsøk.",
    "da-DK": "Selve e-mailadressen. En eksponeret adresse modtager mere spam og flere phishingforsøg.",
    "fi-FI": "Itse sähköpostiosoite. Paljastunut osoite saa enemmän roskapostia ja tietojenkalasteluyrityksiä.",
    "nl-NL": "Het e-mailadres zelf. Een gelekt adres ontvangt meer spam en meer phishing.",
  },
  sensitive: {
    "en-GB":
      "Special categories of personal data, such as health, sex life, beliefs and ethnic origin. The service never shows them next to a person's address and never scores them.",
    "sv-SE":
      "Känsliga personuppgifter, som hälsa, sexualliv, övertygelser och etniskt ursprung. Tjänsten visar dem aldrig tillsammans med en persons adress och räknar dem aldrig in i poängen.",
    "nb-NO":
      "Særlige kategorier av personopplysninger, som helse, seksualliv, overbevisning og etnisk opprinnelse. Tjenesten viser dem aldri sammen med en persons adresse og teller dem aldri med i poengsummen.",
    "da-DK":
      "Særlige kategorier af personoplysninger, som helbred, seksualliv, overbevisning og etnisk oprindelse. Tjenesten viser dem aldrig sammen med en persons adresse og tæller dem aldrig med i scoren.",
    "fi-FI":
      "Erityiset henkilötietoryhmät, kuten terveys, seksuaalinen käyttäytyminen, vakaumus ja etninen alkuperä. Palvelu ei koskaan näytä niitä henkilön osoitteen yhteydessä eikä laske niitä pisteisiin.",
    "nl-NL":
      "Bijzondere persoonsgegevens, zoals gezondheid, seksueel leven, overtuigingen en etnische afkomst. De dienst toont ze nooit naast iemands adres en telt ze nooit mee in de score.",
  },
  other: {
    "en-GB": "Other information about a person or their activity.",
    "sv-SE": "Annan information om en person eller personens aktiviteter.",
    "nb-NO": "Annen informasjon om en person eller personens aktivitet.",
    "da-DK": "Andre oplysninger om en person eller personens aktivitet.",
    "fi-FI": "Muuta tietoa henkilöstä tai hänen toiminnastaan.",
    "nl-NL": "Overige informatie over een persoon of diens activiteiten.",
  },
};

interface PageTexts {
  heading: (name: string) => string;
  kind: string;
  seriousness: string;
  severity: (level: number) => string;
  whatToDo: string;
  notShown: string;
  languages: string;
}

const PAGE_TEXTS: Record<LocaleCode, PageTexts> = {
  "en-GB": {
    heading: (name) => `${name} exposed in a data breach`,
    kind: "Kind of data",
    seriousness: "How serious",
    severity: (level) => ["Not scored", "Low", "Medium", "High", "Critical"][levelIndex(level)]!,
    whatToDo: "What to do",
    notShown: "This category is never shown in breach answers or alerts, and never counts towards the threat score.",
    languages: "Other languages",
  },
  "sv-SE": {
    heading: (name) => `${name} exponerade i ett dataintrång`,
    kind: "Typ av uppgifter",
    seriousness: "Hur allvarligt",
    severity: (level) => ["Räknas inte", "Låg", "Medel", "Hög", "Kritisk"][levelIndex(level)]!,
    whatToDo: "Vad du bör göra",
    notShown: "Den här kategorin visas aldrig i svar eller larm om intrång och räknas aldrig in i hotpoängen.",
    languages: "Andra språk",
  },
  "nb-NO": {
    heading: (name) => `${name} eksponert i et datainnbrudd`,
    kind: "Type opplysninger",
    seriousness: "Hvor alvorlig",
    severity: (level) => ["Telles ikke", "Lav", "Middels", "Høy", "Kritisk"][levelIndex(level)]!,
    whatToDo: "Hva du bør gjøre",
    notShown: "Denne kategorien vises aldri i svar eller varsler om innbrudd og teller aldri med i trusselpoengsummen.",
    languages: "Andre språk",
  },
  "da-DK": {
    heading: (name) => `${name} eksponeret i et databrud`,
    kind: "Type oplysninger",
    seriousness: "Hvor alvorligt",
    severity: (level) => ["Tælles ikke", "Lav", "Middel", "Høj", "Kritisk"][levelIndex(level)]!,
    whatToDo: "Hvad du bør gøre",
    notShown: "Denne kategori vises aldrig i svar eller advarsler om brud og tæller aldrig med i trusselsscoren.",
    languages: "Andre sprog",
  },
  "fi-FI": {
    heading: (name) => `${name} paljastui tietomurrossa`,
    kind: "Tietojen tyyppi",
    seriousness: "Kuinka vakavaa",
    severity: (level) => ["Ei lasketa", "Matala", "Keskitaso", "Korkea", "Kriittinen"][levelIndex(level)]!,
    whatToDo: "Mitä tehdä",
    notShown: "Tätä luokkaa ei koskaan näytetä tietomurtovastauksissa tai -hälytyksissä, eikä sitä lasketa uhkapisteisiin.",
    languages: "Muut kielet",
  },
  "nl-NL": {
    heading: (name) => `${name} gelekt bij een datalek`,
    kind: "Soort gegevens",
    seriousness: "Hoe ernstig",
    severity: (level) => ["Telt niet mee", "Laag", "Gemiddeld", "Hoog", "Kritiek"][levelIndex(level)]!,
    whatToDo: "Wat u kunt doen",
    notShown: "Deze categorie wordt nooit getoond in antwoorden of meldingen over datalekken en telt nooit mee in de dreigingsscore.",
    languages: "Andere talen",
  },
};

/** Severity 0 (blacklisted), 1-3 low, 4-6 medium, 7-8 high, 9-10 critical. */
function levelIndex(severity: number): number {
  return severity === 0 ? 0 : severity <= 3 ? 1 : severity <= 6 ? 2 : severity <= 8 ? 3 : 4;
}

export const LANGUAGE_NAMES: Record<LocaleCode, string> = {
  "sv-SE": "Svenska",
  "nb-NO": "Norsk",
  "fi-FI": "Suomi",
  "da-DK": "Dansk",
  "en-GB": "English",
  "nl-NL": "Nederlands",
};

export interface CategoryPage {
  locale: LocaleCode;
  slug: string;
  name: string;
  heading: string;
  kindLabel: string;
  kind: string;
  about: string;
  seriousnessLabel: string;
  seriousness: string;
  whatToDoLabel: string;
  nextSteps: string[];
  /** Set for a blacklisted category: why the service never shows it. */
  notShown?: string;
  languagesLabel: string;
}

/** The page of the category whose link is /kb/breach-categories/<slug>, or undefined when there is none. */
export async function breachCategoryPage(db: Queryable, slug: string, locale: LocaleCode): Promise<CategoryPage | undefined> {
  if (!/^[a-z0-9-]{1,100}$/.test(slug)) return undefined;
  const category = await db.breachCategory.findFirst({ where: { link: KB_PREFIX + slug }, select: { name: true } });
  if (!category) return undefined;
  const group = categoryGroupOf(category.name);
  const { severity, isBlacklist, label } = CATEGORY_GROUPS[group];
  const texts = PAGE_TEXTS[locale];
  return {
    locale,
    slug,
    name: category.name,
    heading: texts.heading(category.name),
    kindLabel: texts.kind,
    kind: capitalize(localize(label, locale)),
    about: localize(GROUP_TEXTS[group], locale),
    seriousnessLabel: texts.seriousness,
    seriousness: texts.severity(severity),
    whatToDoLabel: texts.whatToDo,
    nextSteps: isBlacklist ? [] : nextStepsFor([category.name], locale),
    notShown: isBlacklist ? texts.notShown : undefined,
    languagesLabel: texts.languages,
  };
}

/** The locale a page is shown in: `?lang=` when it is one of the six, else the browser's, else en-GB. */
export function kbLocale(lang: string | undefined, negotiated: LocaleCode): LocaleCode {
  return LOCALE_CODES.find((locale) => locale.toLowerCase() === lang?.toLowerCase()) ?? negotiated ?? DEFAULT_LOCALE;
}

function capitalize(text: string): string {
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}
