import { Prisma, type Queryable } from "../db/client";
import { queueNotification } from "./messages";

export interface OnboardedCustomer {
  id: string;
  partnerId: string;
  status: string;
  companyName: string;
  contactEmail: string;
  localeCode: string;
  assets: ReadonlyArray<{ kind: "domain" | "email"; value: string }>;
}

/**
 * The welcome message of a customer onboarded as active, to its contact e-mail, when the
 * partner sends welcome e-mails (send_customer_welcome_emails, checked in the same statement).
 * Prospects get none (docs/notifications.md). Called in the onboarding transaction.
 */
export async function queueWelcomeEmail(tx: Queryable, customer: OnboardedCustomer): Promise<void> {
  if (customer.status !== "active") return;
  const values = (kind: "domain" | "email") => customer.assets.filter((asset) => asset.kind === kind).map((asset) => asset.value);
  await queueNotification(
    tx,
    {
      customerId: customer.id,
      cause: "onboard",
      localeCode: customer.localeCode,
      recipients: [customer.contactEmail.toLowerCase()],
      content: { kind: "welcome", data: { companyName: customer.companyName, domains: values("domain"), emails: values("email") } },
    },
    Prisma.sql`EXISTS (SELECT 1 FROM partners WHERE id = ${customer.partnerId}::uuid AND send_customer_welcome_emails)`,
  );
}
