/** next-auth's error codes of the staff provider (server/api/ui/session.ts), in words. */
export function signInErrorMessage(code: string): string {
  if (code === "RateLimited") {
    return "Too many sign-in attempts for this account or from this network. Wait a while (at most 15 minutes), then try again.";
  }
  if (code === "CredentialsSignin") return "The e-mail address or password is not right.";
  return "Signing in did not work. Please try again.";
}
