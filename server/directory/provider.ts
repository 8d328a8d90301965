/**
 * A customer's own directory, as the sync reads it (docs/directory.md). Microsoft 365 / Entra ID
 * is the one provider today (microsoft-graph.ts); another (Google Workspace) implements the same
 * interface and gets a case in providers.ts.
 */
export type DirectoryProviderName = "microsoft365";

/** One user as a page of changes reports it. A property left out did not change. */
export interface DirectoryUserChange {
  id: string;
  /** Deleted, or no longer visible to the application. */
  removed: boolean;
  displayName?: string | null;
  mail?: string | null;
  userPrincipalName?: string | null;
  /** Every address of the mailbox with its type prefix: "SMTP:" the primary one, "smtp:" an alias. */
  proxyAddresses?: string[];
  accountEnabled?: boolean | null;
  /** "Member" or "Guest". */
  userType?: string | null;
}

/**
 * A page of user changes. `next`: the cursor of the following page of this round; without it the
 * round is complete and `delta` is where the next round starts (only what changed since).
 */
export interface UserChangesPage {
  users: DirectoryUserChange[];
  next?: string;
  delta?: string;
}

/** A page of the ids of a group's members, nested groups' members included. */
export interface GroupMembersPage {
  userIds: string[];
  next?: string;
}

export interface DirectoryDomain {
  name: string;
  /** The tenant proved it owns the domain. */
  verified: boolean;
  /** The tenant's own initial domain (contoso.onmicrosoft.com). */
  initial: boolean;
}

export interface DirectoryProvider {
  readonly name: DirectoryProviderName;
  /** User changes from a cursor this provider returned (`next` or `delta`), or from the start. */
  userChanges(cursor: string | undefined): Promise<UserChangesPage>;
  groupMembers(groupId: string, cursor: string | undefined): Promise<GroupMembersPage>;
  domains(): Promise<DirectoryDomain[]>;
}

/**
 * The directory refused the application: wrong credentials, a permission without admin consent,
 * an unknown group. The connection fails with this message, which says what to do; no retry
 * mends it before someone acts.
 */
export class DirectoryAccessError extends Error {
  override name = "DirectoryAccessError";
}

/** The stored `delta` cursor is no longer accepted: the next round starts from the beginning. */
export class DirectoryCursorExpiredError extends Error {
  override name = "DirectoryCursorExpiredError";
}
