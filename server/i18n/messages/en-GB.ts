import { pluralOf } from "./plural";

const one = pluralOf("en-GB");

/**
 * English (United Kingdom), the default: every text, and the shape every other locale follows.
 * `portal`: the customer portal and its sign-in pages (`{name}` marks a value filled in by format(),
 * server/i18n/format.ts). `email`: the customer e-mails, the monthly report's PDF and the unsubscribe
 * page. `organization`: the operational e-mails to a webhook endpoint's owner, a partner or a
 * distributor (docs/webhooks.md, "Health and warnings"); organizations have no locale, so these
 * exist in en-GB only.
 */
const PSA_PROVIDERS = { connectwise: "ConnectWise PSA", autotask: "Autotask", halopsa: "HaloPSA" };

export const enGB = {
  portal: {
    portalName: "Exposure portal",
    skipToContent: "Skip to content",
    /** Before the partner's support contacts (a branded portal). */
    help: "Help",
    navigationLabel: "Portal",
    nav: { overview: "Overview", breaches: "Breaches", assets: "Monitored assets", settings: "E-mail settings", domains: "Domains" },
    signedInAs: "Signed in as {email}",
    signOut: "Sign out",
    menu: "Menu",
    notFound: { title: "This page does not exist", body: "The address is wrong or the page has moved.", back: "Back to the overview" },
    overview: {
      title: "Overview",
      intro: "How exposed {company} is in known data breaches.",
      threatScore: "Threat score",
      threatScoreHelp:
        "The score (0 to {max}) counts the breaches not fixed yet: passwords and financial data weigh most, recent breaches more than old ones. It falls as you fix breaches.",
      levels: { none: "No known exposure", low: "Low", moderate: "Moderate", high: "High", critical: "Critical" },
      /** The threat level in words, beside the number. */
      levelExplained: {
        none: "None of your monitored addresses is in a breach that is not fixed.",
        low: "A few minor or older exposures are not fixed yet.",
        moderate: "Breaches that exposed data worth protecting are not fixed yet.",
        high: "Breaches that exposed sensitive data, such as passwords, are not fixed yet.",
        critical: "Recent breaches exposed passwords or financial data and are not fixed. Act now.",
      },
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
      filter: "Show",
      filters: { open: "Not fixed", fixed: "Fixed", all: "All" },
      sort: "Sort by",
      sorts: { newest: "Newest first", exposed: "Most data exposed" },
      search: "Search by address",
      apply: "Apply",
      clearSearch: "Clear the search",
      noMatch: "No breaches match these choices.",
      showing: "{from}–{to} of {total}",
      pages: "Pages",
      previous: "Previous",
      next: "Next",
    },
    breach: {
      whatHappened: "What happened",
      catalogueDescription: "Description from the breach catalogue",
      nextSteps: "What to do now",
      status: "Status",
      mute: "Mute alerts about this breach",
      unmute: "Unmute alerts",
      mutedNote: "No alerts, tickets or chat messages are sent about this breach.",
      markFixed: "Mark as fixed",
      markNotFixed: "Mark as not fixed",
      saving: "Saving…",
      saved: "Saved.",
      saveFailed: "The change could not be saved. Please try again.",
      allBreaches: "All breaches",
      /** A stealer-log breach (docs/breaches.md, "Stealer logs"): the websites captured, by address. */
      capturedSites: "Malware on a device captured the passwords for these sites",
      stealerLogIntro:
        "Info-stealing malware ran on a device used with these addresses and took the passwords typed into the websites below. Deal with the device first, then the passwords.",
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
      directory: "From Microsoft 365",
      directorySynced: "Read from your Microsoft 365 directory, last synchronised {date}.",
    },
    /** E-mail settings (docs/notifications.md). */
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
      language: "Language",
      languageHelp: "The portal, the e-mails and the breach descriptions are written in this language.",
    },
    signIn: {
      errors: {
        invalid: {
          title: "This sign-in link does not work",
          body: "The link is incomplete or unknown. E-mail programs and in-app browsers sometimes cut links short.",
        },
        expired: { title: "This sign-in link has expired", body: "A sign-in link works for one hour after it is created." },
        used: { title: "This sign-in link has already been used", body: "Each sign-in link signs you in once." },
        unavailable: {
          title: "Portal access has ended",
          body: "Monitoring for your organisation has ended, so the portal is no longer available.",
        },
        "session-ended": { title: "Your session has ended", body: "For your security, sessions end after a period without activity." },
        "signed-out": { title: "You are signed out", body: "You have signed out of the portal." },
        "sign-in-required": { title: "Sign in with your link", body: "Sign in with a link sent to your e-mail address." },
      },
      newLink: "To open the portal, get a new sign-in link by e-mail.",
      getLink: "Get a sign-in link",
      stillSignedIn: "You are still signed in on this device.",
      openPortal: "Open the portal",
      /** /auth/continue: a sign-in link opened in a browser that already has a session. */
      continue: {
        title: (company: string) => `Continue as ${company}?`,
        body: "This browser is already signed in. Continue only if you asked for this sign-in link yourself; otherwise close this page.",
        submit: "Continue",
        cancel: "Not now",
      },
      /** /portal/sign-in: a sign-in link by e-mail. */
      page: {
        title: "Sign in to the portal",
        intro: "Enter your e-mail address. If it has access to a portal, we e-mail you a sign-in link.",
        email: "E-mail address",
        submit: "E-mail me a sign-in link",
        sent: "If this address has access to a portal, a sign-in link is on its way. It works once, within an hour. Check your spam folder if it does not arrive.",
        invalidEmail: "Enter a valid e-mail address, like name@example.com.",
        rateLimited: "Too many sign-in links were asked for. Please wait an hour and try again.",
        fromProvider: "Your provider can also send you a sign-in link.",
      },
    },
  },
  email: {
    common: {
      why: (partner: string, company: string) =>
        `${partner} monitors the domains and e-mail addresses of ${company} for data breaches and sends you this e-mail.`,
      reply: (partner: string) => `Questions? Reply to this e-mail to reach ${partner}.`,
      portalHint: (partner: string) => `Details and next steps for every breach are in your portal; ask ${partner} for a sign-in link.`,
      unsubscribe: {
        welcome: "Stop all e-mails from this service to this address",
        breach_alert: "Stop breach alerts to this address",
        monthly_report: "Stop monthly reports to this address",
      },
    },
    welcome: {
      subject: (company: string) => `Breach monitoring is now active for ${company}`,
      preview: "What we monitor and how to open your portal",
      heading: "Welcome to breach monitoring",
      intro: (partner: string, company: string) =>
        `${partner} has set up breach monitoring for ${company}. Every day we check whether the domains and e-mail addresses below appear in known data breaches, and we alert you when they do.`,
      domains: "Monitored domains",
      emails: "Monitored e-mail addresses",
      domainsNote: "For each monitored domain, we also find and monitor the exposed addresses at that domain.",
      portalHeading: "Your portal",
      portal: (partner: string) =>
        `The portal shows every breach found, what was exposed and what to do next. To open it, ask ${partner} for a sign-in link. Each link works once, within an hour.`,
    },
    /** A sign-in link asked for at /portal/sign-in (docs/portal.md). */
    signInLink: {
      subject: (company: string) => `Your sign-in link for ${company}`,
      preview: "Open your breach monitoring portal",
      heading: "Sign in to your portal",
      intro: (company: string) => `Someone, hopefully you, asked for a link to sign in to the breach monitoring portal of ${company}.`,
      button: "Sign in",
      expiry: "The link works once, within an hour.",
      copy: "If the button does not work, copy this address into your browser:",
      notYou: "Did not ask for it? Ignore this e-mail: nobody can sign in without the link.",
      why: (partner: string, company: string) => `${partner} monitors ${company} for data breaches; this address may open its portal.`,
    },
    alert: {
      subject: (count: number, company: string) =>
        one(count, `New data breach found for ${company}`, `${count} new data breaches found for ${company}`),
      heading: (count: number) => one(count, "1 new data breach", `${count} new data breaches`),
      intro: (company: string) => `Our latest scan found monitored addresses of ${company} in the breaches below.`,
      exposedData: "Exposed data",
      exposedAddresses: "Exposed addresses",
      nextSteps: "What to do",
      /** The heading of the breaches listed by title only (beyond the detailed ones). */
      alsoFound: "Also found",
      moreAddresses: (count: number) => `and ${count} more addresses`,
      /** A stealer-log breach's card: the websites captured for its addresses. */
      capturedSites: "Malware on a device captured the passwords for these sites",
      moreSites: (count: number) => `and ${count} more sites`,
      redactedIntro: (count: number, company: string) =>
        one(
          count,
          `The check of ${company} found 1 data breach that exposes the addresses below.`,
          `The check of ${company} found ${count} data breaches that expose the addresses below.`,
        ),
      redactedMore: (partner: string) =>
        `Which breaches these are, what was exposed and what to do about it comes with full monitoring. Ask ${partner} about it.`,
      digestSubject: (weekly: boolean, company: string) => `${weekly ? "Weekly" : "Daily"} breach summary for ${company}`,
      digestIntro: (weekly: boolean, company: string) =>
        `In the past ${weekly ? "week" : "day"} our scans found monitored addresses of ${company} in the breaches below.`,
    },
    report: {
      subject: (company: string, period: string) => `Breach report for ${company}: ${period}`,
      heading: (period: string) => `Breach report for ${period}`,
      intro: (company: string, period: string) => `How exposed ${company} was in ${period}, and what changed.`,
      threatScore: "Threat score",
      scoreOutOf: (score: string) => `${score} of 97`,
      scale: "0 means no known exposure; the scale ends at 97.",
      change: (delta: number, previous: string) =>
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
      noNew: "No new exposures this month.",
      more: (count: number) => `and ${count} more`,
      assets: "Monitored assets",
      domains: (count: number) => one(count, "1 domain", `${count} domains`),
      emails: (count: number) => one(count, "1 e-mail address", `${count} e-mail addresses`),
      attachment: "The same report is attached as a PDF.",
    },
    /** The page an unsubscribe link opens. */
    unsubscribe: {
      title: "Unsubscribe",
      what: {
        welcome: (company: string) => `e-mails about the breach monitoring of ${company}`,
        breach_alert: (company: string) => `breach alerts for ${company}`,
        monthly_report: (company: string) => `monthly breach reports for ${company}`,
      },
      question: (what: string, email: string) => `Stop ${what} to ${email}?`,
      button: "Unsubscribe",
      done: (what: string, email: string) => `Done: ${email} no longer receives ${what}.`,
      undo: "Changed your mind? The settings in your portal turn them back on.",
      invalid:
        "This unsubscribe link is not valid. Open the whole link from the e-mail, or reply to the e-mail to ask for the messages to stop.",
    },
  },
  /** Domain verification (docs/domains.md): the portal's Domains page, the e-mailed link and the page it opens. */
  domains: {
    portal: {
      title: "Your domains",
      intro:
        "Before we show which addresses at a domain appear in data breaches, you show us that the domain is yours. Until then we only count what we found.",
      status: { verified: "Verified", unverified: "Not verified yet" },
      verifiedHow: {
        dns: "Verified through DNS on {date}",
        email: "Verified by an e-mail link on {date}",
        staff: "Verified by {name} on {date}",
        directory: "Verified through your Microsoft 365 directory on {date}",
      },
      found: "Found so far: {addresses} e-mail addresses in {breaches} breaches.",
      hiddenUntilVerified: "Verify the domain to see which.",
      introShown:
        "What we found at your domains is listed on the other pages. Verifying a domain shows us that it is yours: breaches marked as sensitive are shown only at a verified domain.",
      listedElsewhere: "They are listed under Breaches.",
      partlyHidden: "{hidden} of them are shown once the domain is verified; the others are listed under Breaches.",
      dnsHeading: "Option 1: add a DNS record",
      dnsSteps:
        "Ask whoever manages the domain's DNS to add this TXT record. We look for it when you press the button, and every hour for a week.",
      recordType: "Type",
      recordName: "Name",
      recordValue: "Value",
      copyValue: "Copy",
      copied: "Copied",
      check: "Check now",
      notYet: "Not found yet: {reason}",
      emailHeading: "Option 2: get a link by e-mail",
      emailSteps: "We send a link to one of these addresses at {domain}. Whoever reads that mailbox opens the link to confirm.",
      mailbox: "Send to",
      send: "Send the link",
      sent: "We sent a link to {email}. It works once, within 24 hours.",
      none: "You have no monitored domains.",
    },
    email: {
      subject: "Confirm a breach-monitoring request for {domain}",
      intro:
        "{partner}, a partner of {distributor}, asked that its customer {company} may see which e-mail addresses at {domain} appear in known data breaches. If that organisation may see them, confirm here:",
      button: "Confirm {domain}",
      expiry: "The link works once, within 24 hours.",
      ignore: "If you do not know {company} or did not expect this message, ignore it: nothing changes.",
      stop: "Not your organisation? Stop the verification e-mails from {partner} for {domain}:",
    },
    page: {
      title: "Confirm a domain",
      question:
        "{partner}, a partner of {distributor}, asks that its customer {company} may see which addresses at {domain} appear in data breaches. Confirm?",
      confirm: "Confirm",
      done: "Done: {domain} is verified for {company}.",
      invalid: "This link is not valid. Open the whole link from the e-mail.",
      expired: "This link has expired. Ask for a new one in the portal.",
      used: "This link has been used already.",
    },
    stopPage: {
      title: "Stop verification e-mails",
      question:
        "Stop the e-mails in which {partner}, a partner of {distributor}, asks to confirm {domain}? Other senders are not affected.",
      confirm: "Stop these e-mails",
      done: "Done: {partner} sends no more verification e-mails for {domain}.",
      invalid: "This link is not valid. Open the whole link from the e-mail.",
    },
  },
  organization: {
    common: {
      why: (organization: string) =>
        `You receive this as the contact for the webhooks of ${organization}. It is sent only when an endpoint starts failing or is disabled, once for each such change.`,
      /** Said where customer e-mails have their unsubscribe link. */
      howToStop:
        "These operational messages have no unsubscribe link: while the endpoint stays in this state, no further message is sent about it. Disabling or deleting the endpoint stops them altogether.",
      endpoint: "Endpoint",
      url: "URL",
      id: "ID",
      protocol: "Protocol",
      protocols: {
        current: "current (API v1)",
        legacy: "earlier protocol (/api/integrations/webhooks)",
        channel: "chat or SIEM channel (/api/v1/integrations/channels)",
      },
      lastSuccess: "Last successful delivery",
      never: "none recorded",
      whatToDo: "What to do",
      adminPage: "The endpoint's health and delivery log in the admin UI:",
      /** An ISO time as the message shows it. */
      time: (iso: string) =>
        `${new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso))} UTC`,
    },
    failing: {
      subject: (url: string) => `Webhook deliveries are failing: ${url}`,
      preview: "Events are not reaching your webhook endpoint",
      heading: "Your webhook endpoint is failing",
      intro: (organization: string, since: string) =>
        `Events for ${organization} have not been delivered to the endpoint below since ${since}.`,
      failingSince: "Failing since",
      failuresInRow: "Failed deliveries in a row",
      lastError: "Last error",
      fix: "Check the receiver at this URL: it must answer with a 2xx status in time (the last error above says what went wrong; the endpoint's delivery log has every attempt).",
      retrying: (disableAfter: number) =>
        `Each event is retried on its schedule while you fix it. After ${disableAfter} failed deliveries in a row the endpoint is disabled, and you will be told.`,
      recover: "Deliveries that used up their attempts can be queued again once the receiver works, with a fresh round of attempts:",
    },
    disabled: {
      subject: (url: string) => `Webhook endpoint disabled: ${url}`,
      preview: "No more events are sent to your webhook endpoint",
      heading: "Your webhook endpoint was disabled",
      intro: (organization: string, at: string) => `On ${at} we stopped sending events for ${organization} to the endpoint below.`,
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
      whileDisabled:
        "Events that happen while the endpoint is disabled are kept as failed deliveries: recover them once it is enabled again.",
    },
    psaFailing: {
      providers: PSA_PROVIDERS,
      subject: (provider: keyof typeof PSA_PROVIDERS) => `Your PSA refused our credentials: ${PSA_PROVIDERS[provider]}`,
      preview: "No PSA tickets are opened or updated until the credentials work again",
      heading: "Your PSA connection is failing",
      intro: (organization: string, provider: string, since: string) =>
        `Since ${since}, ${provider} has refused the credentials exposure monitoring uses for ${organization}. No tickets are opened, updated or closed until this is fixed.`,
      provider: "PSA",
      address: "Address",
      failingSince: "Failing since",
      lastError: "What the PSA answered",
      whatToDo: "What to do",
      fix: "Check the credentials in the PSA: the API member's keys (ConnectWise), the API user and its secret (Autotask) or the application's client secret (HaloPSA), that they are still active and that their role still has the permissions the integrations guide lists.",
      replace: "Then save the new credentials, with every field of the connection, as when you connected it:",
      test: "If the PSA accepts the same credentials again (a role was fixed, say), test the connection; once it succeeds, what waited is sent:",
      waiting: "Findings of the meantime are not lost: their tickets are opened once the connection works again.",
      adminPage: "Your distributor's staff can also enter the credentials and run the test in the admin UI.",
      why: (organization: string) =>
        `You receive this as the contact of ${organization}. It is sent once each time the PSA starts refusing the credentials.`,
      howToStop:
        "These operational messages have no unsubscribe link: while the connection stays failing no further message is sent about it. Disconnecting the PSA stops them altogether.",
    },
  },
};

/** The texts of a locale, in en-GB's shape. */
export type Messages = typeof enGB;

/**
 * Another locale's texts: the portal's and the customer e-mails' complete (a missing one is a type
 * error), the organization e-mails optional (en-GB stands in for them).
 */
export type Translation = Omit<Messages, "organization"> & Partial<Pick<Messages, "organization">>;
