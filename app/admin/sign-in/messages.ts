/** next-auth's error codes of the staff sign-ins (server/api/ui/session.ts, server/auth/staff-sso.ts), in words. */
const MESSAGES: Record<string, string> = {
  RateLimited: "Too many sign-in attempts for this account or from this network. Wait a while (at most 15 minutes), then try again.",
  CredentialsSignin: "The e-mail address or password is not right.",
  MfaRequired: "Enter the 6-digit code from your authenticator app, or one of your recovery codes.",
  MfaInvalid: "The authentication code is not right or was used already. Enter the current code, or an unused recovery code.",
  SsoRequired: "Your organization signs in with single sign-on: use the single sign-on button.",
  OAuthSignin: "Single sign-on could not be started: the identity provider could not be reached or refused the request.",
  OAuthCallback:
    "Single sign-on did not complete: the identity provider's answer could not be verified, or the sign-in was already used. Try again.",
  OAuthAccountNotLinked: "Single sign-on did not complete. Try again.",
  SsoNotConfigured: "Single sign-on is not set up for this organization.",
  SsoIssuer: "The identity provider's answer names another issuer.",
  SsoEmail: "The identity provider did not vouch for an e-mail address.",
  SsoDomain: "This e-mail address's domain may not sign in with this organization's single sign-on.",
  SsoNoAccount: "There is no admin account for this address. Ask an owner of your organization for an invitation.",
  SsoOtherAccount: "This address's admin account is linked to another identity or another organization.",
};

export function signInErrorMessage(code: string): string {
  return MESSAGES[code] ?? "Signing in did not work. Please try again.";
}
