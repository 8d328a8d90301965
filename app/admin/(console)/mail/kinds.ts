import type { NotificationKind } from "@/server/notifications/types";

export const KIND_LABELS: Record<NotificationKind, string> = {
  welcome: "Welcome",
  breach_alert: "Breach alert",
  monthly_report: "Monthly report",
  webhook_failing: "Webhook failing",
  webhook_disabled: "Webhook disabled",
  psa_failing: "PSA failing",
};

/** Whom a message concerns, as the preview lists it: a partner's customer, a partner, or the distributor itself. */
export function concerns(message: {
  customer: { companyName: string; partner: { name: string } } | null;
  partner: { name: string } | null;
  distributor: { name: string } | null;
}): { name: string; detail: string } {
  if (message.customer) return { name: message.customer.companyName, detail: message.customer.partner.name };
  if (message.partner) return { name: message.partner.name, detail: "partner" };
  return { name: message.distributor?.name ?? "—", detail: "your organization" };
}
